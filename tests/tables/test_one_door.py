"""One door for every table write (issue 34): the same request posted through (a) the table page's form, (b) the
table page with ``Accept: application/json`` (the offline queue) and (c) the table API with the device's key gets
the same answer: written or refused, the same strokes, the same message text (``tables.services``).

Each request is posted through each door on the same sheet: a door's write is rolled back before the next door
is tried (a savepoint), so the three meet the same state. The page's form is asked as a browser without
JavaScript posts it (its fields as text, ``yes``/``no``); the queue's as the queue sends it; the API's as JSON.
"""

from __future__ import annotations

import html
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import BoemEntry, Match, MatchTable, Seat, TableDevice
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from referee.models import StrafClaim
from tables import services as table_services
from tests.factories import match_with_sheets
from tests.tables.conftest import telman

pytestmark = pytest.mark.django_db
DOORS = ("page", "queue", "api")


@dataclass(frozen=True)
class Outcome:
    """What a door answered: ``written`` (a row more), the line's ``strokes`` (a going-on), the ``message`` (one
    text, as the table reads it) and, for the queue and the API, the HTTP ``status``."""

    written: bool
    strokes: int | None
    message: str
    status: int | None = None
    at: datetime | None = None  # when the new line is recorded (not compared: each door arrives at its time)


