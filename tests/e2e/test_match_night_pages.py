"""A whole match night through the pages alone, in Chromium: no service is called in this test.

The referee starts the match on the console; four phones at 375 px open the four table links (three by the QR
link, one by typing the table code); every table completes a boem, one of them 5-0 for 4 points (SAKBOC 6.1),
each going-on confirmed by the opposing telman on the table's phone; one going-on is disputed and the referee
settles it with a correction; one "af" is said at a table and ruled in the console, and the straf goes on that
table's sheet; the public match page follows it all without reloading. Time moves on by the server's clock
(time-machine shifts the process's clock; the product's own clock mechanism then calls the interval, runs the
12.3 grace that stops a table reported unseated, and calls full time); both captains confirm the result, the
official approves it, and the public standings show it.

The set-up (union, teams, players, the team sheets, the accounts) is written with the factories: it is the
world the night starts from, not the capability under test. Screenshots of every step go to
artifacts/screenshots/test_a_whole_match_night_through_the_pages/ (375 px; the dashboard and the public
page at 1280 px too).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import GROUP_REFEREES
from matches.models import Award, Boem, BoemEntry, Match, MatchTable, StandingsRow
from referee.models import Ruling
from tests.e2e.conftest import PHONE, SCREENSHOTS_DIR, page_fits
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory, sheet_for, squad
from tests.people import captain_accounts, in_group, union_official

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"
HOME_NAMES = [("Faizel", "Adams"), ("Mymoena", "Abrahams"), ("Ridwaan", "Jacobs"), ("Shireen", "Davids"),
              ("Clive", "Petersen"), ("Natasha", "Hendricks"), ("Ebrahim", "Williams"), ("Lorraine", "Arendse")]
AWAY_NAMES = [("Brandon", "Fortuin"), ("Gaironesa", "Booysen"), ("Denver", "Solomons"), ("Chantal", "Samuels"),
              ("Ashwin", "Moses"), ("Tasneem", "Jansen"), ("Marlon", "Cupido"), ("Ursula", "February")]


def _world():
    """Two teams of 8 named players with their sheets in (table n: players 2n-1 telman, 2n byspeler), the match
    starting a minute ago, its referee, both captains and the union's official, all with accounts."""
    competition = CompetitionFactory(name="Cape Flats League", season="2026")
    home = TeamFactory(competition=competition, name="Athlone Aces")
    away = TeamFactory(competition=competition, name="Mitchells Plain Manels", club__union=competition.union)
    for team, names in ((home, HOME_NAMES), (away, AWAY_NAMES)):
        for player, (first, last) in zip(squad(team), names, strict=True):
            player.first_name, player.last_name = first, last
            player.save()
    referee = in_group(UserFactory(username="referee", first_name="Yusuf", last_name="Isaacs", password=PASSWORD),
                       GROUP_REFEREES)
    union_official(competition.union, username="official", first_name="Fatima", last_name="Abrahams", password=PASSWORD)
    captain_accounts({"captain": home, "captain2": away}, password=PASSWORD)
    start = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=1)
    match = MatchFactory(competition=competition, home=home, away=away, scheduled_start=start, referee=referee,
                         venue="Athlone Civic Centre")
    sheet_for(match, home)
    sheet_for(match, away)
    return match


class Walk:
    """The browser contexts of the night and the screenshots they take."""

    def __init__(self, browser, base_url: str, folder) -> None:
        self.browser, self.base_url, self.folder = browser, base_url, folder
        self.count = 0
        self.contexts = []

    def phone(self, viewport=PHONE):
        context = self.browser.new_context(viewport=viewport, base_url=self.base_url, locale="en-ZA")
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: pytest.fail(f"JavaScript error on {page.url}: {error}"))
        return page

    def shot(self, page, step: str) -> None:
        """Save a full-page screenshot and check the page is no wider than its viewport, names not seats."""
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{step}.png"), full_page=True)
        page_fits(page, step)
        text = page.inner_text("body").lower()
        assert "team 0" not in text and "seat 0" not in text and "home side" not in text, step

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state("load")
    assert "/accounts/login/" not in page.url, page.inner_text("main")[:300]


def go_on(table, side: str, strokes: int) -> None:
    """The telman of ``side`` goes on at this table's phone (2 strokes: "yes, they count under 50")."""
    table.click(f"button.going-on[data-side={side}][data-strokes='{strokes}']")
    if strokes == 2:
        table.click("text=Yes: 2 strokes")
    expect(table.locator(".messages")).to_contain_text("Waiting for")


