"""The permission matrix: every role against every write endpoint of the API, on its own union's objects and
on another union's, allowed or denied as designed (clubs/permissions.py).

Allowed means the request reached the service and did what it asked (2xx), or the service itself refused it
by a rule (a 403 whose message is that rule, e.g. a club secretary confirming a result, which SAKBOC leaves to
captains and the referee). Denied is 403 for the anonymous public and 404 for a signed-in user who is not
entitled: "not yours" answers exactly like "not there".

Every case is a test of its own, but they share one world (tests/world.py), built once for the module in a
transaction that is rolled back after the last test (the ``world`` fixture, tests/conftest.py): building it
per case made the matrix slow. Each case still starts from the world exactly as built: it runs in a savepoint
of its own, rolled back after it, so no case sees another's writes, and it gets the world's objects read afresh
from the database, so none sees another's changes in memory either.
"""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from tests.conftest import module_world
from tests.factories import squad
from tests.world import ROLES, Side, World, api_call, bench, matrix_answer_check

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)


def _endpoints(side: Side) -> dict[str, tuple[str, str, object]]:
    """name -> (method, url, body) acting on ``side``'s objects."""
    home_players = squad(side.home)
    seated_out = home_players[0]
    return {
        "player register": ("post", "/api/players/", {"club": side.club.pk, "registration_number": "NEW-1",
                                                      "first_name": "Nuwe", "last_name": "Speler"}),
        "player update": ("patch", f"/api/players/{side.spare_player.pk}/", {"active": False}),
        "team enter": ("post", f"/api/competitions/{side.spring.pk}/teams/", {
            "club": side.club.pk, "name": "Second team", "players": [p.pk for p in home_players[:8]],
            "captain": home_players[0].pk}),
        "team withdraw": ("delete", f"/api/competitions/{side.spring.pk}/teams/{side.entered.pk}/", None),
        "entries open": ("post", f"/api/competitions/{side.cup.pk}/entries/", {"open": True}),
        "referee list": ("get", f"/api/unions/{side.union.pk}/referees/", None),
        "referee add": ("post", f"/api/unions/{side.union.pk}/referees/", {"user": side.captain.pk}),
        "referee remove": ("delete", f"/api/unions/{side.union.pk}/referees/{side.referee.pk}/", None),
        "result state": ("get", f"/api/fixtures/{side.provisional.pk}/result/", None),
        "result correct": ("post", f"/api/fixtures/{side.provisional.pk}/result/", {
            "home_score": 30, "away_score": 20, "reason": "paper sheet recounted"}),
        "result dispute": ("post", f"/api/fixtures/{side.provisional.pk}/dispute/", {"reason": "table 2 is wrong"}),
        "squad add": ("post", f"/api/teams/{side.home.pk}/players/", {"player": side.spare_player.pk}),
        "squad remove": ("delete", f"/api/teams/{side.home.pk}/players/{home_players[9].pk}/", None),
        "captain set": ("post", f"/api/teams/{side.home.pk}/captain/", {"player": home_players[1].pk}),
        "competition create": ("post", "/api/competitions/", {"union": side.union.pk, "name": "Winter Cup",
                                                              "season": "2027", "kind": "knockout"}),
        "fixtures generate": ("post", f"/api/competitions/{side.cup.pk}/fixtures/", {"start": "2027-03-02"}),
        "standings publish": ("post", f"/api/competitions/{side.league.pk}/standings/", {"title": "Round 3"}),
        "fixture schedule": ("post", "/api/fixtures/", {"competition": side.league.pk, "home": side.away.pk,
                                                        "away": side.home.pk,
                                                        "scheduled_start": "2027-04-01T19:30:00+02:00"}),
        "officials assign": ("post", f"/api/fixtures/{side.next.pk}/officials/", {"referee": side.referee.pk}),
        "result approve": ("post", f"/api/fixtures/{side.confirmed.pk}/approve/", {}),
        "result confirm": ("post", f"/api/fixtures/{side.provisional.pk}/confirm/", None),
        "team sheet submit": ("post", f"/api/fixtures/{side.next.pk}/team-sheet/", {
            "partnerships": [{"table": n, "telman": home_players[2 * n - 2].pk,
                              "byspeler": home_players[2 * n - 1].pk} for n in range(1, 5)]}),
        "substitution": ("post", f"/api/fixtures/{side.interval.pk}/substitutions/", {
            "player_out": seated_out.pk, "player_in": bench(side).pk}),
    }


