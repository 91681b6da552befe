"""Sign-in throttling behind the reverse proxy (issue 16): a username is locked for a short cool-off whatever the
address; each client address (from X-Forwarded-For behind NUM_PROXIES trusted proxies) has a failure budget of its
own, so one address cannot lock out the hall."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings

from klawerjas_league.sign_in import client_address

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-enough-passw0rd"
BEHIND_PROXY = {"REST_FRAMEWORK": {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}}


def _post(client, username: str, password: str, address: str):
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)  # 10.0.0.1: the proxy


def test_settings_lock_by_username_with_a_short_cool_off_and_quiet_logs():
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username"]
    assert settings.AXES_COOLOFF_TIME <= dt.timedelta(minutes=15)
    assert settings.AXES_VERBOSE is False


def test_behind_the_proxy_each_client_is_told_apart(rf):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    assert client_address(request) == "10.0.0.1"  # no proxy trusted: a forged header changes nothing
    with override_settings(**BEHIND_PROXY):
        assert client_address(request) == "203.0.113.9"  # the address the trusted proxy saw


def test_a_username_is_locked_whatever_the_address(client):
    get_user_model().objects.create_user("referee1", password=PASSWORD)
    with override_settings(**BEHIND_PROXY):
        for n in range(settings.AXES_FAILURE_LIMIT):
            _post(client, "referee1", "wrong", f"203.0.113.{n}")
        assert _post(client, "referee1", PASSWORD, "198.51.100.50").status_code == 429


def test_one_address_failing_often_is_refused_but_others_behind_the_proxy_sign_in(client, settings):
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 6
    get_user_model().objects.create_user("captain1", password=PASSWORD)
    with override_settings(**BEHIND_PROXY):
        for n in range(6):  # many usernames, so no account is locked: the address's own budget
            assert _post(client, f"nobody{n}", "wrong", "203.0.113.66").status_code == 200
        assert _post(client, "captain1", PASSWORD, "203.0.113.66").status_code == 429
        assert _post(client, "captain1", PASSWORD, "198.51.100.8").status_code == 302  # another phone in the hall


def test_the_api_token_exchange_honours_the_address_budget(client, settings):
    from rest_framework.test import APIClient

    settings.SIGN_IN_FAILURES_PER_ADDRESS = 3
    get_user_model().objects.create_user("official1", password=PASSWORD)
    api = APIClient()
    for n in range(3):
        assert api.post("/api/auth/token/", {"username": f"x{n}", "password": "wrong"}).status_code == 400
    assert api.post("/api/auth/token/", {"username": "official1", "password": PASSWORD}).status_code == 429
