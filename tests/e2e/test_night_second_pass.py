"""The match night, second pass (issue 34), in Chromium at 375 px.

* ``test_interval_hand_in_one_tap``: the referee calls the interval on the console; the table's phone shows the
  table's state "Interval: finish the hand that was cut" (SAKBOC 2.2) with its own going-on buttons, and one tap
  records the hand; nothing ever blames "another phone". Screenshots of the interval state at 375 and 1280 px go
  to /tmp/shots-table/ (and artifacts/screenshots/test_night_second_pass/).
* ``test_same_going_on_refused_at_both_doors``: a going-on tapped on a phone that lost the network over the
  interval's call arrives without the table's answer to "cut before the call?"; the table page refuses it with
  the rule's reason ("refused: SAKBOC 2.2 …", not a conflict with another phone), and the table API refuses the
  same going-on with the same text (one service, ``tables.services.table_going_on``); the phone's one tap "It was
  cut before the interval" then sends it.

* ``test_a_refused_clock_action_is_shown``: the referee calls the interval too early; the refusal, left for the
  next page, is on the dashboard (it was hidden by a ``304 Not Modified``: the page's tag had not changed).
* ``test_opened_panels_stay_open_through_polls``: "Every line on the sheet" at the table and the referee's "Table
  links" stay open through three polls while the night changes, and a select in the dashboard's live part keeps
  the value chosen.
* ``test_the_report_shows_the_awards_and_names_every_offence``: the referee's report with the SAKBOC awards.
* ``test_the_table_says_strepie_in_afrikaans``: the going-on buttons in Afrikaans.

The set-up (teams, players, sheets, the match started, the referee's account) is the factories' and the match
services'; what the table and the referee do is done through the pages.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from clubs.models import GROUP_REFEREES
from matches.models import BoemEntry, Match
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from tests.e2e.conftest import PHONE, SCREENSHOTS_DIR, page_fits
from tests.factories import UserFactory, match_with_sheets
from tests.people import in_group

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"
SHOTS = Path("/tmp/shots-table")
INTERVAL_STATE = "Interval: finish the hand that was cut"


def _match_ending_first_half_in(seconds: int, **kwargs) -> Match:
    """A started match whose first half's 75 minutes are up in ``seconds`` (SAKBOC 1.2)."""
    now = timezone.now().replace(microsecond=0)
    match = match_with_sheets(home__name="Athlone Aces", away__name="Mitchells Plain Manels", scheduled_start=now,
                              **kwargs)
    start = now + timedelta(seconds=seconds) - timedelta(minutes=match.competition.union.half_minutes)
    match.scheduled_start = start
    match.save(update_fields=["scheduled_start"])
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


def _first_half_ends_at(match: Match):
    return match.first_half_started_at + timedelta(minutes=match.competition.union.half_minutes)


def _wait_until(moment) -> None:
    while timezone.now() < moment:
        time.sleep(0.2)


def _phone(browser, base_url: str, viewport=PHONE):
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="en-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _table_link(match: Match):
    return next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)


def _telman(match: Match, team) -> str:
    from matches.models import Seat

    seat = Seat.objects.select_related("player").get(sheet__match=match, sheet__team=team, table_number=1,
                                                     role=Seat.Role.TELMAN)
    return f"{seat.player.first_name} {seat.player.last_name}"


def _sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state("load")
    assert "/accounts/login/" not in page.url, page.inner_text("main")[:300]


