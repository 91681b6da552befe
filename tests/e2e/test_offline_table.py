"""Load-shedding at a table, in Chromium: the table's phone loses the network, keeps what is entered, survives a
reload with no network, and sends each entry exactly once when the network returns; a conflict with what
another phone entered meanwhile is shown at the table with both versions.

Offline is Playwright's ``context.set_offline(True)``: in this Chromium it takes the network from the page and
from its service worker alike (the reload offline below is answered by the service worker's copy, which it
could not be if the network still answered). The set-up (teams, players, sheets, the match started) is the
factories' and the match services'; everything at the table is done through the page. Screenshots (375 and
1280 px) go to artifacts/screenshots/test_offline_table/.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches.models import BoemEntry, Seat
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night import table_links
from tables.models import TableWrite
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, SCREENSHOTS_DIR, page_fits
from tests.factories import match_with_sheets

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def _match():
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


def _telman(match, team) -> str:
    seat = Seat.objects.select_related("player").get(sheet__match=match, sheet__team=team, table_number=1,
                                                     role=Seat.Role.TELMAN)
    return f"{seat.player.first_name} {seat.player.last_name}"


def _page_errors(page) -> list[str]:
    """The page's uncaught script errors, collected as they happen (each test asserts there were none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _phone(browser, base_url: str, viewport=PHONE):
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="en-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    return context, page, _page_errors(page)


def until(page, script: str, seconds: float = 10) -> None:
    """Wait until ``script`` (a function, awaited) is true in the page. (Playwright's wait_for_function evaluates
    its predicate with eval(), which the site's Content Security Policy forbids; evaluate() is not affected.)"""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {seconds} s: {script}")
        page.wait_for_timeout(200)


