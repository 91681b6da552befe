"""A small two-union world for the permission matrix, API and page tests.

Union A ("ours") and union B ("theirs") each have: an official, a club secretary (of the home club), a
league with a home team (squad of 10, captained by a user) and an away team (captained by another user),
a referee, and matches in each state the write endpoints need:

* ``next``: scheduled tomorrow, no sheets (team sheets),
* ``interval``: both sheets, at half-time (substitutions, SAKBOC 11.1),
* ``provisional``: a result waiting for confirmation,
* ``confirmed``: a result waiting for approval,
* ``approved``: an approved result (standings to publish);

plus ``spring``, a league open for entries with one team of the home club entered (``entered``), and a
knock-out cup with three teams and no fixtures yet (fixture generation, byes).

``make_world()`` builds it, a few hundred milliseconds' work; ``world_in_transaction()`` builds one to share
between the tests of a module, in a transaction rolled back after them, each test in a savepoint of its own
(tests/conftest.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any

from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    ClubSecretary,
    UnionReferee,
)
from matches.models import Competition, Match
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchFactory,
    PlayerFactory,
    TeamFactory,
    UnionFactory,
    UserFactory,
    sheet_for,
    squad,
)
from tests.people import in_group, union_official


@dataclass
class Side:
    """One union's objects and people."""

    union: object
    official: object
    secretary: object
    captain: object
    away_captain: object
    referee: object
    club: object
    league: object
    cup: object
    home: object
    away: object
    spare_player: object
    next: object
    interval: object
    provisional: object
    confirmed: object
    approved: object
    spring: object
    entered: object


def make_side(label: str) -> Side:
    union = UnionFactory(name=f"Union {label}", short_name=f"U{label}")
    official = union_official(union, username=f"official_{label}")
    league = CompetitionFactory(union=union, name=f"League {label}")
    club = ClubFactory(union=union, name=f"Club {label}1")
    away_club = ClubFactory(union=union, name=f"Club {label}2")
    secretary = in_group(UserFactory(username=f"secretary_{label}"), GROUP_CLUB_SECRETARIES)
    ClubSecretary.objects.create(club=club, user=secretary)
    home = TeamFactory(competition=league, club=club, name=f"{label} Home", squad=10)
    away = TeamFactory(competition=league, club=away_club, name=f"{label} Away", squad=10)
    captain = in_group(UserFactory(username=f"captain_{label}"), GROUP_CAPTAINS)
    away_captain = in_group(UserFactory(username=f"away_captain_{label}"), GROUP_CAPTAINS)
    for team, user in ((home, captain), (away, away_captain)):
        team.captain.user = user
        team.captain.save()
    referee = in_group(UserFactory(username=f"referee_{label}"), GROUP_REFEREES)
    UnionReferee.objects.create(union=union, user=referee)
    tomorrow = timezone.now().replace(microsecond=0) + dt.timedelta(days=1)
    common = {"competition": league, "home": home, "away": away, "referee": referee}
    next_match = MatchFactory(**common, scheduled_start=tomorrow)
    interval = MatchFactory(**common, scheduled_start=timezone.now() - dt.timedelta(minutes=80),
                            phase=Match.Phase.INTERVAL, interval_started_at=timezone.now())
    sheet_for(interval, home)
    sheet_for(interval, away)
    provisional = MatchFactory(**common, scheduled_start=timezone.now() - dt.timedelta(days=7),
                               phase=Match.Phase.FINISHED, result_status=Match.ResultStatus.PROVISIONAL,
                               home_score=30, away_score=22, winner=home)
    confirmed = MatchFactory(**common, scheduled_start=timezone.now() - dt.timedelta(days=14),
                             phase=Match.Phase.FINISHED, result_status=Match.ResultStatus.CONFIRMED,
                             home_score=18, away_score=26, winner=away)
    approved = MatchFactory(**common, scheduled_start=timezone.now() - dt.timedelta(days=21),
                            phase=Match.Phase.FINISHED, result_status=Match.ResultStatus.APPROVED,
                            home_score=20, away_score=20, approved_at=timezone.now() - dt.timedelta(days=20))
    spring = CompetitionFactory(union=union, name=f"Spring League {label}", entries_open=True)
    entered = TeamFactory(competition=spring, club=club, name=f"{label} Spring", squad=8)
    cup = CompetitionFactory(union=union, name=f"Cup {label}", kind=Competition.Kind.KNOCKOUT)
    for n in range(3):
        TeamFactory(competition=cup, club=club if n == 0 else away_club, name=f"{label} Cup {n}", squad=8)
    spare = PlayerFactory(club=club, union=union, first_name="Spare", last_name=f"Player{label}")
    return Side(union=union, official=official, secretary=secretary, captain=captain, away_captain=away_captain,
                referee=referee, club=club, league=league, cup=cup, home=home, away=away, spare_player=spare,
                next=next_match, interval=interval, provisional=provisional, confirmed=confirmed,
                approved=approved, spring=spring, entered=entered)


