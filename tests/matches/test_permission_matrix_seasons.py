"""The permission matrix for seasons, drafts and transfers: every role against each new write endpoint, on its own
union's objects and on another union's (clubs/permissions.py: 403 for the anonymous public, 404 for a signed-in
user who is not entitled, "not yours" answering like "not there").

The shared world (tests/world.py) gets, per test and inside its savepoint, what these writes need on each
side: a finished season "2025" (a league whose one fixture is approved), a closed season "2024" with a team, and
a draft team of the home club in a new season.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match, Season
from tests.conftest import module_world
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory
from tests.world import ROLES, Side, World, matrix_answer_check

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)


@dataclass
class Extra:
    closed: Season
    draft: object
    away_club: object


def _extra(side: Side) -> Extra:
    past = CompetitionFactory(union=side.union, name="Old League", season="2025")
    MatchFactory(competition=past, home__club=side.club, away__club=side.away.club,
                 scheduled_start=timezone.now() - dt.timedelta(days=300), phase=Match.Phase.FINISHED,
                 result_status=Match.ResultStatus.APPROVED, home_score=30, away_score=20, winner=None,
                 approved_at=timezone.now() - dt.timedelta(days=299))
    older = CompetitionFactory(union=side.union, name="Older League", season="2024")
    TeamFactory(competition=older, club=side.club, name="Old Home")
    closed = Season.objects.create(union=side.union, name="2024", status=Season.Status.CLOSED,
                                   closed_at=timezone.now())
    upcoming = CompetitionFactory(union=side.union, name="Next League", season="2031")
    draft = TeamFactory(competition=upcoming, club=side.club, name="Draft Home", draft=True)
    return Extra(closed=closed, draft=draft, away_club=side.away.club)


def _endpoints(side: Side, extra: Extra) -> dict[str, tuple[str, str, object]]:
    return {
        "season close": ("post", "/api/seasons/close/", {"union": side.union.pk, "season": "2025"}),
        "season next": ("post", f"/api/seasons/{extra.closed.pk}/next/", {"name": "2032"}),
        "transfer record": ("post", f"/api/players/{side.spare_player.pk}/transfers/", {
            "to_club": extra.away_club.pk, "transferred_on": timezone.localdate().isoformat()}),
        "draft confirm": ("post", f"/api/drafts/{extra.draft.pk}/confirm/", None),
    }


ALLOWED: dict[str, dict[str, int]] = {
    "season close": {"official": 201},
    "season next": {"official": 201},
    "transfer record": {"official": 201},
    "draft confirm": {"secretary": 200},
}
ENDPOINTS = list(ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_own_union(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.a, _extra(world.a))[endpoint], allowed=ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_other_union_answers_like_not_there(endpoint: str, role: str, world: World):
    """Union A's people acting on union B's objects: 404, exactly as for an id that does not exist."""
    _extra(world.a)
    matrix_answer_check(world, role, endpoint, _endpoints(world.b, _extra(world.b))[endpoint], allowed=None)


@pytest.mark.django_db
def test_the_drafts_list_shows_only_the_secretarys_own_clubs(world: World):
    mine, theirs = _extra(world.a).draft, _extra(world.b).draft
    client = APIClient()
    client.force_authenticate(world.a.secretary)
    assert [t["id"] for t in client.get("/api/drafts/").json()] == [mine.pk]
    client.force_authenticate(world.a.captain)
    assert client.get("/api/drafts/").json() == []
    assert APIClient().get("/api/drafts/").status_code == 403
    assert theirs.pk != mine.pk
