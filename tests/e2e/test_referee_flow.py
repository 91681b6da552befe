"""The referee's match night in a phone-sized Chromium: sign in, start the match, call the interval, enter a
disputed hand with a revoke, see the verdict cite SAKBOC 3.3, record the ruling, see the table's points change.

Screenshots of every step go to artifacts/screenshots/test_referee_match_night/.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Match
from tests.e2e.conftest import page_fits
from tests.factories import UserFactory, match_with_sheets, squad
from tests.referee.conftest import REVOKE_HANDS

pytestmark = pytest.mark.django_db(transaction=True)


def test_referee_match_night(page, screenshot, sign_in):
    referee = UserFactory(username="referee", first_name="Ruwayda", last_name="Adams", password="klawerjas-e2e")
    match = match_with_sheets(scheduled_start=timezone.now().replace(microsecond=0) - timedelta(minutes=1),
                              referee=referee)

    console_errors = []
    page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
    sign_in(page, "referee", "klawerjas-e2e")
    page.goto("/referee/")
    page.click(f"text={match.home.name} v {match.away.name}")
    screenshot("dashboard-scheduled")
    page_fits(page)

    # The toss, then start the match (SAKBOC 1.3, 1.2).
    page.select_option("select[name=winner_side]", "home")
    page.click("text=Record the toss")
    page.click("button:has-text('Start the match')")
    page.wait_for_selector("text=Call the interval")
    assert "first half" in page.inner_text(".clock").lower()
    assert page.locator(".table-card").count() == 4
    screenshot("first-half")
    page_fits(page)

    # 75 minutes later (moved on in the database rather than waited for): the dashboard finds the interval due
    # when it reads the clock and calls it itself (SAKBOC 1.2), timer or no timer.
    Match.objects.filter(pk=match.pk).update(first_half_started_at=timezone.now() - timedelta(minutes=76))
    page.reload()
    page.wait_for_selector("text=Start the second half")
    assert "interval" in page.inner_text(".clock").lower()
    screenshot("interval")

    # A straf claim at table 1: the home telman says "af" for a versak by the away telman.
    page.click("#table-1 >> text=Straf claim")
    page.select_option("select[name=claimant_side]", "home")
    page.select_option("select[name=claimant_role]", "telman")
    page.select_option("select[name=accused_role]", "telman")
    page.select_option("select[name=offence]", "versak")
    page.fill("input[name=moment]", "hand 1, trick 1, second card")
    screenshot("claim-form")
    page_fits(page)
    page.click("button:has-text('Log the claim')")
    page.click("button:has-text('Enter the hand with the card picker')")

    # The deal, with the card picker: choose a seat, tap its cards.
    page.select_option("select[name=dealer]", "3")
    page.fill("input[name=cut]", "12")
    page.select_option("select[name=deal_pattern]", "3-3-2")
    for seat, cards in enumerate(REVOKE_HANDS):
        page.check(f"input[name=picker_seat][value='{seat}']")
        for card in cards:
            page.click(f"[data-card='{card}']")
    assert page.input_value("#id_hand_1") == " ".join(REVOKE_HANDS[1])
    page.select_option("select[name=trump_card]", "7C")
    screenshot("deal-card-picker")
    page_fits(page)
    page.click("button:has-text('Save the deal')")

    # The plays, each player named (seats in order of play: the home telman, the away telman, the home byspeler,
    # the away byspeler): the engine flags the revoke at once.
    players = [f"{p.first_name} {p.last_name}" for p in
               (squad(match.home)[0], squad(match.away)[0], squad(match.home)[1], squad(match.away)[1])]
    page.click(".next button[value=AS]")
    page.locator(".next h2", has_text=f"{players[1]} plays").wait_for()
    with page.expect_request("**/hand/event/") as request:  # an htmx call, not a page load
        page.click(".next button[value='7D']")
    assert request.value.headers.get("hx-request") == "true"
    flag = page.wait_for_selector("#last-flag")
    assert "versak" in flag.inner_text() and "SAKBOC 3.3" in flag.inner_text()
    screenshot("revoke-flagged")
    page_fits(page)
    page.click(".next button[value=AH]")
    page.locator(".next h2", has_text=f"{players[3]} plays").wait_for()
    page.click(".next button[value=AD]")
    page.locator(".next h2", has_text=f"{players[0]} plays").wait_for()
    page.click("#adjudicate")

    # The verdict cites the rule; the referee records the ruling.
    page.wait_for_selector("h1:has-text('Verdict')")
    offences = page.inner_text("section[aria-label=Offences]")
    assert "versak" in offences and "SAKBOC 3.3" in offences and "while holding K♠, 8♠, 7♠ of the suit led" in offences
    assert "a claim was upheld on it" in offences  # said from the engine's code and params (issue 17)
    assert "Upheld." in page.inner_text(".outcome")
    screenshot("verdict")
    page_fits(page)
    assert page.is_checked("input[name=decision][value=upheld]")
    page.click("button:has-text('Record the ruling')")

    # Back on the dashboard: table 1's points changed.
    page.wait_for_selector("text=Ruling recorded")
    table = page.locator("#table-1")
    assert table.locator(".home-points").inner_text() == "2"
    assert table.locator(".away-points").inner_text() == "0"
    screenshot("points-changed")
    page_fits(page)

    page.goto(f"/referee/matches/{match.pk}/report/")
    assert "SAKBOC 3.3" in page.inner_text("main")
    screenshot("match-report")
    page_fits(page)
    assert not [e for e in console_errors if "Content Security Policy" in e or "htmx" in e.lower()], console_errors
