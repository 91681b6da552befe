"""The browser fixtures work: Chromium reaches the live server and the sign-in form at 375 px."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_sign_in_page_fits_a_phone(page, screenshot):
    page.goto("/accounts/login/")
    assert page.locator("h1").inner_text() == "Sign in"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert screenshot("sign-in").exists()