@dataclass
class World:
    a: Side
    b: Side
    nobody: object


def make_world() -> World:
    a, b = make_side("A"), make_side("B")
    return World(a=a, b=b, nobody=UserFactory(username="nobody"))


@contextmanager
def world_in_transaction(django_db_blocker, build: Callable[[], Any] = make_world) -> Iterator[Any]:
    """Build a world in a transaction that is rolled back on exit, for a module- or class-scoped fixture
    (``django_db_blocker`` is pytest-django's; the caller requests ``django_db_setup`` too).

    The database is unblocked only to build the world and to roll it back: in between, a test reaches it only
    through ``@pytest.mark.django_db`` (or ``db``), as anywhere else, and then runs in its own atomic block, which
    inside this transaction is a savepoint rolled back after the test. So each test starts from the world as
    built and sees no other test's writes; a ``transaction.on_commit`` callback never runs (as under plain
    ``django_db``). Users get the fast password hasher, as under the function-scoped ``fast_password_hashing``
    fixture, which is not active yet when a wider-scoped fixture runs. ``build`` makes the world (by default
    :func:`make_world`'s two unions; a module wanting more passes its own, see tests/conftest.py).
    """
    with django_db_blocker.unblock(), transaction.atomic():
        try:
            with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
                world = build()
            with django_db_blocker.block():
                yield world
        finally:
            transaction.set_rollback(True)


def world_reread(world: World) -> World:
    """``world`` with each of its objects read afresh from the database by primary key: what one test changes in
    memory (a field, a user's cached permissions, a related object's cache) does not reach the next."""

    def fresh(obj):
        return type(obj)._default_manager.get(pk=obj.pk)

    def side(old: Side) -> Side:
        return Side(**{f.name: fresh(getattr(old, f.name)) for f in fields(Side)})

    return World(a=side(world.a), b=side(world.b), nobody=fresh(world.nobody))


def bench(side: Side):
    """A squad player of the home team not seated in the interval match."""
    return squad(side.home)[8]


#: Every role of a permission matrix, as :func:`role_user` knows them: the public, a signed-in user with no role,
#: and each of a side's people.
ROLES = ["anonymous", "nobody", "official", "secretary", "captain", "away_captain", "referee"]


def role_user(world: World, side: Side, role: str):
    """The user acting as ``role`` of ``side`` in a permission matrix: ``None`` for ``"anonymous"``, the world's
    signed-in nobody for ``"nobody"``, else the side's user of that name (``"official"``, ``"captain"``, ...)."""
    if role == "anonymous":
        return None
    if role == "nobody":
        return world.nobody
    return getattr(side, role)


def api_call(user, method: str, url: str, body):
    """``method`` (``"get"``, ``"post"``, ...) on ``url`` with the JSON ``body``, signed in as ``user`` (``None``:
    anonymous); the test client's response."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return getattr(client, method)(url, body, format="json")


def matrix_answer_check(world: World, role: str, endpoint: str, call: tuple, *, allowed: dict | None) -> None:
    """One cell of a permission matrix: union A's ``role`` makes ``call`` (``(method, url, body)``) and gets
    ``allowed[endpoint][role]``, or, for a role not listed (and whenever ``allowed`` is ``None``: the call is on
    union B's object), 403 when anonymous and 404 otherwise, exactly as for an id that does not exist."""
    method, url, body = call
    response = api_call(role_user(world, world.a, role), method, url, body)
    expected = (allowed or {}).get(endpoint, {}).get(role, 403 if role == "anonymous" else 404)
    assert response.status_code == expected, (endpoint, role, response.status_code, response.content[:400])
