"""The match night's permission matrix: every write of the referee's API and of the table devices' API, by every
kind of caller, allowed or denied as designed.

Callers: the anonymous public; a signed-in nobody; the home captain; the union's official; the match's referee;
the referee of another match of the same union; a referee of another union; and the table devices: the one at
the line's own table, one at another table of the same match, one at a table of another match.

Allowed means the request reached the service and did what it asked (2xx), or the service refused it by a rule
of the game (400 naming the clause: e.g. the interval before the first half's 75 minutes, SAKBOC 1.2). Denied:
a user who is not the match's referee gets 404 ("not yours" answers like "not there"), the anonymous public 403
on the referee's API; on the table API anyone without a table's key gets 401, and a device reaching another
table's line 404.

The world is built once for the module, in a transaction rolled back after its last test; each case runs in a
savepoint of its own (rolled back after it) with the world's objects read afresh, so every case starts clean.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from clubs.models import GROUP_CAPTAINS, GROUP_REFEREES, GROUP_UNION_OFFICIALS, Player, UnionOfficial
from matches.models import BoemEntry, Match
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from referee import services as referee_services
from referee.models import StrafClaim
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory, sheet_for


@dataclass
class Night:
    """One union's match night: the match in its first half, its people and its table devices."""

    match: Match
    scheduled: Match
    interval: Match
    referee: object
    captain: object
    official: object
    entry: BoemEntry  # a provisional going-on at table 1
    claim: StrafClaim  # an open "af" at table 3
    keys: dict[int, str]  # table number -> device key


@dataclass
class World:
    a: Night
    a_other: Night  # another match of union A, with its own referee and devices
    b: Night  # union B
    nobody: object


def _night(label: str, union=None) -> Night:
    competition = CompetitionFactory(union=union) if union else CompetitionFactory(name=f"League {label}")
    home = TeamFactory(competition=competition, squad=10)
    away = TeamFactory(competition=competition, squad=10, club__union=competition.union)
    referee = UserFactory(username=f"referee_{label}")
    referee.groups.add(Group.objects.get(name=GROUP_REFEREES))
    captain = UserFactory(username=f"captain_{label}")
    captain.groups.add(Group.objects.get(name=GROUP_CAPTAINS))
    Player.objects.filter(pk=home.captain_id).update(user=captain)
    official = UserFactory(username=f"official_{label}")
    official.groups.add(Group.objects.get(name=GROUP_UNION_OFFICIALS))
    UnionOfficial.objects.get_or_create(union=competition.union, user=official)
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=2)

    def match_at(phase_minutes: int | None) -> Match:
        match = MatchFactory(competition=competition, home=home, away=away, referee=referee,
                             scheduled_start=start - timedelta(minutes=phase_minutes or 0))
        sheet_for(match, home)
        sheet_for(match, away)
        at = match.scheduled_start
        night_services.match_toss_record(match=match, winner=home, now=at - timedelta(minutes=4))
        if phase_minutes is not None:
            night_clock.match_start(match=match, now=at)
        return match

    match = match_at(0)
    scheduled = match_at(None)
    interval = match_at(76)
    night_clock.match_interval_call(match=interval, now=interval.scheduled_start + timedelta(minutes=75))
    keys = {}
    for link in table_links.table_links_ensure(match=match):
        _device, keys[link.table_number] = table_links.table_device_sign_in(code=link.code)
    device_1 = table_links.device_for_key(keys[1])
    entry = boem_sheet.going_on_record(match=match, table_number=1, team=home, strokes=1, device=device_1)
    claim = referee_services.straf_claim_log(match=match, table_number=3, claimant_side="home",
                                             claimant_role="telman", accused_role="telman", offence="signs",
                                             by=referee)
    return Night(match=match, scheduled=scheduled, interval=interval, referee=referee, captain=captain,
                 official=official, entry=entry, claim=claim, keys=keys)


def _nights() -> World:
    a = _night("A")
    return World(a=a, a_other=_night("A2", union=a.match.competition.union), b=_night("B"),
                 nobody=UserFactory(username="nobody"))


@pytest.fixture(scope="module")
def world_build():
    return _nights


@pytest.fixture
def world(db, shared_world) -> World:
    if len(connection.atomic_blocks) < 2:
        pytest.fail("the shared world needs a test in a savepoint: @pytest.mark.django_db, not transaction=True")
    return shared_world  # the objects are read only by id here; every write goes through the API


# --- The referee's API -----------------------------------------------------------------------------------

