"""The match night, second pass (issue 34), in Chromium at 375 px, pages only: what the table and the referee hit
on a real night, each as a step that failed before.

- A refused clock action is shown: the referee calls the interval too early; the refusal, left for the next page,
  is on the dashboard (it was hidden by a ``304 Not Modified``: the page's tag had not changed).
- A live refresh keeps what the user opened or chose: "Every line on the sheet" at the table and the referee's
  "Table links" stay open through three polls while the night changes (a line is written at a table meanwhile,
  so the live part really changes), and a select in the dashboard's live part keeps the value chosen.

The set-up (teams, players, sheets, the clock) is the factories' and the match services'. Screenshots (375 and
1280 px) go to artifacts/screenshots/test_night_second_pass/.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches import boem_sheet, services, table_links
from tests.e2e.conftest import PHONE, SCREENSHOTS_DIR, page_fits
from tests.factories import UserFactory, match_with_sheets

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"
FOLDER = SCREENSHOTS_DIR / "test_night_second_pass"


def _phone(browser, base_url: str, viewport=PHONE):
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="en-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state("load")
    assert "/accounts/login/" not in page.url, page.inner_text("main")[:300]


def _shoot(page, name: str) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(FOLDER / f"{name}.png"), full_page=True)
    page_fits(page, name)


def _night(*, started_minutes_ago: int, referee=None):
    """A match with both sheets whose first half started ``started_minutes_ago`` minutes ago (toss before)."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=started_minutes_ago)
    match = match_with_sheets(scheduled_start=start, referee=referee, home__name="Athlone Aces",
                              away__name="Mitchells Plain Manels")
    services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return services.match_start(match=match, now=start)


def _polls(page, seconds: float, *, meanwhile=None) -> None:
    """Wait ``seconds`` of polls; ``meanwhile()`` (a write of the night) runs a third of the way through."""
    page.wait_for_timeout(seconds * 1000 / 3)
    if meanwhile is not None:
        meanwhile()
    page.wait_for_timeout(seconds * 1000 * 2 / 3)


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
        _shoot(page, "refused-interval-375")
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
    match = services.match_interval_call(match=match, now=now - timedelta(minutes=24))
    match = services.match_resume(match=match, now=now - timedelta(seconds=5))
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
        _shoot(table, "table-sheet-lines-open-375")
        table.set_viewport_size(DESKTOP)
        _shoot(table, "table-sheet-lines-open-1280")
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
        _shoot(page, "referee-dashboard-links-open-375")
        page.set_viewport_size(DESKTOP)
        _shoot(page, "referee-dashboard-links-open-1280")
        assert not errors, errors
    finally:
        context.close()
