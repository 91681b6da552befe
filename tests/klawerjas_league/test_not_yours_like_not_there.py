"""Not yours answers like not there, on every route of the API (issue 35, finding 9).

Every route of ``klawerjas_league/api_urls.py`` that names an object in its path (``/api/fixtures/{id}/...``,
``/api/competitions/{id}/teams/{team_id}/``, ``/api/drive-nights/{id}/draw/``, ...) is walked with each of its
methods, by the anonymous public, a signed-in nobody, union A's people (official, club secretary, captain,
referee) and a table device of union A's match night, on union B's real objects, and again with each id in the
path replaced by one that does not exist. Unless the object is public (a read answered 2xx), the answers must be
the same, status and body: a caller who may not touch an object learns nothing about whether it exists. A write
answered 2xx to any of them would be a hole of its own, and fails too.

A route added to the API without an object for each of its ids here fails :func:`test_every_route_is_walked`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.urls import URLPattern, URLResolver
from django.utils import timezone
from rest_framework.test import APIClient

from appeals.models import Appeal
from clubs.models import DisciplinaryRecord
from drives import services as drive_services
from klawerjas_league import api_urls
from matches.results import services as result_services
from matches.seasons import inter_union
from office.invitations import invitation_create
from tests.appeals.test_permission_matrix_appeals import _prepare as appeals_prepare
from tests.factories import ClubFactory, PlayerFactory, UnionFactory, squad
from tests.matches.test_permission_matrix_seasons import Extra
from tests.matches.test_permission_matrix_seasons import _extra as seasons_extra
from tests.referee.test_permission_matrix_match_night import Night
from tests.referee.test_permission_matrix_match_night import _night as match_night
from tests.world import Side, make_world

MISSING = 999_999_999  # fits every id pattern ([0-9]{1,9}); no test world has that many rows


@dataclass
class Walk:
    """Union B's objects for every route, and union A's people who are strangers to them."""

    a: Side
    b: Side
    nobody: object
    night: Night  # union B's match night (first half), with a going-on line and an open claim
    a_night: Night  # union A's: its table devices are strangers to union B's lines
    seasons: Extra
    appeal: Appeal
    fine: DisciplinaryRecord
    invitation: object
    snapshot: object
    drive: object
    drive_night: object
    drive_table: object
    inter_union: object  # a request for one of union B's players by a club of a third union


def _build() -> Walk:
    world = make_world()
    b = world.b
    appeals_prepare(b)
    drive = drive_services.drive_create(club=b.club, name="B circle", season="2026", ruleset="klammern",
                                        rounds_per_night=2)
    for _ in range(8):
        drive_services.drive_enter(drive=drive, player=PlayerFactory(club=b.club, union=b.union))
    drive_night = drive_services.night_start(drive=drive, date=timezone.localdate())
    boom = drive_services.round_draw(night=drive_night)
    b.approved.refresh_from_db()
    return Walk(
        a=world.a, b=b, nobody=world.nobody,
        night=match_night("WB", union=b.union), a_night=match_night("WA", union=world.a.union),
        seasons=seasons_extra(b), appeal=Appeal.objects.get(match=b.approved),
        fine=DisciplinaryRecord.objects.get(union=b.union),
        invitation=invitation_create(union=b.union, role="secretary", email="new.secretary@example.org",
                                     first_name="Nuwe", last_name="Sekretaris", club=b.away.club, by=b.official),
        snapshot=result_services.standings_publish(competition=b.league, by=b.official, title="Round 1"),
        drive=drive, drive_night=drive_night, drive_table=boom.tables.first(),
        inter_union=inter_union.inter_union_transfer_ask(player=PlayerFactory(club=b.club, union=b.union),
                                                         to_club=ClubFactory(union=UnionFactory())),
    )


@pytest.fixture(scope="module")
def world_build():
    return _build


@pytest.fixture
def walk(db, shared_world) -> Walk:
    return shared_world  # read by id only; every request that should be refused writes nothing


# --- The routes -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str  # as written in the urlconf (a regex or a path() route), under /api/
    methods: tuple[str, ...]
    params: tuple[str, ...]


_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>")


def _routes() -> list[Route]:
    """Every route of the API with an id in its path, with the methods its view answers."""

    def walk(patterns, prefix: str = ""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern).lstrip("^").rstrip("$"))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern).lstrip("^").rstrip("$"), p

    routes = []
    for pattern, p in walk(api_urls.urlpatterns):
        if "format" in pattern or not p.name:
            continue
        params = tuple(a or b for a, b in _GROUP.findall(pattern))
        if not params:
            continue
        actions = getattr(p.callback, "actions", None)
        if actions is not None:
            methods = tuple(sorted(actions))
        else:
            view = p.callback.view_class
            methods = tuple(m for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m))
        routes.append(Route(name=p.name, pattern=pattern, methods=methods, params=params))
    return sorted(routes, key=lambda r: r.name)


ROUTES = _routes()
CASES = [(route, method) for route in ROUTES for method in route.methods]


def _pk(walk: Walk, route: str) -> int:
    """The object a route's ``pk`` names: union B's, the one that route acts on."""
    b, night = walk.b, walk.night
    by_route = {
        "fixture-result": b.provisional, "fixture-confirm": b.provisional, "fixture-dispute": b.provisional,
        "fixture-approve": b.confirmed, "fixture-substitutions": b.interval,
        "competition-team-withdraw": b.spring, "competition-teams": b.spring, "competition-entries": b.cup,
        "competition-fixtures": b.cup, "referee-match-toss": night.scheduled, "referee-match-start": night.scheduled,
        "referee-match-resume": night.interval, "union-invitation": walk.invitation,
        "union-invitation-resend": walk.invitation, "draft-confirm": walk.seasons.draft,
    }
    if route in by_route:
        return by_route[route].pk
    by_basename = {
        "fixture": b.next, "competition": b.league, "union": b.union, "club": b.club, "player": b.spare_player,
        "team": b.home, "result": b.approved, "standings": walk.snapshot, "referee-match": night.match,
        "night": b.interval, "appeal": walk.appeal, "appeal-settings": b.union, "discipline": walk.fine,
        "season": walk.seasons.closed, "drive": walk.drive, "drive-night": walk.drive_night,
        "drive-table": walk.drive_table, "inter-union-transfer": walk.inter_union,
    }
    basename = max((name for name in by_basename if route.startswith(f"{name}-")), key=len)  # the router's basename
    return by_basename[basename].pk


def _ids(walk: Walk, route: Route) -> dict[str, int]:
    """Each of the route's ids: union B's object (a table number is a table number, 2)."""
    b = walk.b
    ids = {
        "team_id": b.entered.pk, "user_id": b.referee.pk, "player_id": squad(b.home)[9].pk,
        "claim_id": walk.night.claim.pk, "entry_id": walk.night.entry.pk, "union_id": b.union.pk,
        "club_id": b.club.pk, "id": b.spare_player.pk, "table_number": 2,
    }
    return {param: _pk(walk, route.name) if param == "pk" else ids[param] for param in route.params}


def _url(route: Route, values: dict[str, int]) -> str:
    return "/api/" + _GROUP.sub(lambda m: str(values[m.group(1) or m.group(2)]), route.pattern)


def _body(walk: Walk, route: Route, method: str) -> object:
    """A body the route would take from someone entitled: refused only for who is asking, never for its form."""
    b, night = walk.b, walk.night
    players = squad(b.home)
    today = timezone.localdate()
    bodies = {
        ("fixture-detail", "patch"): {"scheduled_start": (timezone.now() + timedelta(days=9)).isoformat()},
        ("fixture-officials", "post"): {"referee": b.referee.pk},
        ("fixture-result", "post"): {"home_score": 30, "away_score": 20, "reason": "paper sheet recounted"},
        ("fixture-dispute", "post"): {"reason": "table 2 is wrong"},
        ("fixture-team-sheet", "post"): {"partnerships": [
            {"table": n, "telman": players[2 * n - 2].pk, "byspeler": players[2 * n - 1].pk} for n in range(1, 5)]},
        ("fixture-substitutions", "post"): {"player_out": players[0].pk, "player_in": players[8].pk},
        ("competition-entries", "post"): {"open": True},
        ("competition-fixtures", "post"): {"start": (today + timedelta(days=30)).isoformat()},
        ("competition-standings", "post"): {"title": "Round 3"},
        ("competition-teams", "post"): {"club": b.club.pk, "name": "Second team",
                                        "players": [p.pk for p in players[:8]], "captain": players[0].pk},
        ("union-referees", "post"): {"user": b.captain.pk},
        ("player-detail", "patch"): {"active": False},
        ("team-captain", "post"): {"player": players[1].pk},
        ("team-players", "post"): {"player": b.spare_player.pk},
        ("player-transfers", "post"): {"to_club": b.away.club_id, "transferred_on": today.isoformat()},
        ("referee-match-toss", "post"): {"winner": "away"},
        ("referee-match-extra-time", "post"): {"winner": "home"},
        ("referee-match-goings-on", "post"): {"side": "home", "strokes": 1, "reason": "the phone is flat"},
        ("referee-match-entry", "patch"): {"strokes": 2, "reason": "two"},
        ("referee-match-unseated", "post"): {"side": "away"},
        ("referee-match-stop", "post"): {"defaulting_side": "away", "reason": "signs"},
        ("referee-match-called-away", "post"): {"player": night.entry.claimed_by_id},
        ("referee-match-claims", "post"): {"table": 2, "claimant_side": "away", "claimant_role": "telman",
                                           "accused_role": "byspeler"},
        ("referee-match-claim-offence", "post"): {"offence": "slacking"},
        ("referee-match-claim-hand", "post"): {"record": {}},
        ("referee-match-ruling", "post"): {"decision": "upheld"},
        ("table-confirm", "post"): {},
        ("table-dispute", "post"): {"reason": "it was 1"},
        ("appeal-decide", "post"): {"decision": "dismissed", "reasons": "The sheets add up."},
        ("appeal-settings-detail", "patch"): {"appeal_deadline_days": 10},
        ("discipline-paid", "post"): {"paid": True},
        ("season-next", "post"): {"name": "2032"},
        ("drive-table-deals", "post"): {"makers_side": 0, "card_points0": 100, "card_points1": 62},
        ("union-settings", "patch"): {"name": "Renamed"},
        ("union-clubs", "post"): {"name": "New Club"},
        ("union-club", "patch"): {"name": "Renamed Club"},
        ("union-invitations", "post"): {"role": "secretary", "email": "x@example.org", "first_name": "X",
                                        "last_name": "Y", "club": b.club.pk},
        ("union-role-remove", "post"): {"role": "referee", "user": b.referee.pk},
        ("inter-union-transfer-refuse", "post"): {"reason": "fees owed"},
        ("inter-union-transfer-decline", "post"): {"reason": "squad full"},
        ("inter-union-transfer-accept", "post"): {"registration_number": ""},
    }
    return bodies.get((route.name, method))


# --- The callers -----------------------------------------------------------------------------------------

CALLERS = ["anonymous", "nobody", "official", "secretary", "captain", "referee", "table device"]


def _client(walk: Walk, caller: str) -> APIClient:
    client = APIClient()
    if caller == "table device":
        client.credentials(HTTP_AUTHORIZATION=f"Table {walk.a_night.keys[2]}")
    elif caller == "nobody":
        client.force_authenticate(walk.nobody)
    elif caller != "anonymous":
        client.force_authenticate(getattr(walk.a, caller))
    return client


def _answer(response) -> tuple[int, bytes]:
    return response.status_code, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "method"), CASES, ids=[f"{r.name}-{m}" for r, m in CASES])
def test_another_unions_object_answers_like_none(walk: Walk, route: Route, method: str):
    theirs = _ids(walk, route)
    body = _body(walk, route, method)
    variants = [{**theirs, **{param: MISSING}} for param in theirs if param != "table_number"]
    if len(variants) > 1:
        variants.append({param: (value if param == "table_number" else MISSING) for param, value in theirs.items()})
    for caller in CALLERS:
        client = _client(walk, caller)
        answer = _answer(getattr(client, method)(_url(route, theirs), body, format="json"))
        if method != "get":
            assert not 200 <= answer[0] < 300, (caller, _url(route, theirs), answer)  # a stranger's write
        elif 200 <= answer[0] < 300:
            continue  # public: everyone may see it, so there is nothing to hide
        for values in variants:
            missing = _answer(getattr(client, method)(_url(route, values), body, format="json"))
            assert missing == answer, (caller, _url(route, values), missing, "theirs:", answer)


def test_every_route_is_walked():
    """Every route of the API with an id in its path is walked, and its ids are all known here."""
    names = {route.name for route in ROUTES}
    assert {"competition-team-withdraw", "drive-night-draw", "drive-table-deals", "table-confirm",
            "union-invitation", "player-transfers"} <= names
    assert len(CASES) > 60
    known = {"pk", "team_id", "user_id", "player_id", "claim_id", "entry_id", "union_id", "club_id", "id",
             "table_number"}
    assert {param for route in ROUTES for param in route.params} <= known