def _referee_writes(night: Night) -> dict[str, tuple[str, str, str, object, int]]:
    """name -> (the API's action, method, url, body, the status the match's referee gets) on ``night``."""
    m, s, i = (f"/api/referee/matches/{x.pk}" for x in (night.match, night.scheduled, night.interval))
    claim = f"{m}/claims/{night.claim.pk}"
    return {
        "toss": ("toss", "post", f"{s}/toss/", {"winner": "away"}, 200),
        "start": ("start", "post", f"{s}/start/", None, 200),
        "interval (75 minutes not up: SAKBOC 1.2)": ("interval", "post", f"{m}/interval/", None, 400),
        "resume (10 minutes not up: SAKBOC 1.2)": ("resume", "post", f"{i}/resume/", None, 400),
        "end (not the second half: SAKBOC 1.2)": ("end", "post", f"{m}/end/", None, 400),
        "extra time (not a knock-out draw: SAKBOC 1.12)": ("extra_time", "post", f"{m}/extra-time/",
                                                            {"winner": "home"}, 400),
        "table link reissue": ("table_link", "post", f"{m}/tables/2/link/", None, 201),
        "going-on on a table's behalf": ("goings_on", "post", f"{m}/tables/2/goings-on/",
                                         {"side": "home", "strokes": 1, "reason": "the phone is flat"}, 201),
        "correct a line": ("entry", "patch", f"{m}/entries/{night.entry.pk}/", {"strokes": 2, "reason": "two"}, 200),
        "confirm a line": ("entry_confirm", "post", f"{m}/entries/{night.entry.pk}/confirm/", None, 200),
        "unseated (only after the interval: SAKBOC 12.3)": ("unseated", "post", f"{m}/tables/2/unseated/",
                                                             {"side": "away"}, 400),
        "seated in time (only in the grace: SAKBOC 12.3)": ("unseated", "delete", f"{m}/tables/2/unseated/",
                                                             None, 400),
        "stop a table": ("stop", "post", f"{m}/tables/4/stop/", {"defaulting_side": "away", "reason": "signs"}, 200),
        "call a player away": ("called_away", "post", f"{m}/called-away/", {"player": night.entry.claimed_by_id},
                               200),
        "log a claim": ("claims", "post", f"{m}/claims/", {"table": 2, "claimant_side": "away",
                                                           "claimant_role": "telman", "accused_role": "byspeler"}, 201),
        "name a claim's offence": ("claim_offence", "post", f"{claim}/offence/", {"offence": "slacking"}, 200),
        "upload a claim's hand (not a hand record)": ("claim_hand", "post", f"{claim}/hand/", {"record": {}}, 400),
        "rule on a claim": ("ruling", "post", f"{claim}/ruling/", {"decision": "upheld"}, 201),
    }


REFEREE_CALLERS = ["anonymous", "nobody", "captain", "official", "referee", "other_referee", "other_union_referee"]
REFEREE_WRITES = [
    "toss", "start", "interval (75 minutes not up: SAKBOC 1.2)", "resume (10 minutes not up: SAKBOC 1.2)",
    "end (not the second half: SAKBOC 1.2)", "extra time (not a knock-out draw: SAKBOC 1.12)", "table link reissue",
    "going-on on a table's behalf", "correct a line", "confirm a line",
    "unseated (only after the interval: SAKBOC 12.3)", "seated in time (only in the grace: SAKBOC 12.3)",
    "stop a table", "call a player away", "log a claim", "name a claim's offence",
    "upload a claim's hand (not a hand record)", "rule on a claim",
]


def _user_client(world: World, caller: str) -> APIClient:
    client = APIClient()
    user = {"nobody": world.nobody, "captain": world.a.captain, "official": world.a.official,
            "referee": world.a.referee, "other_referee": world.a_other.referee,
            "other_union_referee": world.b.referee}.get(caller)
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("write", REFEREE_WRITES)
@pytest.mark.parametrize("caller", REFEREE_CALLERS)
def test_referee_writes(world: World, write: str, caller: str):
    _action, method, url, body, allowed = _referee_writes(world.a)[write]
    response = getattr(_user_client(world, caller), method)(url, body, format="json")
    expected = allowed if caller == "referee" else 403 if caller == "anonymous" else 404
    assert response.status_code == expected, (write, caller, response.status_code, response.content[:300])
    clause = write.split(": ")[-1].rstrip(")") if "SAKBOC" in write else None
    if expected == 400 and clause:
        assert clause in response.content.decode()  # the rule's refusal names its clause