def _night(*, started_minutes_ago: int, referee=None):
    """A match with both sheets whose first half started ``started_minutes_ago`` minutes ago (toss before)."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=started_minutes_ago)
    match = match_with_sheets(scheduled_start=start, referee=referee, home__name="Athlone Aces",
                              away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


def _polls(page, seconds: float, *, meanwhile=None) -> None:
    """Wait ``seconds`` of polls; ``meanwhile()`` (a write of the night) runs a third of the way through."""
    page.wait_for_timeout(seconds * 1000 / 3)
    if meanwhile is not None:
        meanwhile()
    page.wait_for_timeout(seconds * 1000 * 2 / 3)


def _shoot(page, name: str) -> None:
    """The page at 375 px and at 1280 px, under /tmp/shots-table/ and the artifacts' folder; each fits."""
    folder = SCREENSHOTS_DIR / "test_night_second_pass"
    folder.mkdir(parents=True, exist_ok=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in ((PHONE, 375), (DESKTOP, 1280)):
        page.set_viewport_size(viewport)
        for where in (SHOTS, folder):
            page.screenshot(path=str(where / f"{name}-{width}.png"), full_page=True)
        page_fits(page, f"{name} at {width} px")
    page.set_viewport_size(PHONE)


def test_interval_hand_in_one_tap(browser, live_server):
    referee_user = in_group(UserFactory(username="referee", password=PASSWORD), GROUP_REFEREES)
    match = _match_ending_first_half_in(12, referee=referee_user)
    link = _table_link(match)
    table_context, table, table_errors = _phone(browser, live_server.url)
    referee_context, referee, referee_errors = _phone(browser, live_server.url)
    try:
        table.goto(f"/table/t/{link.secret}/")
        expect(table.locator("section.go-on")).to_be_visible()  # the first half: the ordinary buttons
        expect(table.locator("#interval-hand")).to_have_count(0)

        referee.goto("/accounts/login/")
        referee.fill("input[name=username]", "referee")
        referee.fill("input[name=password]", PASSWORD)
        referee.click("button[type=submit]")
        referee.goto(f"/referee/matches/{match.pk}/")
        expect(referee.locator(".clock-phase")).to_have_text("First half")

        # --- The 75 minutes are up: the referee calls the interval (SAKBOC 1.2) --------------------------------
        _wait_until(_first_half_ends_at(match) + timedelta(seconds=1))
        try:
            referee.click("button:has-text('Call the interval')", timeout=3_000)
        except PlaywrightTimeout:  # the console's own clock called it a moment before (it was due)
            pass
        expect(referee.locator(".clock-phase")).to_have_text("Interval")
        assert Match.objects.get(pk=match.pk).phase == Match.Phase.INTERVAL

        # --- The table's phone shows the interval hand, a state of its own --------------------------------------
        hand = table.locator("#interval-hand")
        expect(hand).to_contain_text(INTERVAL_STATE, timeout=10_000)  # the sheet's poll brings it
        expect(table.locator("section.go-on")).to_have_count(0)
        expect(table.locator("input[type=checkbox]")).to_have_count(0)  # no "cut before the interval" box
        expect(hand.locator("button.going-on")).to_have_count(4)  # 1 or 2 strokes, for either side
        _shoot(table, "interval-hand")

        # --- One tap records the hand ---------------------------------------------------------------------------
        hand.locator("button.going-on[data-side=away][data-strokes='1']").click()
        expect(table.locator(".messages")).to_contain_text(
            f"Mitchells Plain Manels on 1. Waiting for {_telman(match, match.home)} to confirm.")
        line = BoemEntry.objects.get(table__match=match)
        assert (line.team_id, line.strokes, line.state) == (match.away_id, 1, "provisional")
        assert line.recorded_at >= Match.objects.get(pk=match.pk).interval_started_at  # an interval line
        expect(hand).to_contain_text("Interval: this table's hand is on the sheet")
        expect(hand).not_to_contain_text(INTERVAL_STATE)
        expect(hand.locator("button.going-on")).to_have_count(0)
        expect(table.locator("#queue .queued")).to_have_count(0)
        _shoot(table, "interval-hand-on-the-sheet")
        assert "another phone" not in table.inner_text("body")
        assert not table_errors and not referee_errors, table_errors + referee_errors
    finally:
        table_context.close()
        referee_context.close()


def test_same_going_on_refused_at_both_doors(browser, live_server):
    match = _match_ending_first_half_in(10)
    link = _table_link(match)
    context, table, errors = _phone(browser, live_server.url)
    api = context.request  # the same browser's request context: the table API with a device's key
    try:
        table.goto(f"/table/t/{link.secret}/")
        expect(table.locator("section.go-on")).to_be_visible()
        until = time.monotonic() + 10
        while not table.evaluate("!!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            assert time.monotonic() < until, "the service worker did not take the page"
            table.wait_for_timeout(200)

        # --- The phone loses the network; meanwhile the 75 minutes pass and the interval is called ------------
        context.set_offline(True)
        _wait_until(_first_half_ends_at(match) + timedelta(seconds=1))
        night_clock.match_interval_call(match=match)
        table.wait_for_timeout(2_000)  # the tap comes after the call, by the phone's reckoning of the server's clock
        table.locator("section.go-on button.going-on[data-side=home][data-strokes='1']").click()  # after the call
        expect(table.locator("#queue .queued")).to_have_count(1)

        # --- The network returns: the page refuses it, saying why (the rule, not another phone) ---------------
        context.set_offline(False)
        card = table.locator("#queue .queued.conflict")
        expect(card).to_contain_text("refused: SAKBOC 2.2: the interval was called at ", timeout=15_000)
        expect(card).to_contain_text("say whether this hand was cut before it was called")
        card_text = card.inner_text()
        assert "another phone" not in table.inner_text("body"), card_text
        page_reason = card.locator("p.warning").inner_text().removeprefix("refused: ")
        _shoot(table, "interval-going-on-refused")
        assert not BoemEntry.objects.filter(table__match=match).exists()

        # --- The table API: the same going-on, the same refusal -----------------------------------------------
        key = api.post("/api/table/sign-in/", data={"link": link.secret}).json()["key"]
        answer = api.post("/api/table/goings-on/", headers={"Authorization": f"Table {key}"},
                          data={"side": "home", "strokes": 1, "version": 0})
        assert answer.status == 400, answer.text()
        assert answer.json()["detail"] == [page_reason]
        assert not BoemEntry.objects.filter(table__match=match).exists()

        # --- One tap says the hand was cut before the call: it goes on the sheet -------------------------------
        card.locator("button:has-text('It was cut before the interval: send it')").click()
        expect(table.locator("#queue .queued")).to_have_count(0, timeout=10_000)
        line = BoemEntry.objects.get(table__match=match)
        assert (line.team_id, line.strokes) == (match.home_id, 1)
        expect(table.locator("#interval-hand")).to_contain_text("Interval: this table's hand is on the sheet",
                                                                timeout=10_000)
        assert "another phone" not in table.inner_text("body")
        assert not errors, errors
    finally:
        context.close()


def test_the_report_shows_the_awards_and_names_every_offence(browser, live_server):
    """The referee's printable report: the score is the tables' points and the SAKBOC awards, each award listed
    with its clause; offences by name, never the engine's codes (``go_on_too_many``, ``signs``)."""
    from referee import services as referee_services

    referee_user = in_group(UserFactory(username="referee", password=PASSWORD), GROUP_REFEREES)
    match = _match_ending_first_half_in(3600, referee=referee_user)
    night_clock.table_stop(match=match, table_number=3, defaulting_team=match.away, note="Walked out",
                        by=referee_user)
    for offence in ("go_on_too_many", "signs"):
        claim = referee_services.straf_claim_log(match=match, table_number=1, claimant_side="home",
                                                 claimant_role="telman", accused_role="telman", offence=offence,
                                                 by=referee_user)
        referee_services.ruling_record(claim=claim, decision="upheld", by=referee_user)
    context, page, errors = _phone(browser, live_server.url)
    try:
        _sign_in(page, "referee")
        page.goto(f"/referee/matches/{match.pk}/report/")
        text = page.inner_text("main")
        assert "awards 20 – 0" in text  # table 3 stopped: its 20 points to the side that stayed (SAKBOC 12.1)
        assert "SAKBOC 12.1" in text and "Athlone Aces" in text
        assert "going on by too many strokes" in text and "talking or signs" in text
        assert "go_on_too_many" not in text and not re.search(r"(?<![\w ])signs\b", text)
        _shoot(page, "referee-report")
        assert not errors, errors
    finally:
        context.close()


def test_the_table_says_strepie_in_afrikaans(browser, live_server):
    """A phone set to Afrikaans: the going-on buttons say *1 strepie* / *2 strepies* (docs/glossary.md)."""
    match = _match_ending_first_half_in(3600)
    link = _table_link(match)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="af-ZA")
    page = context.new_page()
    try:
        page.goto(f"/table/t/{link.secret}/")
        buttons = page.locator("section.go-on button.going-on")
        expect(buttons.first).to_be_visible()
        labels = {" ".join(b.split()) for b in buttons.all_inner_texts()}
        assert {"1 strepie", "2 strepies"} <= labels, labels
        assert "stroke" not in page.inner_text("body").lower()
        _shoot(page, "table-af")
    finally:
        context.close()


def test_a_refused_clock_action_is_shown(browser, live_server):
    referee = UserFactory(username="referee", first_name="Yusuf", last_name="Isaacs", password=PASSWORD)
    match = _night(started_minutes_ago=1, referee=referee)
    table_links.table_links_ensure(match=match)  # issued when the dashboard was first opened, before play
    context, page, errors = _phone(browser, live_server.url)
    try:
        _sign_in(page, "referee")
        page.goto(f"/referee/matches/{match.pk}/")
        expect(page.locator(".clock")).to_contain_text("First half")
        # The browser keeps the page with its tag; the refusal changes nothing of the night, so the tag is the
        # same when the redirect brings the referee back: the message must be on the page all the same.
        page.click("button:has-text('Call the interval')")
        page.wait_for_load_state("load")
        expect(page.locator(".messages .error")).to_contain_text("SAKBOC 1.2")
        expect(page.locator(".messages .error")).to_contain_text("interval")
        expect(page.locator(".clock")).to_contain_text("First half")  # refused: nothing changed
        _shoot(page, "refused-interval")
        # Once shown, the message is gone from the next page.
        page.reload()
        expect(page.locator(".messages")).to_have_count(0)
        assert not errors, errors
    finally:
        context.close()


def test_opened_panels_stay_open_through_polls(browser, live_server):
    referee = UserFactory(username="referee", first_name="Yusuf", last_name="Isaacs", password=PASSWORD)
    now = timezone.now().replace(microsecond=0)
    match = _night(started_minutes_ago=100, referee=referee)
    # The interval called at 76 minutes, the second half started a few seconds ago: the 3 minutes' grace for
    # unseated players (SAKBOC 12.3) gives the dashboard a select in its live part.
    match = night_clock.match_interval_call(match=match, now=now - timedelta(minutes=24))
    match = night_clock.match_resume(match=match, now=now - timedelta(seconds=5))
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)

    def write_a_line(table_number: int = 1) -> None:
        """Another line of the night, written at a table through the service (the live parts change)."""
        boem_sheet.going_on_record(match=match, table_number=table_number, team=match.home, strokes=1, by=referee,
                                   reason="entered for the table")

    # --- The table: "Every line on the sheet" stays open through three polls (3 s each) ------------------------
    context, table, table_errors = _phone(browser, live_server.url)
    try:
        table.goto(f"/table/t/{link.secret}/")
        expect(table.locator("h1")).to_contain_text("Table 1")
        lines = table.locator("details.lines")
        expect(lines.locator("summary")).to_contain_text("Every line on the sheet (0)")
        lines.locator("summary").click()
        expect(lines).to_have_attribute("open", "")
        _polls(table, 10.5, meanwhile=write_a_line)
        expect(lines.locator("summary")).to_contain_text("Every line on the sheet (1)")  # the poll brought it
        assert lines.evaluate("el => el.open"), "the line list closed by itself"
        expect(lines.locator("ol.sheet-lines li")).to_have_count(1)
        _shoot(table, "table-sheet-lines-open")
        assert not table_errors, table_errors
    finally:
        context.close()

    # --- The referee: "Table links" and the grace's select through three polls (5 s each) ---------------------
    context, page, errors = _phone(browser, live_server.url)
    try:
        _sign_in(page, "referee")
        page.goto(f"/referee/matches/{match.pk}/")
        links = page.locator("details#table-links")
        expect(links).not_to_have_attribute("open", "")  # closed in play
        links.locator("summary").click()
        expect(links.locator(".link-card")).to_have_count(4)
        not_seated = page.locator("#table-2 select[name=side]")
        not_seated.select_option("away")
        not_seated.focus()
        _polls(page, 16.5, meanwhile=lambda: write_a_line(3))
        expect(page.locator("#table-3 .boem")).to_contain_text("1–0")  # the poll brought table 3's line
        assert links.evaluate("el => el.open"), "the table links closed by itself"
        expect(links.locator(".link-card")).to_have_count(4)
        assert not_seated.input_value() == "away", "the select was reset by a poll"
        assert page.locator("#live").locator("details#table-links, header.site-header").count() == 0
        _shoot(page, "referee-dashboard-links-open")
        assert not errors, errors
    finally:
        context.close()
