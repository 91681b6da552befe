"""Issue 35, finding 10: the content security policy (``SECURE_CSP``: scripts and styles from the site or with the
page's nonce) blocks nothing the pages themselves use. Chromium reports every blocked style or script on the
console ("Refused to apply inline style…"); the public match page and the official's match page (both poll with
htmx, which would add its own ``<style>``) and Swagger UI (``/api/docs/``) are read and must say none.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.night import clock as night_clock
from matches.night import services as night_services
from tests.e2e.conftest import PHONE
from tests.factories import match_with_sheets
from tests.people import union_official

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _refusals(page) -> list[str]:
    return [m for m in page._csp_messages if "Content Security Policy" in m or "Refused to" in m]


def test_the_pages_break_no_rule_of_their_own_policy(browser, live_server):
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=5)
    match = match_with_sheets(scheduled_start=start, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, now=start)
    union_official(match.competition.union, username="official", password=PASSWORD)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-ZA")
    page = context.new_page()
    page._csp_messages = []
    page.on("console", lambda message: page._csp_messages.append(message.text))
    try:
        page.goto(f"/matches/{match.pk}/")
        page.wait_for_timeout(3500)  # one poll of the live part
        assert _refusals(page) == [], "public match page"
        page.goto("/accounts/login/")
        page.fill("input[name=username]", "official")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.goto(f"/official/matches/{match.pk}/")
        page.wait_for_timeout(3500)
        assert _refusals(page) == [], "the official's match page"
        page.goto("/api/docs/")
        page.wait_for_selector(".swagger-ui .info", timeout=15_000)
        assert _refusals(page) == [], "Swagger UI"
    finally:
        context.close()
