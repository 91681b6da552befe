"""API behaviour: public reads and their shapes, filtering, pagination, query counts, token sign-in, the
writes' effects, and the e-mail to captains."""

from __future__ import annotations

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from clubs.models import Player, TeamMembership
from matches.models import Match, StandingsSnapshot
from matches.notifications import ruling_notify
from plumbing.models import TaskReceipt
from tests.conftest import module_world
from tests.factories import squad

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_players_show_public_fields_only(api, world):
    world.a.home.captain.refresh_from_db()
    data = api.get(f"/api/players/{world.a.home.captain.pk}/").json()
    assert set(data) == {"id", "registration_number", "national_number", "first_name", "last_name", "name", "club",
                         "union", "active"}


def test_lists_are_paginated_and_filtered(api, world, django_assert_max_num_queries):
    # The filter's lookup of the competition, the count, the page, the squads: 4 however many teams.
    with django_assert_max_num_queries(4):
        page = api.get("/api/teams/", {"competition": world.a.league.pk}).json()
    assert page["count"] == 2 and {t["name"] for t in page["results"]} == {"A Home", "A Away"}
    assert len(page["results"][0]["squad"]) == 10
    players = api.get("/api/players/", {"club": world.a.club.pk}).json()
    assert players["count"] == 10 + 1 + 8 + 8  # the home squad, the spare player, cup team 0, the spring team
    assert api.get("/api/fixtures/", {"team": world.a.home.pk}).json()["count"] == 5
    assert api.get("/api/fixtures/", {"team": "x"}).status_code == 400
    assert api.get("/api/fixtures/", {"team": "1234567890"}).status_code == 400  # 1 to 9 digits (plumbing.api)
    assert api.get("/api/clubs/", {"union": world.b.union.pk}).json()["count"] == 2


def test_results_are_provisional_until_approved_with_tables_and_awards(api, world, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):
        results = api.get("/api/results/", {"competition": world.a.league.pk}).json()["results"]
    assert [(r["home_score"], r["away_score"], r["provisional"]) for r in results] == [
        (30, 22, True), (18, 26, True), (20, 20, False)]
    assert results[0]["tables"] == [] and results[0]["awards"] == []


def test_captain_registers_a_player_and_builds_the_squad(api, world):
    api.force_authenticate(world.a.captain)
    created = api.post("/api/players/", {"club": world.a.club.pk, "registration_number": "SPKU-777",
                                         "first_name": "Gamat", "last_name": "Davids"}, format="json")
    assert created.status_code == 201
    player = Player.objects.get(registration_number="SPKU-777")
    assert player.union == world.a.union
    duplicate = api.post("/api/players/", {"club": world.a.club.pk, "registration_number": "SPKU-777",
                                           "first_name": "X", "last_name": "Y"}, format="json")
    assert duplicate.status_code == 400
    added = api.post(f"/api/teams/{world.a.home.pk}/players/", {"player": player.pk}, format="json")
    assert added.status_code == 201 and player.pk in added.json()["squad"]
    assert TeamMembership.objects.filter(team=world.a.home, player=player).exists()


def test_team_sheet_rules_come_back_as_400_citing_the_clause(api, world):
    api.force_authenticate(world.a.captain)
    players = squad(world.a.home)
    two_tables = {"partnerships": [{"table": n, "telman": players[2 * n - 2].pk, "byspeler": players[2 * n - 1].pk}
                                   for n in (1, 2)]}
    response = api.post(f"/api/fixtures/{world.a.next.pk}/team-sheet/", two_tables, format="json")
    assert response.status_code == 400 and "SAKBOC 1.5" in str(response.json())


def test_token_sign_in(api, world):
    world.a.official.set_password("pw-for-token-test")
    world.a.official.save()
    token = api.post("/api/auth/token/", {"username": "official_A", "password": "pw-for-token-test"}).json()["token"]
    assert AuthToken.objects.get(token_key=token[:15]).user == world.a.official
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.post("/api/competitions/", {"union": world.a.union.pk, "name": "Token Cup", "season": "2027",
                                               "kind": "knockout"}, format="json")
    assert response.status_code == 201


def test_approval_then_publish_freezes_a_dated_snapshot_and_mails_the_captains(api, world, mailoutbox,
                                                                             django_capture_on_commit_callbacks):
    api.force_authenticate(world.a.official)
    with django_capture_on_commit_callbacks(execute=True):
        approved = api.post(f"/api/fixtures/{world.a.confirmed.pk}/approve/", {}, format="json")
    assert approved.status_code == 200 and approved.json()["provisional"] is False
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        published = api.post(f"/api/competitions/{world.a.league.pk}/standings/", {"title": "After round 2"},
                             format="json")
    assert published.status_code == 201
    snapshot = StandingsSnapshot.objects.get(pk=published.json()["id"])
    assert [row["team_name"] for row in snapshot.rows][0] == "A Away"
    assert sorted(m.to[0] for m in mailoutbox) == ["away_captain_A@example.org", "captain_A@example.org"]
    assert all("After round 2" in m.subject for m in mailoutbox)
    # Later results do not change a published table.
    Match.objects.filter(pk=world.a.provisional.pk).update(result_status=Match.ResultStatus.APPROVED)
    assert api.get(f"/api/standings/{snapshot.pk}/").json()["rows"] == snapshot.rows


def test_scheduling_a_fixture_mails_both_captains_once(api, world, mailoutbox, django_capture_on_commit_callbacks):
    api.force_authenticate(world.a.official)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/fixtures/", {"competition": world.a.league.pk, "home": world.a.away.pk,
                                               "away": world.a.home.pk,
                                               "scheduled_start": "2027-04-01T19:30:00+02:00"}, format="json")
    assert response.status_code == 201
    assert sorted(m.to[0] for m in mailoutbox) == ["away_captain_A@example.org", "captain_A@example.org"]
    assert "A Away v A Home" in mailoutbox[0].subject
    # A second delivery of the same task sends nothing (idempotent through the task receipt).
    from matches.notifications import fixture_scheduled_email

    assert fixture_scheduled_email(response.json()["id"]) == 0
    assert len(mailoutbox) == 2


def test_ruling_notify_mails_only_the_captains_of_the_match(world, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ruling_notify(ruling_id=41, match_id=world.a.interval.pk, team_ids=[world.a.home.pk, world.b.home.pk],
                      summary="Straf upheld at table 2: revoke (SAKBOC 3.3).")
    assert [m.to for m in mailoutbox] == [["captain_A@example.org"]]
    assert "revoke (SAKBOC 3.3)" in mailoutbox[0].body
    assert TaskReceipt.objects.filter(key="notify:ruling:41").exists()
    with django_capture_on_commit_callbacks(execute=True):
        ruling_notify(ruling_id=41, match_id=world.a.interval.pk, team_ids=[world.a.home.pk], summary="again")
    assert len(mailoutbox) == 1


def test_huge_and_malformed_ids_are_client_errors(api, world):
    assert api.get("/api/teams/99999999999999999999/").status_code == 404
    assert api.get("/api/teams/", {"club": "99999999999999999999"}).status_code == 400
    api.force_authenticate(world.a.captain)
    assert api.post("/api/players/", {"club": 10**12, "registration_number": "x", "first_name": "a",
                                      "last_name": "b"}, format="json").status_code == 400