@pytest.mark.django_db
def test_every_write_of_the_match_night_apis_is_in_the_matrix(world: World):
    """A new write action on either API must be added here (with who may use it)."""
    from referee.api import RefereeMatchViewSet
    from tables.api import TableDeviceViewSet

    def writes(viewset) -> set[str]:
        return {a.__name__ for a in viewset.get_extra_actions() if set(a.mapping) - {"get", "head", "options"}}

    assert writes(RefereeMatchViewSet) == {action for action, *_ in _referee_writes(world.a).values()}
    assert writes(TableDeviceViewSet) - {"sign_in"} == {action for action, *_ in _device_writes(world.a).values()}
    assert sorted(_referee_writes(world.a)) == sorted(REFEREE_WRITES)


# --- The table devices' API ------------------------------------------------------------------------------

DEVICE_CALLERS = ["anonymous", "captain", "referee", "this_table", "other_table", "other_match"]


def _device_writes(night: Night) -> dict[str, tuple[str, str, object, dict[str, int]]]:
    """name -> (the API's action, url, body, {caller: status}); callers not named get 401 (no table's key)."""
    entry = night.entry.pk
    away_telman, home_byspeler = _seated(night.match, table=1)
    return {
        "go on": ("goings_on", "/api/table/goings-on/", {"side": "away", "strokes": 1},
                  {"this_table": 201, "other_table": 201, "other_match": 201}),  # each writes its own table
        "confirm a line": ("confirm", f"/api/table/entries/{entry}/confirm/", {},
                           {"this_table": 200, "other_table": 404, "other_match": 404}),
        "dispute a line": ("dispute", f"/api/table/entries/{entry}/dispute/", {"reason": "it was 1"},
                           {"this_table": 200, "other_table": 404, "other_match": 404}),
        "say af": ("af", "/api/table/af/", {"claimant": home_byspeler, "accused": away_telman},
                   {"this_table": 201, "other_table": 400, "other_match": 400}),  # not seated at their tables
        # The world plays SAKBOC: every device's deal is refused (400, "played in boems"); a table of a
        # Rotterdam match writes one (tests/matches/test_deals_api.py).
        "enter a deal": ("deals", "/api/table/deals/", {"makers": "home", "home_card_points": 100,
                                                        "away_card_points": 62},
                         {"this_table": 400, "other_table": 400, "other_match": 400}),
        "sign out": ("sign_out", "/api/table/sign-out/", None,
                     {"this_table": 204, "other_table": 204, "other_match": 204}),
    }


def _seated(match: Match, *, table: int) -> tuple[int, int]:
    from matches.models import Seat

    seats = {(s.sheet.team_id, s.role): s.player_id for s in Seat.objects.filter(
        sheet__match=match, table_number=table).select_related("sheet")}
    return seats[(match.away_id, "telman")], seats[(match.home_id, "byspeler")]


DEVICE_WRITES = ["go on", "confirm a line", "dispute a line", "say af", "enter a deal", "sign out"]


def _device_client(world: World, caller: str) -> APIClient:
    client = APIClient()
    key = {"this_table": world.a.keys[1], "other_table": world.a.keys[2],
           "other_match": world.a_other.keys[1]}.get(caller)
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    elif caller != "anonymous":  # a user's own credentials (a token; a session is the same): not a table's key
        user = {"captain": world.a.captain, "referee": world.a.referee}[caller]
        client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("write", DEVICE_WRITES)
@pytest.mark.parametrize("caller", DEVICE_CALLERS)
def test_table_device_writes(world: World, write: str, caller: str):
    _action, url, body, allowed = _device_writes(world.a)[write]
    response = _device_client(world, caller).post(url, body, format="json")
    expected = allowed.get(caller, 401)
    assert response.status_code == expected, (write, caller, response.status_code, response.content[:300])


@pytest.mark.django_db
def test_a_revoked_link_and_a_finished_match_sign_the_device_out(world: World):
    referee = _user_client(world, "referee")
    assert referee.post(f"/api/referee/matches/{world.a.match.pk}/tables/1/link/").status_code == 201
    response = _device_client(world, "this_table").post("/api/table/goings-on/", {"side": "home", "strokes": 1},
                                                        format="json")
    assert response.status_code == 401 and "replaced by the referee" in response.json()["detail"]
    Match.objects.filter(pk=world.a_other.match.pk).update(phase=Match.Phase.FINISHED)
    response = _device_client(world, "other_match").get("/api/table/")
    assert response.status_code == 401 and "match is over" in response.json()["detail"]
