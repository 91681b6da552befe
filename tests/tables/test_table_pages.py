"""The table pages (a phone at a table keeps its boem sheet) through the HTTP client: signing in with the table
code or the QR link, goings-on, confirmations, disputes and "af", each refusal citing its clause."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Boem, BoemEntry, Match, MatchTable
from matches.night import services as night_services
from matches.night import table_links
from referee.models import StrafClaim
from tests.tables.conftest import telman

pytestmark = pytest.mark.django_db


def sign_in(client, link) -> None:
    response = client.post(reverse("tables:code"), {"code": table_links.code_display(link.code).lower()})
    assert response.status_code == 302 and response["Location"] == reverse("tables:sheet"), response.content[:500]


def version(match: Match, table: int = 1) -> int:
    return MatchTable.objects.get(match=match, number=table).sheet_version


def go_on(client, match, side: str, strokes: int, table: int = 1, **extra):
    data = {"version": version(match, table), "side": side, "strokes": strokes, **extra}
    return client.post(reverse("tables:going-on"), data, follow=True)


def test_the_code_signs_in_for_that_table_and_shows_names_not_seats(client, playing, links):
    sign_in(client, links[2])
    page = client.get(reverse("tables:sheet")).content.decode()
    assert "Table 2" in page and playing.home.name in page and playing.away.name in page
    assert telman(playing, playing.home, 2).first_name in page and telman(playing, playing.away, 2).last_name in page
    assert "seat 0" not in page.lower() and "team 0" not in page.lower()


def test_the_qr_link_signs_in_too(client, playing, links):
    response = client.get(reverse("tables:open", args=[links[3].secret]))
    assert response.status_code == 302
    assert "Table 3" in client.get(reverse("tables:sheet")).content.decode()


def test_a_wrong_code_is_refused_with_a_reason(client, playing, links):
    response = client.post(reverse("tables:code"), {"code": "ZZZZ ZZZZ"})
    assert response.status_code == 400 and "No table has that code" in response.content.decode()
    assert client.get(reverse("tables:sheet"))["Location"] == reverse("tables:code")


def test_a_going_on_is_provisional_until_the_opposing_telman_confirms(client, playing, links):
    sign_in(client, links[1])
    page = go_on(client, playing, "home", 1).content.decode()
    entry = BoemEntry.objects.get(table__match=playing)
    away_telman = telman(playing, playing.away)
    assert entry.state == "provisional" and entry.device is not None
    assert f"Confirm: I am {away_telman.first_name} {away_telman.last_name}" in page
    client.post(reverse("tables:confirm", args=[entry.pk]), {"version": version(playing)})
    entry.refresh_from_db()
    assert entry.state == "confirmed" and entry.confirmed_by_player == away_telman


def test_two_strokes_asks_whether_the_opponents_count_under_50(client, playing, links):
    """The sheet's "2 strokes" opens the question (GET); its "yes" posts 2 strokes, its "no" 1 stroke; a post of
    2 strokes without the answer, or with "no", is refused (Notes §VI), as the table API refuses it."""
    sign_in(client, links[1])
    sheet = client.get(reverse("tables:sheet")).content.decode()
    assert 'method="get" action="/table/sheet/going-on/" data-queue="going_on" data-side="home" data-strokes="2"' \
        in sheet
    asked = client.get(reverse("tables:going-on"), {"version": version(playing), "side": "home", "strokes": 2})
    page = asked.content.decode()
    assert "Athlone Aces on 2?" in page and "count <strong>under 50</strong>" in page
    assert '<input type="hidden" name="strokes" value="1"><input type="hidden" name="opponents_under_fifty" ' \
           'value="no">' in page
    assert not BoemEntry.objects.exists()
    unanswered = go_on(client, playing, "home", 2).content.decode()
    assert "Notes §VI: 2 strokes only when the opponents count under 50" in unanswered
    answered_no = go_on(client, playing, "home", 2, opponents_under_fifty="no").content.decode()
    assert "Notes §VI: 2 strokes only when the opponents count under 50" in answered_no
    assert not BoemEntry.objects.exists()
    go_on(client, playing, "home", 1, opponents_under_fifty="no")  # the question page's "No: 1 stroke"
    go_on(client, playing, "home", 2, opponents_under_fifty="yes")
    assert list(BoemEntry.objects.order_by("sequence").values_list("strokes", flat=True)) == [1, 2]


def test_five_nil_is_4_points_sakboc_6_1(client, playing, links):
    sign_in(client, links[4])
    for strokes in (2, 2, 1):
        go_on(client, playing, "away", strokes, table=4, opponents_under_fifty="yes")
    boem = Boem.objects.get(table__match=playing)
    assert (boem.status, boem.away_strokes, boem.points) == (Boem.Status.COMPLETED, 5, 4)
    assert Match.objects.get(pk=playing.pk).away_score == 4


def test_a_stale_sheet_is_not_written_over(client, playing, links):
    sign_in(client, links[1])
    stale = version(playing)
    go_on(client, playing, "home", 1)
    page = client.post(reverse("tables:going-on"), {"version": stale, "side": "home", "strokes": 1},
                       follow=True).content.decode()
    assert "changed by someone else" in page and BoemEntry.objects.count() == 1


def test_a_dispute_reaches_the_referee_and_blocks_confirmation_at_the_table(client, playing, links):
    sign_in(client, links[1])
    go_on(client, playing, "away", 2, opponents_under_fifty="yes")
    entry = BoemEntry.objects.get()
    url = reverse("tables:dispute", args=[entry.pk])
    assert client.post(url, {"version": version(playing), "reason": ""}).status_code == 400
    client.post(url, {"version": version(playing), "reason": "we counted 52: only 1 stroke"})
    entry.refresh_from_db()
    assert entry.state == "disputed" and entry.dispute_reason == "we counted 52: only 1 stroke"
    page = client.post(reverse("tables:confirm", args=[entry.pk]), {"version": version(playing)},
                       follow=True).content.decode()
    assert "the referee settles it" in page and BoemEntry.objects.get().state == "disputed"


def test_af_opens_a_claim_for_the_referee_and_stops_goings_on_until_the_ruling(client, playing, links):
    sign_in(client, links[2])
    home_telman, away_telman = telman(playing, playing.home, 2), telman(playing, playing.away, 2)
    same_side = client.post(reverse("tables:af"), {"claimant": home_telman.pk, "accused": home_telman.pk})
    assert same_side.status_code == 400 and "other side" in same_side.content.decode()
    client.post(reverse("tables:af"), {"claimant": home_telman.pk, "accused": away_telman.pk, "offence": ""})
    claim = StrafClaim.objects.get()
    assert (claim.table.number, claim.claimant_side, claim.claimant_role, claim.offence) == (2, "home", "telman", "")
    assert claim.device is not None and claim.logged_by is None
    page = go_on(client, playing, "home", 1, table=2).content.decode()
    assert "SAKBOC 1.10" in page and not BoemEntry.objects.exists()


def test_another_tables_line_is_not_this_devices(client, playing, links):
    sign_in(client, links[1])
    go_on(client, playing, "home", 1)
    other = client.__class__()
    sign_in(other, links[2])
    entry = BoemEntry.objects.get()
    assert other.post(reverse("tables:confirm", args=[entry.pk]), {"version": version(playing)}).status_code == 404
    assert other.get(reverse("tables:dispute", args=[entry.pk])).status_code == 404


def test_a_reissued_link_signs_its_devices_out(client, playing, links):
    sign_in(client, links[1])
    table_links.table_link_reissue(match=playing, table_number=1, by=playing.referee)
    response = client.get(reverse("tables:sheet"), follow=True)
    assert "replaced by the referee" in response.content.decode()
    assert client.post(reverse("tables:code"), {"code": links[1].code}).status_code == 400


def test_nothing_goes_on_during_the_interval_unless_the_hand_was_cut_before_it_sakboc_2_2(client, playing, links):
    sign_in(client, links[1])
    Match.objects.filter(pk=playing.pk).update(first_half_started_at=timezone.now() - timedelta(minutes=76))
    page = go_on(client, playing, "home", 1).content.decode()
    assert "SAKBOC 2.2" in page and not BoemEntry.objects.exists()
    go_on(client, playing, "home", 1, cut_before_interval="on")
    assert BoemEntry.objects.count() == 1
    page = go_on(client, playing, "home", 1, cut_before_interval="on").content.decode()
    assert "SAKBOC 2.2" in page and BoemEntry.objects.count() == 1  # one hand per table


def test_the_match_over_signs_the_table_out(client, playing, links):
    sign_in(client, links[1])
    Match.objects.filter(pk=playing.pk).update(phase=Match.Phase.FINISHED)
    page = client.get(reverse("tables:sheet"), follow=True).content.decode()
    assert "This match is over" in page


def test_the_live_part_answers_304_until_the_night_changes(client, playing, links):
    sign_in(client, links[1])
    first = client.get(reverse("tables:live"))
    assert first.status_code == 200 and first["ETag"]
    assert client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    night_services.match_score_recompute(match=playing)
    assert client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_going_on_and_its_confirmation_from_the_page_lock_and_read_the_match_once(client, playing, links):
    """The view locks the match to bound the entry's time (``tables.views._entry_time``) and hands it to the
    service, which does not lock and read it again (``matches.writes.match_lock(handed_on=True)``), whether
    it locks by the match (a going-on) or by its id (a confirmation, through the line)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sign_in(client, links[1])
    before = Match.objects.get(pk=playing.pk).live_version
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("tables:going-on"), {"version": version(playing), "side": "home",
                                                             "strokes": 1}, HTTP_ACCEPT="application/json")
    assert response.status_code == 201, response.content
    locks = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "matches_match"')]
    assert len(locks) == 1, locks
    assert Match.objects.get(pk=playing.pk).live_version == before + 1
    assert BoemEntry.objects.get(table__match=playing).strokes == 1
    entry = BoemEntry.objects.get(table__match=playing)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("tables:confirm", args=[entry.pk]), {"version": version(playing)},
                               HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    locks = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "matches_match"')]
    assert len(locks) == 1, locks
    entry.refresh_from_db()
    assert entry.state == "confirmed"


