"""What the night's pages say (issue 34): a match in play is "In play", not "Not played"; a disputed line is counted
as disputed, not as waiting to be confirmed; the official's dashboard lists tonight's matches, each once; a captain's
team sheet is locked once play has started."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Match, ResultDispute
from matches.night import boem_sheet, table_links
from tests.factories import squad
from tests.tables.conftest import links, playing  # noqa: F401 - the fixtures: a match playing now, its table links
from tests.world import make_world

pytestmark = pytest.mark.django_db


def _telman_goes_on(match, links, *, table: int = 1):  # noqa: F811
    device, _key = table_links.table_device_sign_in(code=links[table].code)
    entry = boem_sheet.going_on_record(device=device, match=match, table_number=table, team=match.home, strokes=1)
    return device, entry


def test_the_public_page_counts_a_disputed_line_as_disputed_not_as_waiting(client, playing, links):  # noqa: F811
    device, first = _telman_goes_on(playing, links)
    boem_sheet.entry_dispute(entry=first, device=device, reason="they counted 96")
    boem_sheet.going_on_record(device=device, match=playing, table_number=1, team=playing.away, strokes=1)
    html = client.get(reverse("matches:match-live", args=[playing.pk])).content.decode()
    table_1 = html[html.index('id="table-1"'):html.index('id="table-2"')]
    assert "1 waiting to be confirmed" in table_1 and "2 waiting" not in table_1
    assert "1 disputed: the referee settles it" in table_1


def test_a_match_in_play_is_in_play_on_the_officials_and_captains_pages_not_not_played(client, playing):  # noqa: F811
    assert playing.status_label == "In play: first half"
    official = make_world().a.official
    official.is_superuser = True  # the official of every union, this match's too
    official.save()
    client.force_login(official)
    for url in (reverse("matches:official-match", args=[playing.pk]),
                reverse("matches:official-competition", args=[playing.competition_id])):
        html = client.get(url).content.decode()
        assert "In play: first half" in html and not re.search(r"Not played(?! yet)", html), url


def test_the_officials_dashboard_lists_tonights_matches_each_once_with_a_link(client):
    world = make_world()
    side = world.a
    for team in (side.home, side.away):  # both captains dispute the confirmed result
        ResultDispute.objects.create(match=side.confirmed, team=team, reason="the score", raised_at=timezone.now())
    tonight_late = Match.objects.create(competition=side.league, home=side.away, away=side.home, referee=side.referee,
                                        scheduled_start=timezone.localtime().replace(hour=23, minute=0, second=0,
                                                                                      microsecond=0))
    client.force_login(side.official)
    html = client.get("/official/").content.decode()
    tonight = html[html.index("<h2>Tonight</h2>"):html.index("<h2>Competitions</h2>")]
    for match in (side.interval, tonight_late):  # at the tables now; scheduled later today
        assert tonight.count(f'href="/official/matches/{match.pk}/"') == 1
        assert tonight.count(f'href="/matches/{match.pk}/"') == 1
    assert f"/official/matches/{side.next.pk}/" not in tonight  # tomorrow's
    assert world.b.home.name not in tonight  # another union's
    assert "In play: interval" in tonight
    for match in (side.provisional, side.confirmed):  # each row once, however many disputes it has
        assert html.count(f'href="/official/matches/{match.pk}/"') == 1
    for competition in (side.league, side.cup, side.spring):
        assert html.count(f'href="/official/competitions/{competition.pk}/"') == 1


def test_a_captains_team_sheet_is_locked_once_play_has_started(client):
    side = make_world().a
    client.force_login(side.captain)
    url = reverse("matches:team-sheet", args=[side.interval.pk]) + f"?team={side.home.pk}"
    html = client.get(url).content.decode()
    assert "Submit team sheet" not in html and 'id="team-sheet-form"' not in html
    assert "the team sheet is locked" in html and "Make a substitution" in html
    assert squad(side.home)[0].full_name in html  # the sheet as it stands
    players = squad(side.home)
    refused = client.post(url, {**{f"table{n}_{role}": players[2 * n - 2 + i].pk for n in range(1, 5)
                                   for i, role in enumerate(("telman", "byspeler"))}, "team": side.home.pk},
                          follow=True)
    assert "seats are fixed for the night" in refused.content.decode()  # the service refuses it too (SAKBOC 11.3)
    before = client.get(reverse("matches:team-sheet", args=[side.next.pk]) + f"?team={side.home.pk}")
    assert "Submit team sheet" in before.content.decode() and "is locked" not in before.content.decode()


def test_tonight_keeps_last_nights_match_still_at_the_tables_after_midnight_and_nothing_older():
    from matches.this_week import matches_tonight

    side = make_world().a
    at_one_am = timezone.localtime().replace(hour=1, minute=0, second=0, microsecond=0)
    Match.objects.filter(pk=side.interval.pk).update(scheduled_start=at_one_am - timedelta(hours=5, minutes=30))
    assert [m.pk for m in matches_tonight(now=at_one_am, unions=[side.union])] == [side.interval.pk]
    Match.objects.filter(pk=side.interval.pk).update(scheduled_start=at_one_am - timedelta(days=3))
    assert matches_tonight(now=at_one_am, unions=[side.union]) == []  # a night never ended is not tonight's


def test_a_site_administrator_without_a_union_is_offered_the_set_up_once(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    html = client.get("/official/").content.decode()
    assert html.count('href="/office/setup/"') == 1 and "Set up another union" not in html
    make_world()  # with unions, "another" is the word
    html = client.get("/official/").content.decode()
    assert html.count('href="/office/setup/"') == 1 and "Set up another union" in html


def test_a_provisional_result_is_said_provisional_once_on_the_public_page(client):
    side = make_world().a
    html = client.get(reverse("matches:match-live", args=[side.provisional.pk])).content.decode()
    status = re.search(r'<p class="match-status">(.*?)</p>', html, re.DOTALL).group(1)
    assert re.sub(r"<[^>]+>|\s+", " ", status).split() == ["Finished", "·", "provisional"]
    html = client.get(reverse("matches:match-live", args=[side.confirmed.pk])).content.decode()
    assert "Confirmed" in re.search(r'<p class="match-status">(.*?)</p>', html, re.DOTALL).group(1)
