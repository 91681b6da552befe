"""The token endpoint asks a user with two-step sign-in for the code too (``otp_token``), and gives no token to
someone of whom it is required and who has not set it up (issue 35)."""

from __future__ import annotations

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import two_step
from clubs.services import union_settings_update
from tests.factories import UnionOfficialFactory
from tests.two_step_codes import authenticator_for, code_for

pytestmark = pytest.mark.django_db
PASSWORD = "klawerjas-test"


@pytest.fixture
def official():
    return UnionOfficialFactory(user__username="fatima").user


def _token(**extra):
    return APIClient().post("/api/auth/token/", {"username": "fatima", "password": PASSWORD, **extra}, format="json")


def test_a_user_with_two_step_sends_the_code_with_the_password(official):
    device = authenticator_for(official)
    missing = _token()
    assert missing.status_code == 400 and "send the code" in missing.json()["otp_token"][0]
    wrong = _token(otp_token=f"{(int(code_for(device)) + 1) % 1_000_000:06d}")
    assert wrong.status_code == 400 and "That code is not right" in wrong.json()["otp_token"][0]
    throttled = _token(otp_token=code_for(device))  # at once after a wrong one: the wait, said plainly
    assert throttled.status_code == 400 and "wait 1 second" in throttled.json()["otp_token"][0]
    assert not AuthToken.objects.exists()
    device.refresh_from_db()
    device.throttle_reset()
    right = _token(otp_token=code_for(device))
    assert right.status_code == 200 and right.json()["token"]


def test_a_recovery_code_gets_one_token(official):
    authenticator_for(official)
    code = two_step.recovery_codes_new(user=official)[0]
    assert _token(otp_token=code).status_code == 200
    assert _token(otp_token=code).json()["otp_token"] == ["That recovery code is not right, or it has been used "
                                                          "already."]


def test_no_token_until_a_required_two_step_is_set_up(official):
    assert _token().status_code == 200
    union_settings_update(union=official.official_of_unions.get(), two_step_required=True)
    refused = _token()
    assert refused.status_code == 403 and "Set up two-step sign-in on the site first" in refused.json()["detail"]
    device = authenticator_for(official)
    assert _token(otp_token=code_for(device)).status_code == 200


def test_a_wrong_password_says_nothing_of_the_code(official):
    authenticator_for(official)
    response = _token(password="wrong")
    assert response.status_code == 400 and "otp_token" not in response.json()
