"""The permission matrix for pages: every role against every captain's and official's page (GET and the
POST that acts), on its own union's objects and on another union's."""

from __future__ import annotations

import pytest

from tests.factories import squad
from tests.world import ROLES, Side, bench, make_world


def _pages(side: Side) -> dict[str, tuple[str, dict | None]]:
    """name -> (url, POST data or None for a page that is only read)."""
    players = squad(side.home)
    sheet = {f"table{n}_{role}": players[2 * n - 2 + i].pk for n in range(1, 5)
             for i, role in enumerate(("telman", "byspeler"))}
    return {
        "captain dashboard": ("/captain/", None),
        "squad": (f"/captain/teams/{side.home.pk}/", {"action": "add", "player": side.spare_player.pk}),
        "squad remove": (f"/captain/teams/{side.home.pk}/remove/{players[9].pk}/", {}),
        "team sheet": (f"/captain/matches/{side.next.pk}/sheet/?team={side.home.pk}", {**sheet, "team": side.home.pk}),
        "substitution": (f"/captain/matches/{side.interval.pk}/substitution/?team={side.home.pk}",
                         {"team": side.home.pk, "player_out": players[0].pk, "player_in": bench(side).pk}),
        "result confirm": (f"/captain/matches/{side.provisional.pk}/confirm/", {}),
        "official dashboard": ("/official/", None),
        "competition create": (f"/official/unions/{side.union.pk}/competitions/new/",
                               {"name": "Spring League", "season": "2027", "kind": "league"}),
        "official competition": (f"/official/competitions/{side.cup.pk}/",
                                 {"action": "fixtures", "start": "2027-03-02", "kickoff": "19:30",
                                  "days_between_rounds": 7}),
        "official match": (f"/official/matches/{side.confirmed.pk}/", {"action": "approve"}),
    }


CAPTAINS = {"secretary", "captain"}
DASHBOARDS = {"captain dashboard", "official dashboard"}
ALLOWED: dict[str, set[str]] = {
    "captain dashboard": {"secretary", "captain", "away_captain"},
    "squad": CAPTAINS,
    "squad remove": CAPTAINS,
    "team sheet": CAPTAINS,
    "substitution": CAPTAINS,
    "result confirm": {"secretary", "captain", "away_captain", "referee"},
    "official dashboard": {"official"},
    "competition create": {"official"},
    "official competition": {"official"},
    "official match": {"official"},
}


def _client(client, world, side, role):
    if role == "nobody":
        client.force_login(world.nobody)
    elif role != "anonymous":
        client.force_login(getattr(side, role))
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("page", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_own_union_pages(client, page, role):
    world = make_world()
    url, data = _pages(world.a)[page]
    _client(client, world, world.a, role)
    response = client.get(url)
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        return
    allowed = role in ALLOWED[page]
    if page in DASHBOARDS and not allowed:
        # A dashboard is never a 404 (issue 33): an empty state that says what to do next, showing nothing of
        # the union's teams or competitions.
        body = response.content.decode()
        assert response.status_code == 200, (page, role, response.status_code)
        assert world.a.home.name not in body and world.a.cup.name not in body, (page, role)
        return
    assert response.status_code == (200 if allowed else 404), (page, role, response.status_code)
    if data is not None:
        posted = client.post(url, data)
        # An allowed POST acts and redirects back (a 200 would mean the form or the service refused it).
        assert posted.status_code == (302 if allowed else 404), (page, role, posted.status_code,
                                                                  posted.content[-1500:])


@pytest.mark.django_db
@pytest.mark.parametrize("page", [p for p in ALLOWED if p not in ("captain dashboard", "official dashboard")])
@pytest.mark.parametrize("role", ROLES[1:])
def test_other_union_pages_are_not_found(client, page, role):
    world = make_world()
    url, data = _pages(world.b)[page]
    _client(client, world, world.a, role)
    assert client.get(url).status_code == 404
    if data is not None:
        assert client.post(url, data).status_code == 404