# Who may act on their own union's objects, and the status they get. Everyone else: 404 (403 if anonymous).
ALLOWED: dict[str, dict[str, int]] = {
    "player register": {"secretary": 201, "captain": 201},
    "player update": {"secretary": 200, "captain": 200},
    "team enter": {"secretary": 201},
    "team withdraw": {"secretary": 204},
    "entries open": {"official": 200},
    "referee list": {"official": 200},
    "referee add": {"official": 201},
    "referee remove": {"official": 204},
    "result state": {"official": 200, "captain": 200, "away_captain": 200, "referee": 200, "secretary": 200},
    "result correct": {"official": 200},
    # A secretary reaches their side of the match, but disputes are the captains' (the service says 403).
    "result dispute": {"captain": 201, "away_captain": 201, "secretary": 403},
    "squad add": {"secretary": 201, "captain": 201},
    "squad remove": {"secretary": 200, "captain": 200},
    "captain set": {"secretary": 200, "captain": 200},
    "competition create": {"official": 201},
    "fixtures generate": {"official": 201},
    "standings publish": {"official": 201},
    "fixture schedule": {"official": 201},
    "officials assign": {"official": 200},
    "result approve": {"official": 200},
    # Both captains and the referee reach result_confirm; a club secretary reaches it too (their club's
    # team plays) but the service's rule (results are confirmed by the captains or the referee) says 403.
    "result confirm": {"captain": 200, "away_captain": 200, "referee": 200, "secretary": 403},
    # The away captain reaches their own side of the match, but the home team's players are not theirs to name.
    "team sheet submit": {"secretary": 201, "captain": 201, "away_captain": 400},
    "substitution": {"secretary": 201, "captain": 201, "away_captain": 400},
}
ENDPOINTS = list(ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_own_union(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.a)[endpoint], allowed=ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_other_union_answers_like_not_there(endpoint: str, role: str, world: World):
    """Union A's people acting on union B's objects: 404, exactly as for an id that does not exist."""
    matrix_answer_check(world, role, endpoint, _endpoints(world.b)[endpoint], allowed=None)


@pytest.mark.django_db
def test_other_team_in_same_union_is_not_the_captains(world: World):
    """The away captain cannot touch the home team's squad or sheet: 404 like a missing team."""
    endpoints = _endpoints(world.a)
    for name in ("squad add", "squad remove", "captain set", "player update"):
        method, url, body = endpoints[name]
        assert api_call(world.a.away_captain, method, url, body).status_code == 404, name


@pytest.mark.django_db
def test_not_yours_and_not_there_are_indistinguishable(world: World):
    client = APIClient()
    client.force_authenticate(world.a.captain)
    theirs = client.post(f"/api/teams/{world.b.home.pk}/players/", {"player": 1}, format="json")
    missing = client.post("/api/teams/999999/players/", {"player": 1}, format="json")
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json()


@pytest.mark.django_db
def test_fixtures_generate_for_a_cup_gives_the_top_seed_a_bye(world: World):
    response = api_call(world.a.official, "post", f"/api/competitions/{world.a.cup.pk}/fixtures/",
                     {"start": dt.date(2027, 3, 2).isoformat()})
    assert response.status_code == 201
    fixtures = response.json()
    assert len(fixtures) == 1  # 3 teams: a draw of 4, one bye to seed 1, one tie between seeds 2 and 3
    assert fixtures[0]["home_name"] == "A Cup 1" and fixtures[0]["away_name"] == "A Cup 2"
