"""The season's routine through the API: entries, referees from the union's list, disputes, corrections and
publication. Each refusal is a 400 naming its reason (the permission matrix covers who may call what)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import ClubSecretary
from matches.models import Match
from tests.conftest import module_world
from tests.factories import squad

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_secretary_enters_a_team_with_its_squad_and_a_short_squad_is_refused(world):
    side = world.a
    players = [p.pk for p in squad(side.home)[:8]]
    url = f"/api/competitions/{side.spring.pk}/teams/"
    secretary = _client(side.secretary)
    short = secretary.post(url, {"club": side.club.pk, "name": "Seconds", "players": players[:7],
                                 "captain": players[0]}, format="json")
    assert short.status_code == 400 and "SAKBOC 1.5" in short.json()["players"][0]
    entered = secretary.post(url, {"club": side.club.pk, "name": "Seconds", "players": players,
                                   "captain": players[1]}, format="json")
    assert entered.status_code == 201
    assert (sorted(entered.json()["squad"]), entered.json()["captain"]) == (sorted(players), players[1])


def test_fixtures_are_refused_while_entries_are_open(world):
    official = _client(world.a.official)
    response = official.post(f"/api/competitions/{world.a.spring.pk}/fixtures/", {"start": "2027-03-03"},
                             format="json")
    assert response.status_code == 400 and "still open for entries" in response.json()["detail"][0]
    closed = official.post(f"/api/competitions/{world.a.spring.pk}/entries/", {"open": False}, format="json")
    assert closed.status_code == 200 and closed.json()["entries_open"] is False


def test_a_conflicted_or_unlisted_referee_is_refused_with_the_reason(world):
    side = world.a
    ClubSecretary.objects.create(club=side.away.club, user=side.official)  # the official is a secretary too
    official = _client(side.official)
    official.post(f"/api/unions/{side.union.pk}/referees/", {"user": side.captain.pk}, format="json")
    url = f"/api/fixtures/{side.next.pk}/officials/"
    captain = official.post(url, {"referee": side.captain.pk}, format="json")
    assert captain.status_code == 400 and f"captains {side.home.name}" in captain.json()["referee"][0]
    unlisted = official.post(url, {"marker": world.nobody.pk}, format="json")
    assert unlisted.status_code == 400 and "is not on" in unlisted.json()["marker"][0]
    listed = official.get(f"/api/unions/{side.union.pk}/referees/").json()
    assert {r["username"] for r in listed} == {side.referee.username, side.captain.username}


def test_dispute_correct_approve_and_the_result_state(world, mailoutbox, django_capture_on_commit_callbacks):
    side = world.a
    match = side.provisional
    captain, official = _client(side.away_captain), _client(side.official)
    assert captain.post(f"/api/fixtures/{match.pk}/dispute/", {"reason": ""}, format="json").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        disputed = captain.post(f"/api/fixtures/{match.pk}/dispute/", {"reason": "Table 2 is 3 strokes short"},
                                format="json")
    assert disputed.status_code == 201 and disputed.json()["team_name"] == side.away.name
    assert {m.to[0] for m in mailoutbox} == {side.official.email, side.referee.email}
    refused = official.post(f"/api/fixtures/{match.pk}/approve/", {}, format="json")
    assert refused.status_code == 400 and "disputes this result" in refused.json()["detail"][0]
    no_reason = official.post(f"/api/fixtures/{match.pk}/result/", {"home_score": 30, "away_score": 25,
                                                                    "reason": ""}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    corrected = official.post(f"/api/fixtures/{match.pk}/result/", {"home_score": 30, "away_score": 25,
                                                                    "reason": "table 2 recounted"}, format="json")
    state = corrected.json()
    assert corrected.status_code == 200 and state["result_status"] == "confirmed"
    assert state["disputes"][0]["settlement"] == "Score set to 30-25 (was 30-22): table 2 recounted"
    assert official.post(f"/api/fixtures/{match.pk}/approve/", {}, format="json").status_code == 200
    seen = captain.get(f"/api/fixtures/{match.pk}/result/").json()
    assert (seen["result_status"], seen["approved_by"]) == ("approved", side.official.get_full_name())
    assert Match.objects.get(pk=match.pk).home_score == 30


def test_standings_are_published_once_per_newly_approved_result(world):
    official = _client(world.a.official)
    url = f"/api/competitions/{world.a.league.pk}/standings/"
    assert official.post(url, {"title": "Round 3"}, format="json").status_code == 201
    again = official.post(url, {"title": "Round 3 again"}, format="json")
    assert again.status_code == 400 and "No result has been approved since" in again.json()["detail"][0]
