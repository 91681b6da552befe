"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Every test in ``tests/e2e/`` is marked ``browser``. Chromium is the system one at ``/usr/bin/chromium``
(``scripts/ensure-chromium`` installs it with apt-get; ``make test`` runs that first); we never run
``playwright install``. Without Chromium the browser tests are skipped with the reason, except under CI
(``KLAWERJAS_REQUIRE_SERVICES=1``), where a missing browser is a failure.

Fixtures:

``browser``
    a headless Chromium for the test.
``page``
    a fresh context and page per test, 375 px wide (a phone), ``base_url`` set to the live server, so
    ``page.goto("/referee/")`` works.
``screenshot``
    ``screenshot("start-match")`` saves ``artifacts/screenshots/<test name>/NN-start-match.png`` (full page)
    and returns the path; the folder is gitignored.
``sign_in``
    ``sign_in(page, username, password)`` signs in through the login form.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS_DIR = PROJECT_DIR / "artifacts" / "screenshots"
PHONE = {"width": 375, "height": 812}
SERVICES_REQUIRED = os.environ.get("KLAWERJAS_REQUIRE_SERVICES") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under tests/e2e/ as ``browser``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _browser_missing() -> str:
    """Say why the browser tests cannot run here, or return ``""``."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"Chromium not found at {CHROMIUM} (run scripts/ensure-chromium, or apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-dev.txt)"
    return ""


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """A headless Chromium for one test (skipped, or failed under CI, when missing).

    Playwright's sync API runs an event loop in this thread while it is started, so Django's async-safety
    check would refuse the ORM calls the test makes around the browser (creating users and matches, reading
    results). They are still synchronous and safe, so the check is lifted while the browser runs, and
    Playwright is stopped at the end of each test, before the database is cleaned up. The variable never
    outlives the test (``check --deploy`` refuses it in deployment).
    """
    missing = _browser_missing()
    if missing:
        if SERVICES_REQUIRED:
            pytest.fail(f"browser tests need Chromium: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    """A fresh 375-px-wide page whose relative URLs go to the live server."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def page_fits(page, where: str = "", screenshot: Callable[[str], Path] | None = None) -> None:
    """Assert that ``page`` is no wider than the screen it is shown on (a 375-px phone in the walks), naming
    ``where`` (default: its address) when it is not; with the ``screenshot`` fixture, save the step ``where``'s
    screenshot first."""
    if screenshot is not None:
        screenshot(where)
    width, screen = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= screen, f"{where or page.url}: the page is {width}px wide on a {screen}px screen"


@pytest.fixture
def screenshot(page, request: pytest.FixtureRequest) -> Callable[[str], Path]:
    """Return ``shoot(step)``, which saves a numbered full-page screenshot of ``page`` for this test."""
    folder = SCREENSHOTS_DIR / re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    counter = {"n": 0}

    def shoot(step: str) -> Path:
        counter["n"] += 1
        path = folder / f"{counter['n']:02d}-{re.sub(r'[^A-Za-z0-9_-]+', '-', step)}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return shoot


@pytest.fixture
def sign_in() -> Callable[[object, str, str], None]:
    """Return ``sign_in(page, username, password)``: fill the login form and wait to leave it."""

    def do(page, username: str, password: str) -> None:
        page.goto("/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        page.click("button[type=submit], input[type=submit]")
        page.wait_for_load_state("load")
        if "/accounts/login/" in page.url:
            raise AssertionError(f"could not sign in as {username}: {page.inner_text('main')[:300]}")

    return do
