"""The whole match night through the HTTP API only (no service called in the test): the referee's console actions
under ``/api/referee/matches/``, the four table devices under ``/api/table/``, the live state anyone may follow
(``/api/fixtures/{id}/live/``, ETag and 304), the captains' confirmations, the official's approval and the
standings; with the refusals a client meets on the way, each answered with its clause or field.

The set-up (teams, players, team sheets, accounts) is the factories'. Time moves on by the process's clock
(time-machine): the product's own clock mechanism then calls the interval, ends the 12.3 grace and calls time.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import GROUP_REFEREES
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory, match_with_sheets, sheet_for
from tests.people import captain_accounts, in_group, union_official

pytestmark = pytest.mark.django_db
PASSWORD = "klawerjas-api"


def _client(username: str | None = None) -> APIClient:
    client = APIClient()
    if username is not None:
        token = APIClient().post("/api/auth/token/", {"username": username, "password": PASSWORD}).json()["token"]
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _device(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    return client


def _world():
    competition = CompetitionFactory(name="Cape Flats League")
    home = TeamFactory(competition=competition, name="Athlone Aces")
    away = TeamFactory(competition=competition, name="Mitchells Plain Manels", club__union=competition.union)
    referee = in_group(UserFactory(username="referee", password=PASSWORD), GROUP_REFEREES)
    union_official(competition.union, username="official", password=PASSWORD)
    captain_accounts({"captain": home, "captain2": away}, password=PASSWORD)
    match = MatchFactory(competition=competition, home=home, away=away, referee=referee,
                         scheduled_start=timezone.now().replace(microsecond=0) - timedelta(minutes=1))
    sheet_for(match, home)
    sheet_for(match, away)
    return match


class Table:
    """A table device of the night, talking to the API with its key."""

    def __init__(self, key: str) -> None:
        self.api = _device(key)

    def state(self) -> dict:
        response = self.api.get("/api/table/")
        assert response.status_code == 200, response.content
        return response.json()

    def mine(self) -> dict:
        data = self.state()
        return next(t for t in data["tables"] if t["number"] == data["table"])

    def go_on(self, side: str, strokes: int, **extra) -> dict:
        body = {"side": side, "strokes": strokes, "version": self.mine()["sheet_version"],
                "opponents_under_fifty": strokes == 2, **extra}
        response = self.api.post("/api/table/goings-on/", body, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    def confirm(self, entry: dict) -> dict:
        response = self.api.post(f"/api/table/entries/{entry['id']}/confirm/",
                                 {"version": self.mine()["sheet_version"]}, format="json")
        assert response.status_code == 200, response.content
        return response.json()


@pytest.mark.django_db(transaction=True)  # the approval's standings recompute runs when the transaction commits
def test_a_whole_match_night_through_the_api():
    match = _world()
    traveller = time_machine.travel(timezone.now(), tick=True)
    clock = traveller.start()
    try:
        _night(match, clock)
    finally:
        traveller.stop()


def _night(match, clock) -> None:
    referee, public = _client("referee"), _client()
    base = f"/api/referee/matches/{match.pk}"
    assert [m["id"] for m in referee.get("/api/referee/matches/").json()] == [match.pk]
    assert _client("captain").get(f"{base}/").status_code == 404  # a captain is not the referee: "not there"

    # --- toss and start; the table links --------------------------------------------------------------------
    assert referee.post(f"{base}/start/").json()["detail"][0].startswith("SAKBOC 1.3")  # the toss first
    assert referee.post(f"{base}/toss/", {"winner": "home"}, format="json").status_code == 200
    assert referee.post(f"{base}/start/").json()["phase"] == "first_half"
    links = referee.get(f"{base}/table-links/").json()
    assert [link["table"] for link in links] == [1, 2, 3, 4]
    refused = APIClient().post("/api/table/sign-in/", {"code": "ZZZZ ZZZZ"}, format="json")
    assert refused.status_code == 400 and "No table has that code" in refused.json()["code"][0]
    tables = {}
    for link in links:
        body = {"code": link["code"].lower()} if link["table"] < 4 else {"link": link["url"].rstrip("/").split("/")[-1]}
        answer = APIClient().post("/api/table/sign-in/", body, format="json")
        assert answer.status_code == 201, answer.content
        assert (answer.json()["table"], answer.json()["home_name"]) == (link["table"], "Athlone Aces")
        tables[link["table"]] = Table(answer.json()["key"])

    # --- the live state: ETag, 304 until something changes ----------------------------------------------------
    live = public.get(f"/api/fixtures/{match.pk}/live/")
    etag = live["ETag"]
    assert live.status_code == 200 and [t["home"]["telman"] for t in live.json()["tables"]][0] != "—"
    assert public.get(f"/api/fixtures/{match.pk}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304

    # --- table 1: 2, 2, 1 for Athlone, each confirmed by the opposing telman: 5-0, 4 points (SAKBOC 6.1) ----------
    for strokes in (2, 2, 1):
        entry = tables[1].go_on("home", strokes)
        assert entry["state"] == "provisional"
        assert tables[1].confirm(entry)["state"] == "confirmed"
    assert tables[1].mine()["home_points"] == 4
    changed = public.get(f"/api/fixtures/{match.pk}/live/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["home_score"] == 4

    # --- refusals a table meets ---------------------------------------------------------------------------
    version = tables[1].mine()["sheet_version"]
    three = tables[1].api.post("/api/table/goings-on/", {"side": "home", "strokes": 3}, format="json")
    assert three.status_code == 400 and "strokes" in three.json()
    not_under_50 = tables[1].api.post("/api/table/goings-on/", {"side": "home", "strokes": 2,
                                                                "opponents_under_fifty": False}, format="json")
    assert not_under_50.status_code == 400 and "Notes §VI" in not_under_50.json()["detail"][0]
    entry = tables[1].go_on("away", 1)
    stale = tables[1].api.post("/api/table/goings-on/", {"side": "away", "strokes": 1, "version": version},
                               format="json")
    assert stale.status_code == 409 and "changed by someone else" in stale.json()["detail"][0]
    other_table = tables[2].api.post(f"/api/table/entries/{entry['id']}/confirm/", {}, format="json")
    assert other_table.status_code == 404  # another table's line: "not there"
    tables[1].confirm(entry)
    assert APIClient().get("/api/table/").status_code == 401  # no device
    assert _client("referee").post("/api/table/goings-on/", {"side": "home", "strokes": 1},
                                   format="json").status_code in (401, 403)  # a user is not a table

    # --- table 3: a going-on disputed, corrected by the referee with a reason ---------------------------------
    disputed = tables[3].go_on("away", 2)
    answer = tables[3].api.post(f"/api/table/entries/{disputed['id']}/dispute/",
                                {"reason": "We counted 52: only 1 stroke."}, format="json")
    assert answer.status_code == 200 and answer.json()["state"] == "disputed"
    corrected = referee.patch(f"{base}/entries/{disputed['id']}/",
                              {"strokes": 1, "reason": "Heard both telmen: 1 stroke."}, format="json")
    assert corrected.status_code == 200, corrected.content
    assert (corrected.json()["strokes"], corrected.json()["state"]) == (1, "confirmed")
    assert referee.patch(f"{base}/entries/{disputed['id']}/", {"strokes": 2}, format="json").status_code == 400
    for strokes in (2, 2):
        tables[3].confirm(tables[3].go_on("away", strokes))
    assert tables[3].mine()["away_points"] == 4

    # --- tables 2 and 4: a boem each, every going-on confirmed -------------------------------------------------
    for side, strokes in (("home", 2), ("away", 1), ("home", 2), ("away", 1), ("home", 1)):
        tables[2].confirm(tables[2].go_on(side, strokes))
    for side, strokes in (("home", 1), ("away", 2), ("home", 2), ("away", 1), ("away", 2)):
        tables[4].confirm(tables[4].go_on(side, strokes))
    assert (tables[2].mine()["home_points"], tables[4].mine()["away_points"]) == (2, 2)

    # --- "af" at table 2, ruled by the referee ----------------------------------------------------------------
    seats = tables[2].mine()
    af = tables[2].api.post("/api/table/af/", {"claimant": seats["home"]["byspeler_player_id"],
                                               "accused": seats["away"]["telman_player_id"]}, format="json")
    assert af.status_code == 201 and af.json()["offence"] == ""
    blocked = tables[2].api.post("/api/table/goings-on/", {"side": "home", "strokes": 1}, format="json")
    assert blocked.status_code == 400 and "SAKBOC 1.10" in blocked.json()["detail"][0]
    claim = f"{base}/claims/{af.json()['claim']}"
    unnamed = referee.post(f"{claim}/ruling/", {"decision": "upheld"}, format="json")
    assert unnamed.status_code == 400 and "Name the offence" in unnamed.json()["decision"][0]
    assert referee.post(f"{claim}/offence/", {"offence": "signs"}, format="json").json()["rules"]
    ruling = referee.post(f"{claim}/ruling/", {"decision": "upheld"}, format="json")
    assert ruling.status_code == 201 and ruling.json()["points"] == 2
    assert tables[2].mine()["home_points"] == 4

    # --- the interval, by the clock (SAKBOC 1.2); the second half; 12.3 ------------------------------------
    clock.shift(timedelta(minutes=76))
    assert referee.get(f"{base}/").json()["phase"] == "interval"
    late = tables[1].api.post("/api/table/goings-on/", {"side": "home", "strokes": 1, "cut_before_interval": False},
                              format="json")
    assert late.status_code == 400 and "SAKBOC 2.2" in late.json()["detail"][0]
    early = referee.post(f"{base}/resume/")
    assert early.status_code == 400 and "SAKBOC 1.2" in early.json()["detail"][0]
    clock.shift(timedelta(minutes=10))
    assert referee.post(f"{base}/resume/").json()["phase"] == "second_half"
    assert referee.post(f"{base}/tables/4/unseated/", {"side": "away"}, format="json").status_code == 200
    clock.shift(timedelta(minutes=4))
    state = referee.get(f"{base}/").json()
    assert [t["status"] for t in state["tables"]] == ["playing", "playing", "playing", "stopped"]
    assert state["awards"][0]["points"] == 10 and state["awards"][0]["clause"] == "SAKBOC 12.3"
    gone = tables[4].api.post("/api/table/goings-on/", {"side": "home", "strokes": 1}, format="json")
    assert gone.status_code == 400 and "SAKBOC 12.1" in gone.json()["detail"][0]

    # --- full time by the clock; the table devices are signed out ---------------------------------------------
    clock.shift(timedelta(minutes=75))
    assert referee.get(f"{base}/").json()["phase"] == "finished"
    over = tables[1].api.get("/api/table/")
    assert over.status_code == 401 and "match is over" in over.json()["detail"]
    assert referee.post(f"{base}/tables/1/goings-on/", {"side": "home", "strokes": 1, "reason": "late"},
                        format="json").status_code == 400

    # --- the captains confirm, the official approves, the standings show it -----------------------------------
    for username in ("captain", "captain2"):
        assert _client(username).post(f"/api/fixtures/{match.pk}/confirm/").status_code == 200
    approved = _client("official").post(f"/api/fixtures/{match.pk}/approve/", {}, format="json")
    assert approved.status_code == 200 and approved.json()["result_status"] == "approved"
    assert (approved.json()["home_score"], approved.json()["away_score"]) == (18, 4)
    rows = public.get(f"/api/competitions/{match.competition_id}/standings/").json()
    assert rows[0]["team_name"] == "Athlone Aces" and rows[0]["points_for"] == 18


def test_a_device_of_another_match_reaches_nothing_of_this_one():
    one, other = match_with_sheets(), match_with_sheets()
    for match in (one, other):
        match.scheduled_start = timezone.now() - timedelta(minutes=1)
        match.save()
    referee = _client()
    referee.force_authenticate(one.referee)
    referee.post(f"/api/referee/matches/{one.pk}/toss/", {"winner": "home"}, format="json")
    assert referee.post(f"/api/referee/matches/{one.pk}/start/").status_code == 200
    assert referee.get(f"/api/referee/matches/{other.pk}/").status_code == 404  # another match's referee
    code = referee.get(f"/api/referee/matches/{one.pk}/table-links/").json()[0]["code"]
    key = APIClient().post("/api/table/sign-in/", {"code": code}, format="json").json()["key"]
    device = _device(key)
    line = device.post("/api/table/goings-on/", {"side": "home", "strokes": 1}, format="json").json()
    referee.force_authenticate(other.referee)
    other_links = referee.get(f"/api/referee/matches/{other.pk}/table-links/").json()
    other_key = APIClient().post("/api/table/sign-in/", {"code": other_links[0]["code"]}, format="json")
    assert other_key.status_code == 201  # a scheduled match's links sign in; its sheet takes nothing yet
    stranger = _device(other_key.json()["key"])
    assert stranger.post(f"/api/table/entries/{line['id']}/confirm/", {}, format="json").status_code == 404
    refused = stranger.post("/api/table/goings-on/", {"side": "home", "strokes": 1}, format="json")
    assert refused.status_code == 400 and "SAKBOC 1.9" in refused.json()["detail"][0]