def test_a_match_handed_on_is_locked_again_after_its_transaction(playing):
    """The hand-over holds within one transaction only: a later transaction locks the row afresh."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from matches.writes import match_lock

    with transaction.atomic():
        locked = match_lock(playing.pk, handed_on=True)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        again = match_lock(locked)
    assert again is not locked
    assert any(q["sql"].startswith('UPDATE "matches_match"') for q in queries.captured_queries)
    with transaction.atomic():
        locked = match_lock(playing.pk, handed_on=True)
        assert match_lock(locked) is locked  # handed on once, in the same transaction
        assert match_lock(locked) is not locked  # a second lock reads the row again


def test_the_interval_hand_is_a_state_of_the_sheet_entered_in_one_tap_sakboc_2_2(client, playing, links):
    """In the interval the sheet says so ("finish the hand that was cut") with its own going-on buttons, which
    say the hand was cut before the call themselves (no checkbox); once the hand is on the sheet, no more."""
    sign_in(client, links[1])
    assert "Interval: finish the hand that was cut" not in client.get(reverse("tables:sheet")).content.decode()
    Match.objects.filter(pk=playing.pk).update(first_half_started_at=timezone.now() - timedelta(minutes=76))
    page = client.get(reverse("tables:sheet")).content.decode()
    assert "Interval: finish the hand that was cut" in page
    assert 'type="checkbox"' not in page and 'name="cut_before_interval" value="on"' not in page
    assert page.count('<input type="hidden" name="cut_before_interval" value="yes">') == 4  # 1 and 2, each side
    assert 'class="big going-on interval-going-on"' in page
    tapped = go_on(client, playing, "away", 1, cut_before_interval="yes").content.decode()
    assert "Mitchells Plain Manels on 1. Waiting for" in tapped
    assert BoemEntry.objects.get(table__match=playing).strokes == 1
    assert "Interval: this table's hand is on the sheet" in tapped and "interval-going-on" not in tapped


def test_sign_out_sits_in_the_head_and_asks_first(client, playing, links):
    sign_in(client, links[1])
    page = client.get(reverse("tables:sheet")).content.decode()
    head = page[page.index('<header class="site-header table-header">'):page.index("</header>")]
    assert f'<a class="sign-out-link" href="{reverse("tables:sign-out")}">Sign this device out</a>' in head
    assert "tables:sign-out" not in page[page.index("</header>"):] and 'action="/table/sign-out/"' not in page
    asked = client.get(reverse("tables:sign-out")).content.decode()
    assert "Sign this device out of table 1?" in asked and 'action="/table/sign-out/"' in asked
    assert client.get(reverse("tables:sheet")).status_code == 200  # asking signed nothing out
    client.post(reverse("tables:sign-out"))
    assert client.get(reverse("tables:sheet"))["Location"] == reverse("tables:code")
