"""Issue 19 in Chromium with the browser set to Afrikaans (``af-ZA``): a captain registers a player and submits a
team sheet, a referee opens the console, a table's phone enters a going-on, the public reads the standings and
a match report; every page says ``lang="af"`` and Afrikaans words, and the AF/EN switch turns the site English.
Screenshots (375 px and 1280 px) go to artifacts/screenshots/test_the_site_in_afrikaans_then_english/.

The captain's pages are the registry's half of issue 19: what they must say in Afrikaans (docs/glossary.md) is
collected and asserted at the end, so the rest of the walk is checked whatever they say.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import GROUP_CAPTAINS, GROUP_REFEREES, TeamMembership
from matches.models import BoemEntry, TeamSheet
from matches.night import table_links
from matches.results.standings import standings_recompute
from tests.e2e.conftest import SCREENSHOTS_DIR
from tests.factories import MatchFactory, UserFactory, match_with_sheets

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def _lang(page) -> str:
    return page.evaluate("document.documentElement.lang")


def _shooter(name: str):
    """``shoot(page, step)``: a numbered full-page screenshot in artifacts/screenshots/<name>/ (the ``screenshot``
    fixture shoots the fixture's English page; these are the Afrikaans context's pages)."""
    folder = SCREENSHOTS_DIR / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    counter = [0]

    def shoot(page, step: str) -> None:
        counter[0] += 1
        page.screenshot(path=str(folder / f"{counter[0]:02d}-{step}.png"), full_page=True)

    return shoot


def test_the_site_in_afrikaans_then_english(browser, live_server):
    screenshot = _shooter("test_the_site_in_afrikaans_then_english")
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    referee = UserFactory(username="skeidsregter", first_name="Yusuf", last_name="Isaacs", password="klawerjas-e2e")
    referee.groups.add(Group.objects.get(name=GROUP_REFEREES))
    tonight = match_with_sheets(scheduled_start=start, referee=referee, home__name="Athlone Aces",
                                away__name="Bonteheuwel Boere", home__squad=8, away__squad=8)
    home = tonight.home
    captain = UserFactory(username="kaptein", first_name="Zainab", last_name="Williams", password="klawerjas-e2e")
    captain.groups.add(Group.objects.get(name=GROUP_CAPTAINS))
    home.captain.user = captain
    home.captain.save()
    next_match = MatchFactory(competition=tonight.competition, home=home, away=tonight.away,
                              scheduled_start=start + timedelta(days=7))
    standings_recompute(competition_id=tonight.competition_id)

    context = browser.new_context(viewport={"width": 375, "height": 812}, base_url=live_server.url, locale="af-ZA")
    context.set_default_timeout(10_000)
    page = context.new_page()
    registry_missing: list[str] = []

    def registry_says(*words: str) -> None:
        text = page.inner_text("body")
        registry_missing.extend(f"{page.url}: {word!r}" for word in words if word not in text)

    try:
        # The captain: the sign-in page in Afrikaans from the browser's language alone.
        page.goto("/accounts/login/")
        assert _lang(page) == "af" and page.locator("h1").inner_text() == "Meld aan"
        page.fill("input[name=username]", "kaptein")
        page.fill("input[name=password]", "klawerjas-e2e")
        page.click("main button[type=submit]")
        page.wait_for_load_state("load")
        page.click("header >> text=My spanne")
        assert _lang(page) == "af"
        registry_says("Spanlys")
        page.goto(reverse("clubs:team-squad", args=[home.pk]))
        page.fill("#register-form input[name=registration_number]", "AF-1009")
        page.fill("#register-form input[name=first_name]", "Ebrahim")
        page.fill("#register-form input[name=last_name]", "Solomons")
        page.click("#register-form button[type=submit]")
        page.wait_for_selector("text=Ebrahim Solomons")
        assert _lang(page) == "af" and TeamMembership.objects.filter(team=home).count() == 9
        registry_says("Registreer", "speler")
        screenshot(page, "captain-squad-af")
        page.goto(reverse("matches:team-sheet", args=[next_match.pk]))
        squad = list(TeamMembership.objects.filter(team=home).order_by("id").values_list("player_id", flat=True))
        for table in range(1, 5):
            page.select_option(f"select[name=table{table}_telman]", str(squad[2 * table - 2]))
            page.select_option(f"select[name=table{table}_byspeler]", str(squad[2 * table - 1]))
        registry_says("Spanlys", "Tafel", "telman", "byspeler", "Dien in")
        page.click("#team-sheet-form button[type=submit]")
        page.wait_for_load_state("load")
        assert _lang(page) == "af" and TeamSheet.objects.filter(match=next_match, team=home).exists()
        page.click("header >> text=Meld af")
        page.wait_for_load_state("load")

        # The referee's console.
        page.goto("/accounts/login/")
        page.fill("input[name=username]", "skeidsregter")
        page.fill("input[name=password]", "klawerjas-e2e")
        page.click("main button[type=submit]")
        page.goto("/referee/")
        assert _lang(page) == "af" and page.locator("h1").inner_text() == "Jou wedstryde"
        page.click("text=Athlone Aces teen Bonteheuwel Boere")
        page.wait_for_selector("#live")
        # The toss and the start on the console (SAKBOC 1.3, 1.2), its buttons in Afrikaans.
        page.select_option("select[name=winner_side]", "home")
        page.click("form:has(select[name=winner_side]) button[type=submit]")
        start_form = f"form[action='{reverse('referee:clock', args=[tonight.pk, 'start'])}']"
        expect(page.locator(f"{start_form} button")).to_have_text("Begin die wedstryd")
        page.click(f"{start_form} button")
        page.wait_for_selector("text=Roep pouse")
        text = page.inner_text("main")
        assert "Wedstrydklok" not in text  # an aria-label, not text
        for word in ("Paneelbord", "Beslissings", "Tafel 1", "Roep pouse", "Teken 'n strafeis aan"):
            assert word in text, word
        assert "Call the interval" not in text and "Log a straf claim" not in text
        screenshot(page, "referee-dashboard-af")
        page.goto(reverse("referee:table_sheet", args=[tonight.pk, 1]))
        text = page.inner_text("main")
        assert _lang(page) == "af" and "Elke lyn" in text and "Nog niks op die blad nie." in text
        assert "Every line" not in text
        page.click("header >> text=Meld af")

        # A table's phone, with no account: the QR link, a going-on of 1 stroke, waiting for the other telman.
        link = next(t for t in table_links.table_links_ensure(match=tonight) if t.table_number == 1)
        table = context.new_page()
        table.goto(reverse("tables:open", args=[link.secret]))
        table.wait_for_selector("section.go-on")
        assert _lang(table) == "af"
        text = table.inner_text("main")
        for word in ("Tafel 1", "Aangaan", "Boemblad", "gaan aan", "1 strepie", "2 strepies"):
            assert word in text, word
        table.click("section.go-on button.going-on[data-side=home][data-strokes='1']")
        table.wait_for_selector("article.pending")
        assert BoemEntry.objects.filter(table__match=tonight, strokes=1).count() == 1
        text = table.inner_text("main")
        assert "Athlone Aces gaan aan op 1" in text and "Bevestig: ek is" in text and "Confirm:" not in text
        screenshot(table, "table-going-on-af")
        # With no network the phone's own queue speaks Afrikaans too (its words come with the page).
        context.set_offline(True)
        table.click("section.go-on button.going-on[data-side=away][data-strokes='1']")
        table.wait_for_selector("#queue .queued")
        queue = table.inner_text("#queue")
        assert "Wag om gestuur te word (1)" in queue and "Bonteheuwel Boere gaan aan op 1" in queue
        assert "Waiting to send" not in queue
        screenshot(table, "table-queue-offline-af")
        table.close()
        context.set_offline(False)

        # The public: standings and the match report, at a phone's width and a desktop's.
        page.goto(f"/competitions/{tonight.competition_id}/standings/")
        assert _lang(page) == "af"
        text = page.inner_text("main")
        assert "Puntelys" in text and "Wedstrydprogram" in text and "Lewendige puntelys" in text
        assert "Standings" not in text and "Live table" not in text
        screenshot(page, "standings-af-375")
        page.set_viewport_size(DESKTOP)
        screenshot(page, "standings-af-1280")
        page.goto(f"/matches/{tonight.pk}/")
        text = page.inner_text("main")
        assert _lang(page) == "af" and "Wedstrydverslag:" in text and "Tafel 1" in text
        screenshot(page, "match-report-af-1280")
        page.set_viewport_size({"width": 375, "height": 812})
        screenshot(page, "match-report-af-375")

        # The switch: English, and it stays English on the next page although the browser asks for Afrikaans.
        page.click("header .language-switch button[value=en]")
        page.wait_for_load_state("load")
        assert _lang(page) == "en" and "Match report:" in page.inner_text("main")
        page.goto(f"/competitions/{tonight.competition_id}/standings/")
        assert _lang(page) == "en" and "Live table" in page.inner_text("main")
        screenshot(page, "standings-en-375")
    finally:
        context.close()
    assert registry_missing == [], "the captain's pages are not in Afrikaans yet: " + "; ".join(registry_missing)
