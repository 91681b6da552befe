"""An official signs in with a code from an authenticator app (issue 35), in Chromium at 375 px.

The union requires two-step sign-in of its officials (its setting, POPIA s19), so the official, signing in with
the password alone, is sent to set it up and reaches nothing else; they read the key from the page (as they would
type it into an app), type the app's code, are shown their 10 recovery codes once (and download them), go on to
their dashboard, sign out, and sign in again: the password, then the code, then the dashboard. A wrong code first
is refused plainly. Each page fits a phone and a desk. Screenshots: artifacts/screenshots/<test name>/.
"""

from __future__ import annotations

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.e2e.conftest import page_fits
from tests.factories import UnionFactory, UnionOfficialFactory
from tests.two_step_codes import code_from_secret

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-two-step"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}


def test_an_official_signs_in_with_a_code_from_the_app(page, screenshot, sign_in):
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU", two_step_required=True)
    official = UnionOfficialFactory(union=union, user__username="fatima", user__first_name="Fatima",
                                    user__last_name="Abrahams", user__password=PASSWORD).user

    def both(where: str) -> None:
        page_fits(page, where, screenshot)
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size(PHONE)

    sign_in(page, "fatima", PASSWORD)
    assert "/accounts/two-step/set-up/" in page.url  # required: set it up before anything else
    page.goto("/official/")
    assert "/accounts/two-step/set-up/" in page.url
    assert "Your union asks its officials and referees to sign in with two steps" in page.inner_text("main")
    assert page.locator(".qr svg").is_visible()
    page.click("text=Cannot scan? Type the key instead")
    secret = page.inner_text("[data-secret]")
    both("set-up")

    page.fill("input[name=code]", code_from_secret(secret))
    page.click("main button[type=submit]")
    assert "Two-step sign-in is on" in page.inner_text(".messages")
    codes = page.locator(".recovery-codes code").all_inner_texts()
    assert len(codes) == 10 and len(set(codes)) == 10
    with page.expect_download() as download:
        page.click("text=Download them")
    saved = open(download.value.path(), encoding="utf-8").read()
    assert all(code in saved for code in codes)
    both("recovery-codes")
    page.click("text=I have kept them: go on")
    assert page.url.endswith("/official/") and page.inner_text("h1") == "Union officials"
    assert TOTPDevice.objects.get(user=official).confirmed

    page.click("text=Two-step sign-in")
    assert "10 recovery codes are left" in page.inner_text("main")
    both("two-step-home")
    page.click("text=Sign out")

    sign_in(page, "fatima", PASSWORD)
    assert page.url.endswith("/accounts/code/")  # the password alone is not enough
    page.fill("input[name=code]", "000000" if code_from_secret(secret, ahead=1) != "000000" else "111111")
    page.click("main button[type=submit]")
    assert "That code is not right" in page.inner_text("main")
    both("code-wrong")
    page.wait_for_timeout(1100)  # a wrong code makes the next try wait a second
    # the code the app shows next: the one that turned two-step on (this half-minute's) is not taken twice
    page.fill("input[name=code]", code_from_secret(secret, ahead=1))
    page.click("main button[type=submit]")
    assert page.url.endswith("/official/") and page.inner_text("h1") == "Union officials"
    both("dashboard")

    page.goto("/accounts/two-step/turn-off/")
    assert "so it cannot be turned off" in page.inner_text("main")  # the union requires it
    both("turn-off-required")


def test_the_two_step_pages_fit_a_phone_and_a_desk(page, screenshot, sign_in):
    """The pages the walk does not pass: two-step off (the account's page), turning it off, a recovery code at
    sign-in, and the union's setting on its settings page."""
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    UnionOfficialFactory(union=union, user__username="fatima", user__password=PASSWORD)

    def both(where: str) -> None:
        page_fits(page, where, screenshot)
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size(PHONE)

    sign_in(page, "fatima", PASSWORD)
    page.goto(f"/office/unions/{union.pk}/settings/")
    assert "POPIA section 19" in page.inner_text("main")
    page.locator("text=Two-step sign-in required for officials and referees").scroll_into_view_if_needed()
    both("union-settings")
    page.click("header >> text=Two-step sign-in")
    assert "You sign in with your password only." in page.inner_text("main")
    both("two-step-off-home")
    page.click("text=Set up two-step sign-in")
    page.click("text=Cannot scan? Type the key instead")
    secret = page.inner_text("[data-secret]")
    page.fill("input[name=code]", code_from_secret(secret))
    page.click("main button[type=submit]")
    codes = page.locator(".recovery-codes code").all_inner_texts()
    page.click("text=I have kept them: go on")
    page.goto("/accounts/two-step/")
    page.click("text=Turn two-step sign-in off…")
    both("turn-off")

    page.click("text=Sign out")
    sign_in(page, "fatima", PASSWORD)
    page.click("text=Lost your phone? Use a recovery code")
    assert page.get_attribute("input[name=code]", "inputmode") == "text"
    both("code-recovery")
    page.fill("input[name=code]", codes[0])
    page.click("main button[type=submit]")
    assert "9 recovery codes are left" in page.inner_text(".messages")
    page.goto("/accounts/two-step/turn-off/")
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=code]", codes[1])
    page.click("main button[type=submit]")
    assert "Two-step sign-in is off" in page.inner_text(".messages")
    both("two-step-turned-off")
