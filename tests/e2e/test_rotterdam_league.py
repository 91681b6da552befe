"""A Rotterdam league match in Chromium (issue 24): a table's phone enters deals, a wrong total is refused with the
section cited, a "nat" deal scores to the opponents; the public match page shows the score table per deal and,
once the result is approved, the standings follow the tables' totals. The set-up (a competition under the
Rotterdam rules, teams, sheets, the match started) and the result's confirmation are the services'; everything
at the table is done through the page. Screenshots (375 and 1280 px) go to
artifacts/screenshots/test_rotterdam_league/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.services import union_official_add
from matches import services, table_links
from matches.models import DealLine, Match
from matches.selectors import clock_deadlines
from tests.e2e.conftest import SCREENSHOTS_DIR
from tests.factories import UserFactory, match_with_sheets

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def _rotterdam_match() -> Match:
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Rotterdam Ruiten", away__name="Delfshaven Klaveren",
                              competition__name="Klaverjasclub Rotterdam", competition__ruleset="rotterdam",
                              competition__deals_per_table=16)
    services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return services.match_start(match=match, now=start)


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


def test_a_rotterdam_table_enters_deals_and_the_match_and_standings_follow(page, browser, live_server):
    match = _rotterdam_match()
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

    # Time, the referee's confirmation and the official's approval (the services), then the standings.
    services.match_interval_call(match=match, now=match.first_half_started_at + timedelta(minutes=75))
    services.match_resume(match=match, now=match.first_half_started_at + timedelta(minutes=85))
    match.refresh_from_db()
    ended = services.match_end(match=match, now=clock_deadlines(match)["second_half_ends_at"] + timedelta(seconds=1))
    assert ended.winner_id == match.home_id
    official = UserFactory()
    union_official_add(union=match.competition.union, user=official)
    services.result_confirm(match=ended, user=match.referee)
    services.result_approve(match=ended, user=official)
    page.goto(f"/competitions/{match.competition_id}/standings/")
    first = page.locator("table tbody tr").first
    expect(first).to_contain_text("Rotterdam Ruiten")
    expect(first).to_contain_text("302")
    page.screenshot(path=str(folder / "05-standings-375.png"), full_page=True)
