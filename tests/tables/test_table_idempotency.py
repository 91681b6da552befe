"""Each table write exactly once (load-shedding): every write of the table API (goings-on, confirm, dispute, af)
and of the table pages takes an idempotency key; a repeat answers with the stored result and writes no second
row; the same key with another request is refused; a refused write is not kept, so it may be sent again.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import BoemEntry, MatchTable, Seat
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night import table_links
from referee.models import StrafClaim
from tables.models import TableWrite
from tests.factories import match_with_sheets

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


@pytest.fixture
def link(match):
    return next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)


@pytest.fixture
def device(link) -> APIClient:
    client = APIClient()
    key = client.post("/api/table/sign-in/", {"link": link.secret}, format="json").json()["key"]
    client.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    return client


def version(match) -> int:
    return MatchTable.objects.get(match=match, number=1).sheet_version


def post(client: APIClient, path: str, body: dict, key: str | None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(path, body, format="json", **headers)


def go_on(device, match, key, side="home", strokes=1):
    body = {"side": side, "strokes": strokes, "version": version(match)}
    if strokes == 2:
        body["opponents_under_fifty"] = True  # Notes §VI: 2 strokes say so
    return post(device, "/api/table/goings-on/", body, key)


def test_a_going_on_sent_twice_is_one_line(device, match):
    key = str(uuid.uuid4())
    first = go_on(device, match, key)
    again = post(device, "/api/table/goings-on/", {"side": "home", "strokes": 1, "version": 0}, key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert (first["Idempotent-Replayed"], again["Idempotent-Replayed"]) == ("false", "true")
    assert BoemEntry.objects.filter(table__match=match).count() == 1
    assert version(match) == 1
    write = TableWrite.objects.get(match=match, key=key)
    assert (write.kind, write.status_code, write.result["id"]) == ("going_on", 201, first.json()["id"])


def test_without_a_key_each_post_writes(device, match):
    assert go_on(device, match, None).status_code == 201
    assert go_on(device, match, None).status_code == 201
    assert BoemEntry.objects.filter(table__match=match).count() == 2
    assert not TableWrite.objects.exists()


def test_the_same_key_for_another_request_is_refused(device, match):
    key = str(uuid.uuid4())
    go_on(device, match, key)
    other = go_on(device, match, key, side="away")
    assert other.status_code == 422
    assert "used" in other.json()["detail"]
    assert BoemEntry.objects.filter(table__match=match).count() == 1


def test_a_bad_key_is_a_field_error(device, match):
    response = go_on(device, match, "short")
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert not BoemEntry.objects.exists()


def test_a_stale_write_is_not_kept_and_may_be_sent_again(device, match):
    key = str(uuid.uuid4())
    go_on(device, match, str(uuid.uuid4()))  # the sheet moves on: version 1
    stale = post(device, "/api/table/goings-on/", {"side": "away", "strokes": 1, "version": 0}, key)
    assert stale.status_code == 409
    assert not TableWrite.objects.filter(key=key).exists()
    retried = post(device, "/api/table/goings-on/", {"side": "away", "strokes": 1, "version": 1}, key)
    assert retried.status_code == 201 and retried["Idempotent-Replayed"] == "false"
    assert BoemEntry.objects.filter(table__match=match).count() == 2


def test_a_confirmation_sent_twice_confirms_once(device, match):
    entry = go_on(device, match, str(uuid.uuid4())).json()["id"]
    key = str(uuid.uuid4())
    path = f"/api/table/entries/{entry}/confirm/"
    first = post(device, path, {"version": version(match)}, key)
    again = post(device, path, {"version": 0}, key)  # a stale version: it would be refused if it ran again
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again.json()["state"] == "confirmed"
    assert again["Idempotent-Replayed"] == "true"
    assert version(match) == 2  # the going-on and one confirmation
    assert TableWrite.objects.filter(kind="confirm").count() == 1


def test_a_dispute_sent_twice_disputes_once(device, match):
    entry = go_on(device, match, str(uuid.uuid4())).json()["id"]
    key = str(uuid.uuid4())
    path = f"/api/table/entries/{entry}/dispute/"
    first = post(device, path, {"version": version(match), "reason": "We counted 52."}, key)
    again = post(device, path, {"version": 0, "reason": "We counted 52."}, key)
    assert first.status_code == again.status_code == 200
    assert again.json()["state"] == "disputed" and again["Idempotent-Replayed"] == "true"
    assert version(match) == 2
    other = post(device, path, {"version": version(match), "reason": "Another reason."}, key)
    assert other.status_code == 422


def test_an_af_sent_twice_is_one_claim(device, match):
    seats = {(s.sheet.team_id, s.role): s.player_id for s in Seat.objects.filter(
        sheet__match=match, table_number=1).select_related("sheet")}
    body = {"claimant": seats[(match.home_id, "telman")], "accused": seats[(match.away_id, "telman")]}
    key = str(uuid.uuid4())
    first = post(device, "/api/table/af/", body, key)
    again = post(device, "/api/table/af/", body, key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert StrafClaim.objects.filter(match=match).count() == 1
    assert MatchTable.objects.get(match=match, number=1).open_strafs == 1


def test_the_database_holds_a_key_once_per_table(device, match):
    key = str(uuid.uuid4())
    go_on(device, match, key)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableWrite.objects.create(match=match, table_number=1, key=key, kind="going_on", fingerprint="x",
                                  status_code=201, result={})


# --- The table pages: the form's client_id, and the offline queue's JSON ------------------------------------------

@pytest.fixture
def page(client, link):
    client.get(f"/table/t/{link.secret}/")
    return client


def test_a_page_form_posted_twice_writes_once(page, match):
    key = str(uuid.uuid4())
    body = {"side": "home", "strokes": 1, "version": 0, "client_id": key}
    first = page.post("/table/sheet/going-on/", body, follow=True)
    again = page.post("/table/sheet/going-on/", body, follow=True)
    assert "Waiting for" in first.content.decode()
    assert "Already received" in again.content.decode()
    assert BoemEntry.objects.filter(table__match=match).count() == 1


def test_the_sheet_renders_a_fresh_client_id_in_each_form(page):
    html = page.get("/table/sheet/").content.decode()
    ids = [part.split('"')[0] for part in html.split('name="client_id" value="')[1:]]
    posts = html.count('method="post" action="/table/sheet/')  # "2 strokes" asks first (GET): it posts no write
    assert posts >= 2 and len(ids) == posts and len(set(ids)) == len(ids)


def test_the_queue_gets_json_and_a_replay_says_so(page, match):
    key = str(uuid.uuid4())
    body = {"side": "away", "strokes": 2, "opponents_under_fifty": "yes", "version": 0, "client_id": key}
    first = page.post("/table/sheet/going-on/", body, HTTP_ACCEPT="application/json")
    again = page.post("/table/sheet/going-on/", body, HTTP_ACCEPT="application/json")
    assert first.status_code == again.status_code == 201
    assert (first.json()["replayed"], again.json()["replayed"]) == (False, True)
    assert first.json()["version"] == 1 and again.json()["entry"] == first.json()["entry"]
    assert BoemEntry.objects.filter(table__match=match).count() == 1


def test_a_queued_entry_on_a_changed_sheet_is_a_conflict_with_both_versions(page, device, match):
    go_on(device, match, str(uuid.uuid4()), side="home", strokes=2)  # another device, meanwhile
    body = {"side": "away", "strokes": 1, "version": 0, "client_id": str(uuid.uuid4())}
    response = page.post("/table/sheet/going-on/", body, HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    answer = response.json()
    assert answer["conflict"] == "stale" and "changed" in answer["message"]
    assert answer["server"]["version"] == 1
    assert answer["server"]["lines"][-1]["label"] == "Athlone Aces on 2"
    assert BoemEntry.objects.filter(table__match=match).count() == 1


def test_a_queued_confirmation_of_a_line_confirmed_meanwhile_is_a_conflict(page, device, match):
    entry = go_on(device, match, str(uuid.uuid4())).json()["id"]
    post(device, f"/api/table/entries/{entry}/confirm/", {"version": 1}, str(uuid.uuid4()))
    response = page.post(f"/table/sheet/entries/{entry}/confirm/", {"version": 1, "client_id": str(uuid.uuid4())},
                         HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    assert response.json()["conflict"] == "already" and "confirmed already" in response.json()["message"]
    assert version(match) == 2
