"""Load-shedding at the referee's console, in Chromium: the match dashboard, once opened, opens again with no
network (``context.set_offline(True)``: in this Chromium it takes the network from the service worker too) and
shows the last known state of every table, marked stale with its time; the clock runs on by the device's clock.
Screenshots (375 and 1280 px) go to artifacts/screenshots/test_offline_referee/.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from clubs.models import GROUP_REFEREES
from matches.night import boem_sheet
from tests.e2e.conftest import PHONE, SCREENSHOTS_DIR
from tests.e2e.test_offline_table import DESKTOP, _match, _seconds, until
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e"


def test_offline_referee_dashboard(browser, live_server):
    folder = SCREENSHOTS_DIR / "test_offline_referee"
    folder.mkdir(parents=True, exist_ok=True)
    match = _match()
    referee = UserFactory(username=f"ref-{uuid.uuid4().hex[:6]}", first_name="Yusuf", last_name="Isaacs",
                          password=PASSWORD)
    referee.groups.add(Group.objects.get(name=GROUP_REFEREES))
    match.referee = referee
    match.save(update_fields=["referee"])
    boem_sheet.going_on_record(match=match, table_number=2, team=match.away, strokes=2, by=referee,
                               reason="entered for the table", opponents_under_fifty=True)

    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/accounts/login/")
        page.fill("input[name=username]", referee.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit], input[type=submit]")
        page.goto(f"/referee/matches/{match.pk}/")
        expect(page.locator("#table-2 .away-points")).to_have_text("0")
        assert page.locator("#offline-banner:visible").count() == 0
        assert not page.locator("#table-1 .stale-note").is_visible()
        until(page, "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
        until(page, f"""async () => {{
            const cache = await caches.open('klawerjas-pages');
            return (await cache.keys()).some(r => new URL(r.url).pathname === '/referee/matches/{match.pk}/');
        }}""")

        # Online, the polls the server answers 304 (nothing changed: the browser's kept body, an older reading of
        # the server's clock) must not set the clock back either.
        page.wait_for_timeout(5500)  # a poll kept by the browser first
        before = _seconds(page.locator(".clock-time").text_content())
        page.wait_for_timeout(7000)
        after = _seconds(page.locator(".clock-time").text_content())
        assert 6 <= before - after <= 8, (before, after)

        context.set_offline(True)
        page.reload()
        assert page.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
        expect(page.locator("#offline-banner")).to_contain_text("the last known state of every table, as of")
        expect(page.locator("#offline-banner")).to_contain_text("Stale")
        as_of = re.search(r"as of (\d\d:\d\d:\d\d)", page.inner_text("#offline-banner")).group(1)
        for number in (1, 2, 3, 4):  # every table, marked stale with the time of the state shown
            expect(page.locator(f"#table-{number} .stale-note")).to_be_visible()
            expect(page.locator(f"#table-{number} .stale-note")).to_have_text(f"Stale: as of {as_of}")
        assert "Mitchells Plain Manels" in page.inner_text("#table-2")
        expect(page.locator("#table-2 .boem")).to_contain_text("0–2")  # the 2 strokes gone on at table 2
        # The clock runs on with no network, through the polls (every 5 s) the service worker answers with its
        # copy (an older reading of the server's clock, which must not set the clock back).
        before = _seconds(page.locator(".clock-time").text_content())
        page.wait_for_timeout(7000)
        after = _seconds(page.locator(".clock-time").text_content())
        assert 6 <= before - after <= 8, (before, after)
        page.screenshot(path=str(folder / "01-stale-dashboard-375.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(folder / "02-stale-dashboard-1280.png"), full_page=True)

        context.set_offline(False)
        expect(page.locator("#offline-banner")).to_be_hidden(timeout=10_000)
        assert not page.locator("#table-1 .stale-note").is_visible()
        assert not errors, errors
    finally:
        context.close()
