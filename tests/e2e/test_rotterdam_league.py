"""A Rotterdam league match in Chromium (issue 24): a table's phone enters deals, a wrong total is refused with the
section cited, a "nat" deal scores to the opponents; the public match page shows the score table per deal and,
once the result is approved, the standings follow the tables' totals. The set-up (a competition under the
Rotterdam rules, teams and their sheets) is the factories'; the clock is moved on in the database; everything
else (the referee's toss, start and second half, the table, the captains' confirmations, the official's
approval) is done through the pages. Screenshots (375 and 1280 px) go to
artifacts/screenshots/test_rotterdam_league/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches.models import DealLine, Match
from matches.night import table_links
from tests.e2e.conftest import SCREENSHOTS_DIR
from tests.factories import UserFactory, match_with_sheets
from tests.people import captain_accounts, union_official

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"


def _rotterdam_match() -> Match:
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Rotterdam Ruiten", away__name="Delfshaven Klaveren",
                              competition__name="Klaverjasclub Rotterdam", competition__ruleset="rotterdam",
                              competition__deals_per_table=16,
                              referee=UserFactory(username="referee-rotterdam", password=PASSWORD))
    return match


def _enter(page, makers: str, home: int, away: int, *, home_roem: int = 0, away_roem: int = 0,
           nat: str = "") -> None:
    page.check(f"input[name=makers][value={makers}]")
    page.fill("input[name=home_card_points]", str(home))
    page.fill("input[name=away_card_points]", str(away))
    page.fill("input[name=home_roem]", str(home_roem))
    page.fill("input[name=away_roem]", str(away_roem))
    page.select_option("select[name=nat]", nat)
    page.click("text=Write the deal")
    page.wait_for_load_state("load")


def test_a_rotterdam_table_enters_deals_and_the_match_and_standings_follow(page, browser, live_server, sign_in):
    match = _rotterdam_match()
    # The referee records the toss and starts the match on the console, in a browser of their own.
    context = browser.new_context(viewport={"width": 375, "height": 812}, base_url=live_server.url, locale="en-ZA")
    context.set_default_timeout(10_000)
    referee = context.new_page()
    sign_in(referee, "referee-rotterdam", PASSWORD)
    referee.goto(f"/referee/matches/{match.pk}/")
    referee.select_option("select[name=winner_side]", "home")
    referee.click("text=Record the toss")
    referee.click("button:has-text('Start the match')")
    referee.wait_for_selector("text=Call the interval")
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    folder = SCREENSHOTS_DIR / "test_rotterdam_league"
    folder.mkdir(parents=True, exist_ok=True)

    page.goto("/table/")
    page.fill("input[name=code]", table_links.code_display(link.code))
    page.click("button[type=submit]")
    expect(page.locator("#deal-entry")).to_contain_text("The next deal")

    # Deal 1: the home side plays and makes it with 20 roem (Rotterdam §Scoring: each side scores its own).
    _enter(page, "home", 100, 62, home_roem=20, nat="made")
    expect(page.locator("#deal-1-1")).to_contain_text("120")
    # A wrong total is refused on the form, the section cited, and nothing is written.
    _enter(page, "away", 90, 62)
    expect(page.locator(".deal-form")).to_contain_text("The card points add up to 152, not 162. (Rotterdam §Scoring)")
    assert DealLine.objects.filter(table__match=match).count() == 1
    # Deal 2: the away side plays and goes nat: the home side scores everything, both sides' roem too.
    _enter(page, "away", 100, 62, away_roem=20, nat="nat")
    row = page.locator("#deal-1-2")
    expect(row).to_contain_text("182")
    expect(row).to_contain_text("nat")
    expect(page.locator(".points .home-points")).to_have_text("302")
    expect(page.locator(".points .away-points")).to_have_text("62")
    page.screenshot(path=str(folder / "01-table-375.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(folder / "02-table-1280.png"), full_page=True)

    # The public match page: the score table per deal, no boem trees.
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("h1 .score")).to_have_text("302–62")
    expect(page.locator("#table-1 .deal-table")).to_contain_text("Rotterdam Ruiten")
    assert page.locator(".boem-trees").count() == 0
    page.screenshot(path=str(folder / "03-match-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})
    page.screenshot(path=str(folder / "04-match-375.png"), full_page=True)

    # Full time, through the pages: the first half moved on in the database rather than waited for, the
    # referee's console calls the interval and starts the second half; at full time the clock ends the match
    # (SAKBOC 1.2, 2.2); both captains confirm and the union's official approves; then the standings.
    page.set_viewport_size({"width": 375, "height": 812})
    Match.objects.filter(pk=match.pk).update(first_half_started_at=timezone.now() - timedelta(minutes=76))
    referee.reload()
    expect(referee.locator(".clock-phase")).to_have_text("Interval")
    Match.objects.filter(pk=match.pk).update(interval_started_at=timezone.now() - timedelta(minutes=11))
    referee.reload()
    referee.click("button:has-text('Start the second half')")
    expect(referee.locator(".clock-phase")).to_have_text("Second half")
    Match.objects.filter(pk=match.pk).update(second_half_started_at=timezone.now() - timedelta(minutes=76))
    referee.reload()
    expect(referee.locator(".clock-phase")).to_have_text("Finished")
    context.close()
    captain_accounts({"captain-ruiten": match.home, "captain-klaveren": match.away}, password=PASSWORD)
    for username in ("captain-ruiten", "captain-klaveren"):
        page.context.clear_cookies()  # the next person on this phone
        sign_in(page, username, PASSWORD)
        page.goto(f"/captain/matches/{match.pk}/confirm/")
        page.click("button:has-text('Confirm result')")
        expect(page.locator(".messages")).to_contain_text("Result confirmed")
    union_official(match.competition.union, username="official-rotterdam", password=PASSWORD)
    page.context.clear_cookies()
    sign_in(page, "official-rotterdam", PASSWORD)
    page.goto(f"/official/matches/{match.pk}/")
    page.click("button:has-text('Approve result')")
    expect(page.locator(".messages")).to_contain_text("Result approved")
    assert Match.objects.get(pk=match.pk).winner_id == match.home_id
    page.goto(f"/competitions/{match.competition_id}/standings/")
    first = page.locator("table tbody tr").first
    expect(first).to_contain_text("Rotterdam Ruiten")
    expect(first).to_contain_text("302")
    page.screenshot(path=str(folder / "05-standings-375.png"), full_page=True)
