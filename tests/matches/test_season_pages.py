"""The seasons and transfers pages through Django's test client: who may open them, the confirmation steps, the
refusals said on the page, and the public archive's cost in queries."""

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, ClubSecretary, Team, Transfer
from matches.models import Season
from matches.seasons import services as seasons
from tests.factories import PlayerFactory, UnionFactory, UserFactory
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    return season_played()


def test_closing_asks_first_then_closes_and_the_archive_is_public(client, played, django_assert_max_num_queries):
    client.force_login(played.official)
    url = f"/official/unions/{played.union.pk}/seasons/close/?season=2026"
    ask = client.get(url).content.decode()
    assert "Close season 2026?" in ask and "It cannot be undone" in ask
    assert "Athlone Aces 1" in ask and "Hanover Park Sturks Cup · Seed 3" in ask
    assert not Season.objects.filter(status="closed").exists()

    done = client.post(url, {"season": "2026", "confirmed": "yes"})
    season = Season.objects.get(name="2026")
    assert season.is_closed and done.url == f"/seasons/{season.pk}/"

    client.logout()
    listed = client.get("/seasons/")  # one member union: its own list (issue 39)
    assert listed.status_code == 302
    with django_assert_max_num_queries(4):
        index = client.get(listed.url).content.decode()
    assert "Season 2026" in index and "Athlone Aces 1" in index
    with django_assert_max_num_queries(6):
        archive = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "Champions" in archive and "Cup winners" in archive and "Final standings" in archive
    assert archive.index("Athlone Aces 1") < archive.index("Bonteheuwel Boere 2")  # the table in order


def test_a_season_with_fixtures_to_approve_is_refused_on_the_page_naming_them(client):
    played = season_played(approve=False)
    client.force_login(played.official)
    page = client.get(f"/official/unions/{played.union.pk}/seasons/close/?season=2026").content.decode()
    assert "Season 2026 cannot close yet" in page and "1 of 6 fixtures not yet approved" in page
    assert 'name="confirmed"' not in page
    refused = client.post(f"/official/unions/{played.union.pk}/seasons/close/",
                          {"season": "2026", "confirmed": "yes"}, follow=True).content.decode()
    assert "1 of 6 fixtures not yet approved" in refused and not Season.objects.filter(status="closed").exists()


def test_the_next_season_is_started_from_the_seasons_page(client, played):
    closed = seasons.season_close(union=played.union, name="2026")
    client.force_login(played.official)
    listing = client.get(f"/official/unions/{played.union.pk}/seasons/").content.decode()
    assert f"/official/seasons/{closed.pk}/next/" in listing
    form = client.get(f"/official/seasons/{closed.pk}/next/").content.decode()
    assert 'value="2027"' in form  # the next label offered
    taken = client.post(f"/official/seasons/{closed.pk}/next/", {"name": "2026"}).content.decode()
    assert "already has a season 2026" in taken
    done = client.post(f"/official/seasons/{closed.pk}/next/", {"name": "2027"}, follow=True).content.decode()
    assert "Season 2027 is started: 2 competitions and 8 teams carried over as drafts" in done
    assert Team.objects.filter(competition__season="2027", draft=True).count() == 8
    again = client.get(f"/official/unions/{played.union.pk}/seasons/").content.decode()
    assert f"/official/seasons/{closed.pk}/next/" not in again  # started once


def test_a_transfer_is_reviewed_then_recorded_and_the_players_history_shows_it(client, played):
    player = PlayerFactory(club=played.clubs[0], registration_number="CKU-0042", first_name="Anwar",
                           last_name="Davids")
    client.force_login(played.official)
    url = f"/official/unions/{played.union.pk}/transfers/"
    today = timezone.localdate().isoformat()
    unknown = client.post(url, {"registration_number": "NOPE", "to_club": played.clubs[1].pk,
                                "transferred_on": today}).content.decode()
    assert "has registration number NOPE" in unknown
    review = client.post(url, {"registration_number": "cku-0042", "to_club": played.clubs[1].pk,
                               "transferred_on": today}).content.decode()
    assert "Transfer Anwar Davids?" in review and not Transfer.objects.exists()
    done = client.post(url, {"registration_number": "CKU-0042", "to_club": played.clubs[1].pk,
                             "transferred_on": today, "confirmed": "yes"}, follow=True).content.decode()
    assert "Anwar Davids (CKU-0042) is registered with Bonteheuwel Boere" in done
    client.logout()
    history = client.get(f"/players/{player.pk}/history/").content.decode()
    assert "Registered with <strong>Bonteheuwel Boere</strong>" in history
    assert "Athlone Aces → Bonteheuwel Boere" in history


def test_a_transfer_that_would_break_one_team_per_competition_is_refused_on_the_page(client):
    played = season_played(approve=False)
    busy = played.league_teams[0].captain
    client.force_login(played.official)
    page = client.post(f"/official/unions/{played.union.pk}/transfers/", {
        "registration_number": busy.registration_number, "to_club": played.clubs[1].pk,
        "transferred_on": dt.date(2026, 6, 1).isoformat()}).content.decode()
    assert f"{busy.full_name} cannot move yet" in page and "which is still being played" in page
    assert 'name="confirmed"' not in page


def test_a_secretary_confirms_a_draft_and_cannot_touch_another_clubs(client, played):
    seasons.season_start(season=seasons.season_close(union=played.union, name="2026"), name="2027")
    secretary = UserFactory()
    secretary.groups.add(Group.objects.get(name=GROUP_CLUB_SECRETARIES))
    ClubSecretary.objects.create(club=played.clubs[0], user=secretary)
    client.force_login(secretary)
    page = client.get("/secretary/drafts/").content.decode()
    assert "Athlone Aces 1" in page and "Bonteheuwel Boere 2" not in page
    mine = Team.objects.get(competition__season="2027", name="Athlone Aces 1")
    theirs = Team.objects.get(competition__season="2027", name="Bonteheuwel Boere 2")
    assert client.post("/secretary/drafts/", {"team": theirs.pk}).status_code == 404
    assert client.post("/secretary/drafts/", {"team": "x"}).status_code == 404
    assert client.post("/secretary/drafts/", {"team": "12345678901234567890"}).status_code == 404
    done = client.post("/secretary/drafts/", {"team": mine.pk}, follow=True).content.decode()
    assert "Athlone Aces 1 is confirmed in Premier League 2027" in done
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.draft, theirs.draft) == (False, True)


@pytest.mark.parametrize("who", ["anonymous", "stranger official", "captain", "secretary"])
def test_the_officials_pages_are_not_for_others(client, played, who):
    closed = seasons.season_close(union=played.union, name="2026")
    if who == "stranger official":
        from clubs import services as club_services

        stranger = UserFactory()
        club_services.union_official_add(union=UnionFactory(), user=stranger)
        client.force_login(stranger)
    elif who != "anonymous":
        user = UserFactory()
        user.groups.add(Group.objects.get(name=GROUP_CAPTAINS if who == "captain" else GROUP_CLUB_SECRETARIES))
        client.force_login(user)
    for url in (f"/official/unions/{played.union.pk}/seasons/",
                f"/official/unions/{played.union.pk}/seasons/close/?season=2026",
                f"/official/seasons/{closed.pk}/next/", f"/official/unions/{played.union.pk}/transfers/"):
        response = client.get(url)
        assert response.status_code == (302 if who == "anonymous" else 404), (who, url, response.status_code)
