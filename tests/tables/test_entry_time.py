"""An entry queued offline keeps the time it was made at the table (load-shedding, issue 18): the offline queue
sends ``entered_at`` (the phone's clock corrected by the offset to the server's clock it last saw), and the
clock rules apply to that time, not to the time the entry arrived; the time is bounded: never later than its
arrival, never before the last line the server holds for the table (``tables.views._entry_time``)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import BoemEntry, Match, MatchTable
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from tables.models import TableWrite
from tests.factories import match_with_sheets

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def _match(first_half_ends_in: timedelta) -> Match:
    """A match in its first half, the 75 minutes up ``first_half_ends_in`` from now (negative: already up)."""
    now = timezone.now().replace(microsecond=0)
    match = match_with_sheets(scheduled_start=now, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    start = now + first_half_ends_in - timedelta(minutes=match.competition.union.half_minutes)
    Match.objects.filter(pk=match.pk).update(scheduled_start=start)
    match.refresh_from_db()
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


def _table_page(client, match):
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    client.get(f"/table/t/{link.secret}/")
    return client


def _version(match) -> int:
    return MatchTable.objects.get(match=match, number=1).sheet_version


def _go_on(client, match, *, entered_at=None, side="home"):
    body = {"side": side, "strokes": 1, "version": _version(match), "client_id": str(uuid.uuid4())}
    if entered_at is not None:
        body["entered_at"] = entered_at.isoformat()
    return client.post("/table/sheet/going-on/", body, **JSON)


def _interval_called(match, minutes_ago: int = 2) -> Match:
    """The interval called ``minutes_ago`` (the first half's 75 minutes were up then)."""
    return night_clock.match_interval_call(match=match, now=timezone.now() - timedelta(minutes=minutes_ago))


def test_a_first_half_going_on_that_arrives_in_the_interval_is_a_first_half_hand(client):
    """SAKBOC 1.2, 2.2: made before the interval was called, it is recorded at its own time and not asked
    whether its hand was cut before the call (it was finished before it)."""
    match = _match(first_half_ends_in=-timedelta(minutes=2))
    match = _interval_called(match, minutes_ago=2)
    made = timezone.now().replace(microsecond=0) - timedelta(minutes=5)  # in the first half, waiting offline since
    response = _go_on(_table_page(client, match), match, entered_at=made)
    assert response.status_code == 201, response.json()
    line = BoemEntry.objects.get(table__match=match)
    assert line.recorded_at == made
    assert TableWrite.objects.get(match=match).entered_at == made
    # The table's interval hand still goes on after it (its own, cut before the call).
    body = {"side": "away", "strokes": 1, "version": _version(match), "client_id": str(uuid.uuid4()),
            "cut_before_interval": "on"}
    assert client.post("/table/sheet/going-on/", body, **JSON).status_code == 201


def test_arrival_time_without_an_entry_time_asks_about_the_interval(client):
    """The same going-on with no time sent (a form posted at arrival) is an interval entry: refused until the
    table says the hand was cut before the call (SAKBOC 2.2)."""
    match = _match(first_half_ends_in=-timedelta(minutes=2))
    match = _interval_called(match, minutes_ago=2)
    response = _go_on(_table_page(client, match), match)
    assert response.status_code == 400
    assert "SAKBOC 2.2" in response.json()["message"]
    assert not BoemEntry.objects.filter(table__match=match).exists()


def test_a_going_on_made_after_the_interval_was_called_is_still_asked(client):
    match = _match(first_half_ends_in=-timedelta(minutes=5))
    match = _interval_called(match, minutes_ago=5)
    made = timezone.now() - timedelta(minutes=1)  # offline, but after the call
    response = _go_on(_table_page(client, match), match, entered_at=made)
    assert response.status_code == 400
    assert "SAKBOC 2.2" in response.json()["message"] and "say whether this hand was cut" in response.json()["message"]


def test_the_first_halfs_end_passed_unnoticed_applies_to_the_entry_time(client):
    """No timer called the interval (no broker): the clock still reads "interval due" at arrival, but a going-on
    made before the 75 minutes were up is a first-half line, and one made after them is asked (2.2)."""
    match = _match(first_half_ends_in=-timedelta(minutes=1))
    page = _table_page(client, match)
    before = timezone.now().replace(microsecond=0) - timedelta(minutes=2)
    assert _go_on(page, match, entered_at=before).status_code == 201
    after = timezone.now() - timedelta(seconds=20)
    assert _go_on(page, match, entered_at=after, side="away").status_code == 400
    assert BoemEntry.objects.filter(table__match=match).count() == 1


def test_an_entry_time_in_the_future_is_its_arrival(client):
    match = _match(first_half_ends_in=timedelta(minutes=30))
    arrival = timezone.now()
    response = _go_on(_table_page(client, match), match, entered_at=arrival + timedelta(hours=2))
    assert response.status_code == 201
    line = BoemEntry.objects.get(table__match=match)
    assert arrival <= line.recorded_at <= timezone.now()


def test_an_entry_time_before_the_last_line_on_the_sheet_is_that_lines_time(client):
    """A late entry never slips in between lines the server holds (the sheet is in the order lines happened)."""
    match = _match(first_half_ends_in=timedelta(minutes=30))
    referee_line_at = timezone.now().replace(microsecond=0) - timedelta(minutes=3)
    boem_sheet.going_on_record(match=match, table_number=1, team=match.away, strokes=2, now=referee_line_at,
                               reason="entered for the table", opponents_under_fifty=True)
    response = _go_on(_table_page(client, match), match, entered_at=referee_line_at - timedelta(minutes=20))
    assert response.status_code == 201
    lines = list(BoemEntry.objects.filter(table__match=match).order_by("recorded_at", "sequence"))
    assert [line.team_id for line in lines] == [match.away_id, match.home_id]
    assert lines[1].recorded_at == referee_line_at


def test_a_queued_confirmation_keeps_its_time(client):
    match = _match(first_half_ends_in=timedelta(minutes=30))
    page = _table_page(client, match)
    made = timezone.now().replace(microsecond=0) - timedelta(minutes=4)
    entry = _go_on(page, match, entered_at=made).json()["entry"]
    confirmed = made + timedelta(seconds=30)
    body = {"version": _version(match), "client_id": str(uuid.uuid4()), "entered_at": confirmed.isoformat()}
    assert page.post(f"/table/sheet/entries/{entry}/confirm/", body, **JSON).status_code == 200
    assert BoemEntry.objects.get(pk=entry).confirmed_at == confirmed


def test_a_replayed_entry_with_its_time_is_one_line(client):
    match = _match(first_half_ends_in=timedelta(minutes=30))
    page = _table_page(client, match)
    made = timezone.now().replace(microsecond=0) - timedelta(minutes=4)
    body = {"side": "home", "strokes": 1, "version": 0, "client_id": str(uuid.uuid4()),
            "entered_at": made.isoformat()}
    first = page.post("/table/sheet/going-on/", body, **JSON)
    again = page.post("/table/sheet/going-on/", body, **JSON)
    assert (first.status_code, again.status_code, again.json()["replayed"]) == (201, 201, True)
    assert BoemEntry.objects.filter(table__match=match).count() == 1
