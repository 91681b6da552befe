"""The privacy pages at 375 and 1280 px (POPIA): the union's notice, a player's consent page, the registry form
with its consent boxes, and a public match report naming players by initials. Each fits its screen and names
people, never ids. Screenshots: artifacts/screenshots/<test name>/."""

from __future__ import annotations

import pytest

from clubs.models import Player
from tests.e2e.conftest import page_fits
from tests.factories import ClubSecretaryFactory, UnionFactory, UserFactory, match_with_sheets, squad

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-privacy"
DESKTOP = {"width": 1280, "height": 900}


def test_the_privacy_pages_fit_a_phone_and_a_desk(page, screenshot, sign_in):
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU", privacy_contact="The secretary, Mr J. Adams",
                         privacy_email="privacy@cku.example.org",
                         privacy_notice_extra="Photographs taken at match nights are not put online.")
    match = match_with_sheets(competition__union=union, competition__name="Premier League",
                              home__name="Athlone Aces", away__name="Bonteheuwel Boere")
    seated = squad(match.home)[:2]
    Player.objects.filter(pk=seated[0].pk).update(first_name="Jan Pieter", last_name="van der Merwe")
    Player.objects.filter(pk=seated[1].pk).update(first_name="Riaan", last_name="Adams")
    user = UserFactory(username="riaan", first_name="Riaan", last_name="Adams", password=PASSWORD)
    Player.objects.filter(pk=seated[1].pk).update(user=user, email="riaan@example.org")
    ClubSecretaryFactory(club=match.home.club, user__username="nazeem", user__first_name="Nazeem",
                         user__last_name="Salie", user__password=PASSWORD)

    def both(where: str) -> str:
        page_fits(page, where, screenshot)
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size({"width": 375, "height": 812})
        return page.inner_text("main")

    page.goto(f"/matches/{match.pk}/")
    text = both("match-report-initials")
    assert "J.P. van der Merwe" in text and "R. Adams" in text and "Jan Pieter" not in text
    page.click("footer >> text=Privacy notice")
    text = both("privacy-notice")
    assert "Cape Klawerjas Union" in text and "privacy@cku.example.org" in text and "Information Regulator" in text

    sign_in(page, "riaan", PASSWORD)
    page.goto("/me/consent/")
    both("my-consent")
    page.click("li:has-text('Keep my e-mail address') >> button")
    text = both("my-consent-agreed")
    assert "Your answer is saved." in text
    page.click("li:has-text('Keep my e-mail address') >> button")
    text = both("my-consent-withdraw-confirm")
    assert "riaan@example.org" in text
    page.click("text=Withdraw and delete it")
    assert "No e-mail address is kept." in page.inner_text("main")
    page.context.clear_cookies()

    sign_in(page, "nazeem", PASSWORD)
    page.goto(f"/office/clubs/{match.home.club_id}/players/")
    page.fill("#id_registration_number", "CKU-0100")
    page.fill("#id_first_name", "Yusuf")
    page.fill("#id_last_name", "Isaacs")
    page.fill("#id_email", "yusuf@example.org")
    page.click("button:has-text('Register')")
    text = both("registry-form-consent-refused")
    assert "has not agreed that the union keeps their e-mail address" in text