def _kept_offline(page) -> None:
    """Wait until the service worker controls the page and keeps a copy of the sheet (and the "af" form)."""
    until(page, "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    until(page, """async () => {
        const cache = await caches.open('klawerjas-pages');
        const urls = (await cache.keys()).map(r => new URL(r.url).pathname + new URL(r.url).search);
        return urls.includes('/table/sheet/') && urls.includes('/table/sheet/af/');
    }""")


def _table_open(page, secret: str) -> None:
    """Open table 1's sheet through its QR link (``secret``) and wait until the service worker keeps it."""
    page.goto(f"/table/t/{secret}/")
    expect(page.locator("h1")).to_contain_text("Table 1")
    _kept_offline(page)


def _shoot(page, folder, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    page_fits(page, name)


def test_offline_table(browser, live_server):
    folder = SCREENSHOTS_DIR / "test_offline_table"
    folder.mkdir(parents=True, exist_ok=True)
    match = _match()
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    away_telman = _telman(match, match.away)
    context, table, errors = _phone(browser, live_server.url)
    other_context, other, _ = _phone(browser, live_server.url)
    try:
        _table_open(table, link.secret)

        # --- No network: three goings-on and a confirmation wait on the phone --------------------------------
        context.set_offline(True)
        table.click("button.going-on[data-side=home][data-strokes='1']")
        table.click("button.going-on[data-side=away][data-strokes='1']")
        table.click("button.going-on[data-side=home][data-strokes='2']")
        table.click("#two-strokes-dialog button:has-text('Yes: 2 strokes')")
        expect(table.locator("#queue .queued")).to_have_count(3)
        table.locator("#queue .queued").first.locator(f"button:has-text('Confirm: I am {away_telman}')").click()
        expect(table.locator("#queue .queued")).to_have_count(4)
        expect(table.locator("#queue")).to_contain_text("Waiting to send (4)")
        assert BoemEntry.objects.filter(table__match=match).count() == 0  # nothing reached the server
        expect(table.locator("#live line.waiting")).to_have_count(3)  # dotted on the boem tree
        expect(table.locator("#offline-banner")).to_contain_text("No network")

        # --- Reload with no network: the service worker's copy, and the queue still there ----------------------
        table.reload()
        assert table.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
        expect(table.locator("#queue .queued")).to_have_count(4)
        expect(table.locator("#queue .queued").first).to_contain_text("waiting to send")
        expect(table.locator("#queue .queued").nth(3)).to_contain_text("Confirmation of Athlone Aces on 1")
        expect(table.locator("#live line.waiting")).to_have_count(3)
        expect(table.locator("[data-clock] .clock-time")).not_to_have_text("")
        _shoot(table, folder, "01-waiting-to-send-375")
        table.set_viewport_size(DESKTOP)
        _shoot(table, folder, "02-waiting-to-send-1280")
        table.set_viewport_size(PHONE)
        assert BoemEntry.objects.filter(table__match=match).count() == 0

        # --- The network returns: each entry reaches the server once, in order ------------------------------
        context.set_offline(False)
        expect(table.locator("#queue .queued")).to_have_count(0, timeout=15_000)
        lines = list(BoemEntry.objects.filter(table__match=match).order_by("sequence"))
        assert [(line.team_id == match.home_id, line.strokes) for line in lines] == [(True, 1), (False, 1), (True, 2)]
        assert lines[0].confirmed_at is not None and lines[1].confirmed_at is None
        assert TableWrite.objects.filter(match=match).count() == 4
        expect(table.locator("#live .pending")).to_have_count(2)
        public = other_context.new_page()
        public.goto(f"/matches/{match.pk}/")
        expect(public.locator("#table-1 line.stroke")).to_have_count(3)
        public.close()

        # --- A copy sent again (its answer was lost): the stored answer, no second line ---------------------
        first = TableWrite.objects.filter(match=match, kind=TableWrite.Kind.GOING_ON).order_by("received_at").first()
        table.evaluate("""async (args) => {
            const key = 'table-queue:' + args.match + ':1';
            await idbKeyval.set(key, [{id: args.key, kind: 'going_on', url: '/table/sheet/going-on/', state: 'waiting',
              fields: {side: 'home', strokes: '1', version: '0'}, label: 'Athlone Aces on 1',
              enteredAt: new Date().toISOString(), entry: null, entryRef: null}]);
            await klawerjasQueue.sync();
        }""", {"match": match.pk, "key": first.key})
        expect(table.locator(".messages")).to_contain_text("Already received")
        assert BoemEntry.objects.filter(table__match=match).count() == 3
        assert TableWrite.objects.filter(match=match).count() == 4

        # --- Another phone changes the sheet while this one is offline: a conflict to settle --------------------
        other.goto(f"/table/t/{link.secret}/")
        context.set_offline(True)
        table.click("button.going-on[data-side=away][data-strokes='1']")
        expect(table.locator("#queue .queued")).to_have_count(1)
        other.click("button.going-on[data-side=home][data-strokes='1']")
        expect(other.locator(".messages")).to_contain_text("Waiting for")
        assert BoemEntry.objects.filter(table__match=match).count() == 4
        context.set_offline(False)
        conflict = table.locator("#queue .queued.conflict")
        expect(conflict).to_contain_text("the sheet changed on another phone", timeout=15_000)
        expect(conflict).to_contain_text("This phone's entry")
        expect(conflict).to_contain_text("Mitchells Plain Manels on 1")
        expect(conflict.locator(".conflict-versions")).to_contain_text("Athlone Aces on 1")  # the other phone's
        assert BoemEntry.objects.filter(table__match=match).count() == 4  # never written over, never dropped
        _shoot(table, folder, "03-conflict-375")
        table.set_viewport_size(DESKTOP)
        _shoot(table, folder, "04-conflict-1280")
        table.set_viewport_size(PHONE)
        table.reload()  # the conflict is kept on the phone too
        expect(table.locator("#queue .queued.conflict")).to_have_count(1)
        table.click("button:has-text('Send mine on the sheet as it is now')")
        expect(table.locator("#queue .queued")).to_have_count(0, timeout=10_000)
        last = BoemEntry.objects.filter(table__match=match).order_by("-sequence").first()
        assert (last.team_id, last.strokes) == (match.away_id, 1)
        assert BoemEntry.objects.filter(table__match=match).count() == 5
        assert not errors, errors
    finally:
        context.close()
        other_context.close()


@pytest.fixture
def playwright_driver(monkeypatch: pytest.MonkeyPatch):
    """Playwright itself (not one browser): a test that closes the browser and launches it again, like a phone
    that lost its power. Skipped like the ``browser`` fixture when Chromium is missing."""
    from tests.e2e.conftest import SERVICES_REQUIRED, _browser_missing

    missing = _browser_missing()
    if missing:
        if SERVICES_REQUIRED:
            pytest.fail(f"browser tests need Chromium: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # see the browser fixture in conftest.py
    with sync_playwright() as driver:
        yield driver


def test_offline_queue_survives_a_browser_restart(playwright_driver, live_server, tmp_path):
    """The power cut: entries made offline wait in the phone's profile (IndexedDB), the whole browser is closed
    and launched again with the same profile, still offline; the table's page opens from the service worker's
    copy with the entries still waiting; the network returns and each reaches the server once."""
    match = _match()
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    profile = tmp_path / "phone-profile"

    def launch():
        context = playwright_driver.chromium.launch_persistent_context(
            user_data_dir=str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport=PHONE, base_url=live_server.url, locale="en-ZA",
        )
        context.set_default_timeout(10_000)
        page = context.pages[0] if context.pages else context.new_page()
        return context, page, _page_errors(page)

    context, table, errors = launch()
    try:
        _table_open(table, link.secret)
        context.set_offline(True)
        table.click("button.going-on[data-side=home][data-strokes='1']")
        table.click("button.going-on[data-side=away][data-strokes='1']")
        expect(table.locator("#queue .queued")).to_have_count(2)
        table.locator("#queue .queued").first.locator("button:has-text('Confirm: I am')").click()
        expect(table.locator("#queue .queued")).to_have_count(3)
        keys = table.evaluate(f"async () => (await idbKeyval.get('table-queue:{match.pk}:1')).map(i => i.id)")
        assert len(keys) == 3
        assert not errors, errors
    finally:
        context.close()  # the power cut: the whole browser goes, with its pages and service worker
    assert BoemEntry.objects.filter(table__match=match).count() == 0
    relaunched = timezone.now()

    context, table, errors = launch()
    try:
        context.set_offline(True)  # the phone restarts with the network still down
        table.goto("/table/sheet/")
        assert table.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
        expect(table.locator("#queue .queued")).to_have_count(3)
        expect(table.locator("#queue")).to_contain_text("Waiting to send (3)")
        for number in range(3):
            expect(table.locator("#queue .queued").nth(number)).to_contain_text("waiting to send")
        expect(table.locator("#queue .queued").nth(2)).to_contain_text("Confirmation of Athlone Aces on 1")
        expect(table.locator("#live line.waiting")).to_have_count(2)
        expect(table.locator("#offline-banner")).to_contain_text("No network")
        assert BoemEntry.objects.filter(table__match=match).count() == 0

        context.set_offline(False)
        expect(table.locator("#queue .queued")).to_have_count(0, timeout=15_000)
        lines = list(BoemEntry.objects.filter(table__match=match).order_by("sequence"))
        assert [(line.team_id == match.home_id, line.strokes) for line in lines] == [(True, 1), (False, 1)]
        assert lines[0].confirmed_at is not None and lines[1].confirmed_at is None
        assert sorted(TableWrite.objects.filter(match=match).values_list("key", flat=True)) == sorted(keys)
        # Each line keeps the time it was made at the table (before the power cut), not its arrival.
        assert all(line.recorded_at < relaunched for line in lines), [line.recorded_at for line in lines]
        assert lines[0].confirmed_at < relaunched
        assert all(write.received_at > relaunched for write in TableWrite.objects.filter(match=match))
        table.reload()  # sent once: nothing is sent again
        expect(table.locator("#live .pending")).to_have_count(1)
        table.wait_for_timeout(1500)
        assert BoemEntry.objects.filter(table__match=match).count() == 2
        assert TableWrite.objects.filter(match=match).count() == 3
        assert not errors, errors
    finally:
        context.close()


def _match_near(deadline: str, seconds: int):
    """A started match whose ``deadline`` ("interval": the first half's end, SAKBOC 1.2; "last": the start of the
    last 15 minutes, 1.15) is ``seconds`` away: the clock instants are set, through the match services, in the
    past."""
    now = timezone.now().replace(microsecond=0)
    match = match_with_sheets(home__name="Athlone Aces", away__name="Mitchells Plain Manels",
                              scheduled_start=now)  # moved below, once the union's minutes are known
    union = match.competition.union
    half, interval = timedelta(minutes=union.half_minutes), timedelta(minutes=union.interval_minutes)
    if deadline == "interval":
        start = now + timedelta(seconds=seconds) - half
    else:
        last_period = timedelta(minutes=union.last_period_minutes)
        start = now + timedelta(seconds=seconds) - (half + interval + half - last_period)
    match.scheduled_start = start
    match.save(update_fields=["scheduled_start"])
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    match = night_clock.match_start(match=match, now=start)
    if deadline == "last":
        night_clock.match_interval_call(match=match, now=start + half)
        match = night_clock.match_resume(match=match, now=start + half + interval)
    return match


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.strip().split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


@pytest.mark.parametrize("deadline", ["interval", "last"])
def test_offline_clock_warnings(browser, live_server, deadline):
    """Offline, the phone runs the match clock from the last server time it saw: it reaches the interval (the
    first half's 75 minutes, SAKBOC 1.2, 2.2) or the last 15 minutes (1.15) by itself and shows the warning, also
    after a reload with no network; the countdown runs on through the polls the service worker answers."""
    folder = SCREENSHOTS_DIR / "test_offline_table"
    folder.mkdir(parents=True, exist_ok=True)
    match = _match_near(deadline, seconds=24)
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    context, table, errors = _phone(browser, live_server.url)
    warning = table.locator(f"[data-clock] [data-clock-warning={deadline}]")

    def runs_on(seconds: int) -> None:
        """The countdown goes down by ``seconds`` in ``seconds``, through the polls (every 3 s) between."""
        before = _seconds(table.locator("[data-clock] .clock-time").inner_text())
        table.wait_for_timeout(seconds * 1000)
        after = _seconds(table.locator("[data-clock] .clock-time").inner_text())
        assert seconds - 1 <= before - after <= seconds + 1, (before, after)

    try:
        table.goto(f"/table/t/{link.secret}/")
        _kept_offline(table)
        expect(warning).to_be_hidden()
        runs_on(7)  # online: the polls answered 304 (the browser's kept body, an older reading) set nothing back
        context.set_offline(True)
        expect(table.locator("#offline-banner")).to_contain_text("No network")
        runs_on(4)  # offline: the polls answered from the service worker's copy set nothing back either
        expect(warning).to_be_visible(timeout=25_000)
        if deadline == "interval":
            expect(warning).to_contain_text("Interval (by this phone's clock)")
            expect(table.locator("[data-clock] [data-clock-phase]")).to_have_text("Interval")
            left = _seconds(table.locator("[data-clock] .clock-time").inner_text())
            interval = match.competition.union.interval_minutes * 60
            assert interval - 15 <= left <= interval, left  # the interval's 10 minutes count down
        else:
            expect(warning).to_contain_text("The last 15 minutes, by this phone's clock")
            expect(table.locator("[data-clock]")).to_have_class(re.compile(r"\bclock-last\b"))
        assert BoemEntry.objects.filter(table__match=match).count() == 0
        _shoot(table, folder, f"05-clock-{deadline}-offline-375")
        table.reload()  # the kept copy, with the clock still run from the last server time seen
        assert table.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
        expect(warning).to_be_visible()
        table.set_viewport_size(DESKTOP)
        _shoot(table, folder, f"06-clock-{deadline}-offline-1280")
        assert not errors, errors
    finally:
        context.close()


def test_public_match_countdown_never_goes_back_through_its_polls(browser, live_server):
    """The public match page (the one the hall's phones follow) polls its live part every 3 s; a poll the browser
    answers from its cache (the server said 304) carries the older reading, and the countdown must run on from the
    server's clock, not jump back to it (``matches.templatetags.match_clock``, ``static/js/clock.js``)."""
    match = _match_near("interval", seconds=600)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"/matches/{match.pk}/")
        countdown = page.locator("#live [data-clock] [data-countdown]")
        before = _seconds(countdown.inner_text())
        readings = [before]
        for _ in range(8):  # 8 s: two or three polls
            page.wait_for_timeout(1000)
            readings.append(_seconds(countdown.inner_text()))
        assert all(later <= earlier for earlier, later in zip(readings, readings[1:], strict=False)), readings
        assert 7 <= before - readings[-1] <= 9, readings
    finally:
        context.close()