class _Undo(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


def _match(*, first_half_ends_in: timedelta = timedelta(minutes=30)) -> Match:
    now = timezone.now().replace(microsecond=0)
    match = match_with_sheets(scheduled_start=now, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    start = now + first_half_ends_in - timedelta(minutes=match.competition.union.half_minutes)
    Match.objects.filter(pk=match.pk).update(scheduled_start=start)
    match.refresh_from_db()
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


class Night:
    """Table 1 of ``match`` signed in twice: a phone's page session (doors a and b) and an API device (door c)."""

    def __init__(self, match: Match, client) -> None:
        self.match = match
        link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
        self.page = client
        assert self.page.get(f"/table/t/{link.secret}/").status_code == 302
        self.api = APIClient()
        key = self.api.post("/api/table/sign-in/", {"link": link.secret}, format="json").json()["key"]
        self.api.credentials(HTTP_AUTHORIZATION=f"Table {key}")

    def version(self) -> int:
        return MatchTable.objects.get(match=self.match, number=1).sheet_version

    def rows(self) -> tuple[int, int, int]:
        """Lines, settled lines and "af" claims at the table: a write moves one of them."""
        lines = BoemEntry.objects.filter(table__match=self.match)
        settled = lines.exclude(confirmed_at=None).count() + lines.exclude(disputed_at=None).count()
        return lines.count(), settled, StrafClaim.objects.filter(match=self.match).count()

    def post(self, door: str, *, page_url: str, api_url: str, fields: dict[str, Any]) -> Outcome:
        """Post ``fields`` (values as Python: booleans, times, numbers) through ``door``; undo what it wrote."""
        before = self.rows()
        try:
            with transaction.atomic():
                raise _Undo(self._post(door, page_url, api_url, fields, before))
        except _Undo as undo:
            return undo.outcome

    def _post(self, door: str, page_url: str, api_url: str, fields: dict[str, Any], before) -> Outcome:
        key = str(uuid.uuid4())
        if door == "api":
            body = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in fields.items() if v is not None}
            response = self.api.post(api_url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            answer = response.json()
            message = answer.get("message") or " ".join(_texts(answer))
            return self._outcome(before, message, response.status_code)
        form = {k: _form_value(v) for k, v in fields.items() if v is not None}
        form["client_id"] = key
        if door == "queue":
            response = self.page.post(page_url, form, HTTP_ACCEPT="application/json", HTTP_IDEMPOTENCY_KEY=key)
            answer = response.json()
            return self._outcome(before, answer["message"], response.status_code)
        response = self.page.post(page_url, form, follow=True)
        return self._outcome(before, _page_message(response.content.decode()), None)

    def _outcome(self, before, message: str, status: int | None) -> Outcome:
        written, strokes, at = self.rows() != before, None, None
        if self.rows()[0] != before[0]:  # a new line: its strokes and time as the sheet holds them
            line = BoemEntry.objects.filter(table__match=self.match).order_by("-sequence").first()
            strokes, at = line.strokes, line.recorded_at
        return Outcome(written=written, strokes=strokes, message=message, status=status, at=at)

    def through_each_door(self, *, page_url: str, api_url: str, fields: dict[str, Any]) -> dict[str, Outcome]:
        return {door: self.post(door, page_url=page_url, api_url=api_url, fields=fields) for door in DOORS}


def _form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _texts(answer: Any) -> list[str]:
    if isinstance(answer, str):
        return [answer]
    if isinstance(answer, list):
        return [text for item in answer for text in _texts(item)]
    if isinstance(answer, dict):
        return [text for item in answer.values() for text in _texts(item)]
    return []


def _page_message(page: str) -> str:
    """The messages at the top of the page, or the form's own error (a refusal shown on the form's page)."""
    blocks = re.findall(r'<ul class="messages">(.*?)</ul>', page, re.S) + re.findall(
        r'<ul class="errorlist nonfield">(.*?)</ul>', page, re.S)
    items = [item for block in blocks for item in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in items)


def _same(outcomes: dict[str, Outcome]) -> Outcome:
    """Assert the three doors answered alike (the queue's and the API's status too) and return that answer."""
    page, queue, api = outcomes["page"], outcomes["queue"], outcomes["api"]
    assert (page.written, page.strokes, page.message) == (queue.written, queue.strokes, queue.message), outcomes
    assert (queue.written, queue.strokes, queue.message, queue.status) == (
        api.written, api.strokes, api.message, api.status), outcomes
    assert page.message, outcomes
    return api


GOING_ON = {"page_url": "/table/sheet/going-on/", "api_url": "/api/table/goings-on/"}


def test_two_strokes_without_the_answer_is_refused_at_every_door(client):
    night = Night(_match(), client)
    answer = _same(night.through_each_door(**GOING_ON, fields={"side": "home", "strokes": 2,
                                                               "version": night.version()}))
    assert not answer.written and answer.status == 400
    assert answer.message.startswith("Notes §VI: 2 strokes only when the opponents count under 50")
    assert "say whether they do" in answer.message


def test_two_strokes_answered_no_is_refused_at_every_door_not_written_as_one(client):
    night = Night(_match(), client)
    answer = _same(night.through_each_door(**GOING_ON, fields={
        "side": "home", "strokes": 2, "opponents_under_fifty": False, "version": night.version()}))
    assert not answer.written and answer.message.startswith("Notes §VI") and "otherwise 1" in answer.message


def test_a_good_going_on_is_written_alike_at_every_door(client):
    night = Night(_match(), client)
    away_telman = telman(night.match, night.match.away)
    for strokes, under_fifty in ((1, None), (2, True)):
        answer = _same(night.through_each_door(**GOING_ON, fields={
            "side": "home", "strokes": strokes, "opponents_under_fifty": under_fifty, "version": night.version()}))
        assert answer.written and answer.strokes == strokes and answer.status == 201
        assert answer.message == (f"Athlone Aces on {strokes}. Waiting for {away_telman.first_name} "
                                  f"{away_telman.last_name} to confirm.")


def test_a_stale_sheet_is_refused_alike(client):
    night = Night(_match(), client)
    boem_sheet.going_on_record(match=night.match, table_number=1, team=night.match.away, strokes=1,
                               reason="entered for the table")
    answer = _same(night.through_each_door(**GOING_ON, fields={"side": "home", "strokes": 1,
                                                               "version": night.version() - 1}))
    assert not answer.written and answer.status == 409 and "changed by someone else" in answer.message


def _in_the_interval() -> Match:
    """The first half's 75 minutes were up 2 minutes ago, and the interval was called then (SAKBOC 1.2)."""
    match = _match(first_half_ends_in=-timedelta(minutes=2))
    return night_clock.match_interval_call(match=match, now=timezone.now() - timedelta(minutes=2))


def test_in_the_interval_a_going_on_without_the_cut_answer_is_refused_alike_sakboc_2_2(client):
    night = Night(_in_the_interval(), client)
    answer = _same(night.through_each_door(**GOING_ON, fields={"side": "home", "strokes": 1,
                                                               "version": night.version()}))
    assert not answer.written and answer.status == 400
    assert answer.message.startswith("SAKBOC 2.2: the interval was called at ")
    assert "say whether this hand was cut before it was called" in answer.message
    answer = _same(night.through_each_door(**GOING_ON, fields={
        "side": "home", "strokes": 1, "cut_before_interval": False, "version": night.version()}))
    assert not answer.written and "a hand cut after the call is not played" in answer.message


def test_the_interval_hand_is_written_alike(client):
    night = Night(_in_the_interval(), client)
    answer = _same(night.through_each_door(**GOING_ON, fields={
        "side": "away", "strokes": 1, "cut_before_interval": True, "version": night.version()}))
    assert answer.written and answer.strokes == 1


def test_an_entry_time_before_the_last_line_is_bounded_alike(client):
    """A going-on that waited offline (``entered_at``) is recorded at its time, never before the table's last
    line (``tables.services.entered_at_bound``): the API takes the time with the same bounds as the page."""
    night = Night(_match(), client)
    last_at = timezone.now().replace(microsecond=0) - timedelta(minutes=3)
    boem_sheet.going_on_record(match=night.match, table_number=1, team=night.match.away, strokes=1, now=last_at,
                               reason="entered for the table")
    outcomes = night.through_each_door(**GOING_ON, fields={
        "side": "home", "strokes": 1, "version": night.version(), "entered_at": last_at - timedelta(minutes=20)})
    answer = _same(outcomes)
    assert answer.written and answer.strokes == 1
    assert {door: outcome.at for door, outcome in outcomes.items()} == {door: last_at for door in DOORS}


def test_the_bounds_are_one_function():
    """Never later than its arrival; a naive time is the server's; none sent is none."""
    now = timezone.now()
    assert table_services.entered_at_arrival(now + timedelta(hours=2), now=now) == now
    assert table_services.entered_at_arrival(None) is None
    naive = datetime(2026, 3, 4, 19, 30)  # noqa: DTZ001 - a naive time as a phone might send it
    assert table_services.entered_at_arrival(naive, now=now) == timezone.make_aware(naive)


# --- Confirm, dispute, af -----------------------------------------------------------------------------------

def _device(night: Night) -> TableDevice:
    return TableDevice.objects.filter(link__match=night.match, link__table_number=1).first()


def _provisional(night: Night) -> BoemEntry:
    """A going-on waiting for the opposing telman (written through the service, as any door would)."""
    answer = table_services.table_going_on(device=_device(night), side="home", strokes=1)
    return BoemEntry.objects.get(pk=answer.body["entry"])


def _entry_doors(entry: BoemEntry, action: str) -> dict[str, str]:
    return {"page_url": f"/table/sheet/entries/{entry.pk}/{action}/",
            "api_url": f"/api/table/entries/{entry.pk}/{action}/"}


def test_confirm_alike_and_a_line_confirmed_already_is_refused_alike(client):
    night = Night(_match(), client)
    entry = _provisional(night)
    away_telman = telman(night.match, night.match.away)
    answer = _same(night.through_each_door(**_entry_doors(entry, "confirm"), fields={"version": night.version()}))
    assert answer.written and answer.status == 200 and answer.message == "Confirmed."
    boem_sheet.entry_confirm(entry=entry, device=_device(night))
    answer = _same(night.through_each_door(**_entry_doors(entry, "confirm"), fields={"version": night.version()}))
    assert not answer.written and answer.status == 409
    assert answer.message.startswith(f"Athlone Aces on 1 was confirmed already, by {away_telman.first_name} "
                                     f"{away_telman.last_name} at ")


def test_dispute_alike_and_one_without_a_reason_is_refused_alike(client):
    night = Night(_match(), client)
    entry = _provisional(night)
    answer = _same(night.through_each_door(**_entry_doors(entry, "dispute"), fields={
        "version": night.version(), "reason": "we counted 52: only 1 stroke"}))
    assert answer.written and answer.message == "Disputed: the referee is told and will settle it."
    answer = _same(night.through_each_door(**_entry_doors(entry, "dispute"), fields={
        "version": night.version(), "reason": ""}))
    assert not answer.written and answer.status == 400
    assert answer.message == "Say what is wrong with this going-on: the referee reads it."


def test_af_alike_and_against_ones_own_side_or_someone_not_seated_is_refused_alike(client):
    night = Night(_match(), client)
    match = night.match
    home, away, own_partner = telman(match, match.home), telman(match, match.away), telman(match, match.home, 2)
    doors = {"page_url": "/table/sheet/af/", "api_url": "/api/table/af/"}
    answer = _same(night.through_each_door(**doors, fields={"claimant": home.pk, "accused": away.pk}))
    assert answer.written and answer.status == 201
    assert answer.message == (f"“Af” by {home.first_name} {home.last_name}: the referee is called. The boem waits "
                              f"for the ruling (SAKBOC 1.10).")
    partner = Seat.objects.get(sheet__match=match, sheet__team=match.home, table_number=1,
                               role=Seat.Role.BYSPELER).player
    answer = _same(night.through_each_door(**doors, fields={"claimant": home.pk, "accused": partner.pk}))
    assert not answer.written and answer.status == 400
    assert answer.message == "“Af” is said against the other side: choose a player of the other team."
    answer = _same(night.through_each_door(**doors, fields={"claimant": own_partner.pk, "accused": away.pk}))
    assert not answer.written and answer.message.startswith("Choose players seated at this table")
