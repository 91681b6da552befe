"""Sign-in throttling behind the reverse proxy (issues 16 and 35): wrong passwords lock an account for a short
cool-off from that address only (username and address together), so nobody elsewhere can lock a referee out; each
client address (from X-Forwarded-For behind NUM_PROXIES trusted proxies) has a failure budget of its own, so one
address cannot try many accounts; the lockout is said plainly, on the page and by the token endpoint."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from plumbing.limits import client_address

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-enough-passw0rd"
BEHIND_PROXY = {"REST_FRAMEWORK": {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}}


def _post(client, username: str, password: str, address: str):
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)  # 10.0.0.1: the proxy


def _token(username: str, password: str, address: str):
    return APIClient().post("/api/auth/token/", {"username": username, "password": password},
                            REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)


def locked_message(minutes: int) -> str:
    return f"Too many failed sign-ins from this address for this account; try again in {minutes} minutes."


def test_settings_lock_by_username_and_address_with_a_short_cool_off_and_quiet_logs():
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_COOLOFF_TIME <= dt.timedelta(minutes=15)
    assert settings.AXES_VERBOSE is False


def test_behind_the_proxy_each_client_is_told_apart(rf):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    assert client_address(request) == "10.0.0.1"  # no proxy trusted: a forged header changes nothing
    with override_settings(**BEHIND_PROXY):
        assert client_address(request) == "203.0.113.9"  # the address the trusted proxy saw


def test_wrong_passwords_lock_the_account_from_that_address_only(client):
    get_user_model().objects.create_user("referee1", password=PASSWORD)
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    with override_settings(**BEHIND_PROXY):
        for _ in range(settings.AXES_FAILURE_LIMIT):
            _post(client, "referee1", "wrong", "203.0.113.66")
        locked = _post(client, "referee1", PASSWORD, "203.0.113.66")
        assert locked.status_code == 429 and locked_message(minutes) in locked.content.decode()
        assert "_auth_user_id" not in client.session
        elsewhere = Client()  # the referee's own phone, another address
        assert _post(elsewhere, "referee1", PASSWORD, "198.51.100.50").status_code == 302
        assert elsewhere.session["_auth_user_id"]


def test_the_token_endpoint_says_the_lockout_plainly_and_locks_that_address_only():
    get_user_model().objects.create_user("referee2", password=PASSWORD)
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    with override_settings(**BEHIND_PROXY):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert _token("referee2", "wrong", "203.0.113.66").status_code == 400
        last = _token("referee2", "wrong", "203.0.113.66")
        assert last.status_code == 429 and last.json() == {"detail": locked_message(minutes)}
        locked = _token("referee2", PASSWORD, "203.0.113.66")  # the right password too, while locked
        assert locked.status_code == 429 and locked.json() == {"detail": locked_message(minutes)}
        assert "token" in _token("referee2", PASSWORD, "198.51.100.50").json()


def test_trying_during_the_lockout_does_not_lengthen_it(client, settings):
    get_user_model().objects.create_user("referee3", password=PASSWORD)
    start = timezone.now()
    with override_settings(**BEHIND_PROXY), time_machine.travel(start, tick=False) as clock:
        for _ in range(settings.AXES_FAILURE_LIMIT):
            _post(client, "referee3", "wrong", "203.0.113.66")
        clock.shift(dt.timedelta(minutes=2))
        again = _post(client, "referee3", "wrong", "203.0.113.66")
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        assert again.status_code == 429 and locked_message(minutes - 2) in again.content.decode()
        clock.shift(settings.AXES_COOLOFF_TIME - dt.timedelta(minutes=2) + dt.timedelta(seconds=1))
        assert _post(client, "referee3", PASSWORD, "203.0.113.66").status_code == 302


def test_one_address_failing_often_is_refused_but_others_behind_the_proxy_sign_in(client, settings):
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 6
    get_user_model().objects.create_user("captain1", password=PASSWORD)
    with override_settings(**BEHIND_PROXY):
        for n in range(6):  # many usernames, so no account is locked: the address's own budget
            assert _post(client, f"nobody{n}", "wrong", "203.0.113.66").status_code == 200
        refused = _post(client, "captain1", PASSWORD, "203.0.113.66")
        assert refused.status_code == 429
        assert "Too many failed sign-ins from this address; try again in 10 minutes." in refused.content.decode()
        assert _post(client, "captain1", PASSWORD, "198.51.100.8").status_code == 302  # another phone in the hall


def test_the_api_token_exchange_honours_the_address_budget(client, settings):
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 3
    get_user_model().objects.create_user("official1", password=PASSWORD)
    api = APIClient()
    for n in range(3):
        assert api.post("/api/auth/token/", {"username": f"x{n}", "password": "wrong"}).status_code == 400
    assert api.post("/api/auth/token/", {"username": "official1", "password": PASSWORD}).status_code == 429