def confirm(table, telman: str) -> None:
    """The opposing telman confirms the waiting going-on with one tap (his name on the button)."""
    table.click(f"button.confirm:has-text('Confirm: I am {telman}')")
    expect(table.locator(".messages")).to_contain_text("Confirmed")


def test_a_whole_match_night_through_the_pages(browser, live_server):
    match = _world()
    folder = SCREENSHOTS_DIR / "test_a_whole_match_night_through_the_pages"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    walk = Walk(browser, live_server.url, folder)
    traveller = time_machine.travel(timezone.now(), tick=True)
    clock = traveller.start()  # the process's clock (the live server's too), moved on with clock.shift()
    try:
        _night(walk, match, clock)
    finally:
        traveller.stop()
        walk.close()


def _night(walk: Walk, match: Match, clock) -> None:
    home, away = "Athlone Aces", "Mitchells Plain Manels"

    # --- The referee: toss and start (SAKBOC 1.3, 1.2); the table links are on the dashboard -------------------
    referee = walk.phone()
    sign_in(referee, "referee")
    referee.goto("/referee/")
    referee.click(f"text={home} v {away}")
    expect(referee.locator("#table-links .link-card")).to_have_count(4)
    walk.shot(referee, "referee-dashboard-with-the-table-links")
    desk = walk.phone(DESKTOP)
    sign_in(desk, "referee")
    desk.goto(referee.url)
    walk.shot(desk, "referee-dashboard-1280")
    referee.click("text=Print the table cards")
    expect(referee.locator(".table-card-print")).to_have_count(4)
    assert "Faizel Adams (telman)" in referee.inner_text(".table-cards")
    walk.shot(referee, "table-cards")
    referee.go_back()
    referee.select_option("select[name=winner_side]", "home")
    referee.click("text=Record the toss")
    referee.click("button:has-text('Start the match')")
    expect(referee.locator(".clock-phase")).to_have_text("First half")
    urls = [referee.locator(f"#link-{n} .link-url a").get_attribute("href") for n in (1, 2, 3)]
    code_4 = referee.locator("#link-4 .code").text_content()
    walk.shot(referee, "first-half")

    # --- The public follows the night on the match page ---------------------------------------------------------
    public = walk.phone()
    public.goto(f"/matches/{match.pk}/")
    expect(public.locator(".badge.live")).to_be_visible()

    # --- Four phones open the four tables ---------------------------------------------------------------------
    tables = {}
    for number, url in enumerate(urls, start=1):
        tables[number] = walk.phone()
        tables[number].goto(url)
    tables[4] = walk.phone()
    tables[4].goto("/table/")
    walk.shot(tables[4], "table-4-types-its-code")
    tables[4].fill("input[name=code]", code_4.lower().replace(" ", "-"))
    tables[4].click("text=Open the table")
    for number, table in tables.items():
        expect(table.locator("h1")).to_contain_text(f"Table {number}")
    assert "Faizel Adams" in tables[1].inner_text(".partnerships")
    assert "Brandon Fortuin" in tables[1].inner_text(".partnerships")
    walk.shot(tables[1], "table-1-opened")

    # Table 1: Athlone go on 2, 2, 1, each confirmed by Brandon Fortuin: 5-0, 4 points (SAKBOC 6.1).
    go_on(tables[1], "home", 2)
    expect(tables[1].locator(".pending")).to_contain_text("waiting to be confirmed")
    assert tables[1].locator("line.stroke.provisional").count() == 1  # dashed until confirmed
    walk.shot(tables[1], "table-1-going-on-waits-for-the-opposing-telman")
    confirm(tables[1], "Brandon Fortuin")
    go_on(tables[1], "home", 2)
    confirm(tables[1], "Brandon Fortuin")
    go_on(tables[1], "home", 1)
    confirm(tables[1], "Brandon Fortuin")
    expect(tables[1].locator(".home-points")).to_have_text("4")
    walk.shot(tables[1], "table-1-five-nil-four-points")
    table_desk = walk.phone(DESKTOP)  # the same table on a tablet or a laptop
    table_desk.goto(urls[0])
    walk.shot(table_desk, "table-1-at-1280")
    # ... and the public page shows it within 5 seconds, without reloading.
    expect(public.locator("#table-1 .home-points")).to_have_text("4", timeout=5_000)
    walk.shot(public, "public-page-follows-table-1")

    # Table 3: Manels on 2, disputed by Clive Petersen; the referee corrects it to 1 with a reason.
    go_on(tables[3], "away", 2)
    tables[3].click("text=Dispute…")
    tables[3].fill("textarea[name=reason]", "We counted 52: only 1 stroke.")
    walk.shot(tables[3], "table-3-disputes")
    tables[3].click("button:has-text('Dispute it')")
    expect(tables[3].locator(".pending.disputed")).to_contain_text("The referee settles it")
    referee.reload()
    expect(referee.locator(".to-settle")).to_contain_text("We counted 52")
    walk.shot(referee, "referee-sees-the-dispute")
    referee.click(".to-settle >> text=Correct…")
    referee.select_option("select[name=strokes]", "1")
    referee.fill("textarea[name=reason]", "Heard both telmen: Athlone count 52, so 1 stroke.")
    walk.shot(referee, "referee-corrects")
    referee.click("text=Save the correction")
    expect(referee.locator(".messages")).to_contain_text("corrected")
    assert "Heard both telmen" in referee.inner_text(".ref-list")  # the history: who, when, why, the old value
    assert "was: Mitchells Plain Manels on 2" in referee.inner_text("main")
    walk.shot(referee, "table-3-sheet-with-its-history")
    tables[3].reload()
    go_on(tables[3], "away", 2)
    confirm(tables[3], "Clive Petersen")
    go_on(tables[3], "away", 2)
    confirm(tables[3], "Clive Petersen")
    expect(tables[3].locator(".away-points")).to_have_text("4")

    # Table 2 and table 4: boems won 5-2 and 3-5, every going-on confirmed.
    for side, strokes, by in (("home", 2, "Denver Solomons"), ("away", 1, "Ridwaan Jacobs"),
                              ("home", 2, "Denver Solomons"), ("away", 1, "Ridwaan Jacobs"),
                              ("home", 1, "Denver Solomons")):
        go_on(tables[2], side, strokes)
        confirm(tables[2], by)
    expect(tables[2].locator(".home-points")).to_have_text("2")
    for side, strokes, by in (("home", 1, "Marlon Cupido"), ("away", 2, "Ebrahim Williams"),
                              ("home", 2, "Marlon Cupido"), ("away", 1, "Ebrahim Williams"),
                              ("away", 2, "Ebrahim Williams")):
        go_on(tables[4], side, strokes)
        confirm(tables[4], by)
    expect(tables[4].locator(".away-points")).to_have_text("2")

    # "Af" at table 2: Shireen Davids (Athlone's byspeler) against Denver Solomons (the Manels' telman), no
    # offence named (SAKBOC 6.7); the table takes no going-on until the referee rules.
    tables[2].click("text=“Af”: call the referee")
    tables[2].check("label:has-text('Shireen Davids') input[name=claimant]")
    tables[2].check("label:has-text('Denver Solomons') input[name=accused]")
    walk.shot(tables[2], "table-2-says-af")
    tables[2].click("text=Call the referee")
    expect(tables[2].locator(".warning[role=alert]")).to_contain_text("the referee is coming")
    assert tables[2].locator("button.going-on").count() == 0
    walk.shot(tables[2], "table-2-waits-for-the-ruling")
    referee.goto(f"/referee/matches/{match.pk}/")
    expect(referee.locator(".open-claims")).to_contain_text("no offence named")
    referee.click(".open-claims a")
    assert "Shireen Davids" in referee.inner_text(".claim-summary")
    referee.select_option("select[name=offence]", "signs")
    referee.click("button:has-text('Name the offence')")
    expect(referee.locator(".messages")).to_contain_text("Offence named: signs")
    walk.shot(referee, "claim-with-the-offence-named")
    referee.check("input[name=decision][value=upheld]")
    referee.fill("textarea[name=note]", "Seen from the next table: a sign to the partner.")
    referee.click("button:has-text('Record the ruling')")
    expect(referee.locator(".messages")).to_contain_text("Ruling recorded")
    expect(tables[2].locator("button.going-on").first).to_be_visible(timeout=5_000)  # the table goes on
    expect(tables[2].locator(".home-points")).to_have_text("4", timeout=5_000)  # 2 for the boem, 2 for the straf
    walk.shot(tables[2], "table-2-after-the-ruling")

    # --- The interval: the server's clock moves on 75 minutes; the clock calls the interval itself (1.2) -----
    clock.shift(timedelta(minutes=75))
    referee.reload()
    expect(referee.locator(".clock-phase")).to_have_text("Interval")
    walk.shot(referee, "interval")
    tables[1].reload()
    expect(tables[1].locator(".clock .warning")).to_contain_text("SAKBOC 2.2")
    walk.shot(tables[1], "table-1-at-the-interval")
    clock.shift(timedelta(minutes=10))
    referee.reload()
    referee.click("button:has-text('Start the second half')")
    expect(referee.locator(".clock-phase")).to_have_text("Second half")

    # 12.3: Manels' players at table 4 are not seated; the grace runs out: table 4 is stopped, 10 to Athlone.
    referee.select_option("#table-4 select[name=side]", "away")
    referee.click("#table-4 >> text=Report (12.3)")
    expect(referee.locator("#table-4 .warning")).to_contain_text(f"{away}: not seated")
    walk.shot(referee, "table-4-reported-unseated")
    clock.shift(timedelta(minutes=4))
    referee.reload()
    expect(referee.locator("#table-4 .tag").first).to_contain_text("Stopped")
    walk.shot(referee, "table-4-stopped-by-the-grace-timer")
    tables[4].reload()
    assert tables[4].locator("button.going-on").count() == 0

    # --- Full time: the clock ends the match (2.2); the console offers no table actions ----------------------
    clock.shift(timedelta(minutes=75))
    referee.reload()
    expect(referee.locator(".clock-phase")).to_have_text("Finished")
    assert referee.locator("text=Straf claim").count() == 0 and referee.locator("text=Report (12.3)").count() == 0
    walk.shot(referee, "full-time")
    desk.reload()
    walk.shot(desk, "full-time-1280")
    # The table's phone, still polling its sheet, is sent back to the code page by its next poll: signed out.
    tables[1].wait_for_url(re.compile(r"/table/$"), timeout=10_000)
    expect(tables[1].locator("h1")).to_have_text("Open your table")

    # --- Both captains confirm; the official approves; the public standings show it ---------------------------
    for username in ("captain", "captain2"):
        captain = walk.phone()
        sign_in(captain, username)
        captain.goto(f"/captain/matches/{match.pk}/confirm/")
        captain.click("button:has-text('Confirm result')")
        expect(captain.locator(".messages")).to_contain_text("Result confirmed")
        walk.shot(captain, f"{username}-confirms")
    official = walk.phone()
    sign_in(official, "official")
    official.goto(f"/official/matches/{match.pk}/")
    walk.shot(official, "official-match-page")
    official_desk = walk.phone(DESKTOP)
    sign_in(official_desk, "official")
    official_desk.goto(f"/official/matches/{match.pk}/")
    walk.shot(official_desk, "official-match-page-1280")
    official.click("button:has-text('Approve result')")
    expect(official.locator(".messages")).to_contain_text("Result approved")
    public.goto(f"/competitions/{match.competition_id}/standings/")
    standings = public.inner_text("main")
    assert home in standings and away in standings
    walk.shot(public, "public-standings")
    public.goto(f"/matches/{match.pk}/")
    walk.shot(public, "public-match-report")
    public_desk = walk.phone(DESKTOP)
    public_desk.goto(f"/matches/{match.pk}/")
    walk.shot(public_desk, "public-match-report-1280")

    # --- What the night wrote, read back after the walk -------------------------------------------------------
    match.refresh_from_db()
    assert (match.phase, match.result_status) == (Match.Phase.FINISHED, Match.ResultStatus.APPROVED)
    assert Boem.objects.filter(table__match=match, status=Boem.Status.COMPLETED, points=4).count() == 2
    assert not BoemEntry.objects.filter(table__match=match, confirmed_at__isnull=True).exclude(kind="time").exists()
    assert BoemEntry.objects.filter(table__match=match, device__isnull=False).count() >= 15  # entered at the tables
    assert Ruling.objects.get().boem_entry.table.number == 2
    table_4 = MatchTable.objects.get(match=match, number=4)
    assert (table_4.status, table_4.stop_reason) == (MatchTable.Status.STOPPED, MatchTable.StopReason.UNSEATED)
    assert Award.objects.get(match=match).points == 10
    # home: 4 (table 1) + 2 + 2 (table 2: boem and straf) + 10 (12.3); table 4's 0 forfeited (12.1);
    # away: 4 (table 3), table 4's 2 forfeited by the defaulters
    assert (match.home_score, match.away_score, match.winner_id) == (18, 4, match.home_id)
    top = StandingsRow.objects.filter(competition=match.competition).order_by("position").first()
    assert top is not None and top.team_id == match.home_id and top.played == 1
    assert re.search(r"\b18\b", standings)
