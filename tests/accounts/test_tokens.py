"""API tokens expire, are one per sign-in, and are revoked by logout and a password change (issue 16,
django-rest-knox)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.conftest import module_world

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-token-tests"
REFUSED = (401, 403)  # not signed in (403: session authentication comes first and sends no challenge)


@pytest.fixture
def official(world):
    world.a.official.set_password(PASSWORD)
    world.a.official.save()
    return world.a.official


def _sign_in(username: str = "official_A", password: str = PASSWORD):
    return APIClient().post("/api/auth/token/", {"username": username, "password": password})


def _as(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _can_write(token: str, world) -> int:
    name = f"Cup {uuid.uuid4().hex[:8]}"
    return _as(token).post("/api/competitions/", {"union": world.a.union.pk, "name": name, "season": "2027",
                                                  "kind": "knockout"}, format="json").status_code


def test_each_sign_in_gets_a_new_expiring_token(official, world):
    first, second = _sign_in().json(), _sign_in().json()
    assert first["token"] != second["token"]  # one per device, never the same key again
    expiry = dt.datetime.fromisoformat(first["expiry"])
    assert timezone.now() + dt.timedelta(hours=11) < expiry <= timezone.now() + dt.timedelta(hours=12, minutes=1)
    assert _can_write(first["token"], world) == 201 and _can_write(second["token"], world) == 201
    assert AuthToken.objects.filter(user=official).count() == 2


def test_wrong_password_gets_no_token(official):
    response = _sign_in(password="wrong")
    assert response.status_code == 400 and "token" not in response.json()


def test_an_expired_token_is_refused(official, world):
    token = _sign_in().json()["token"]
    AuthToken.objects.filter(user=official).update(expiry=timezone.now() - dt.timedelta(seconds=1))
    assert _can_write(token, world) in REFUSED


def test_logout_revokes_that_token_only_and_logout_all_every_token(official, world):
    phone, laptop, tablet = (_sign_in().json()["token"] for _ in range(3))
    assert _as(phone).post("/api/auth/logout/").status_code == 204
    assert _can_write(phone, world) in REFUSED and _can_write(laptop, world) == 201
    assert _as(laptop).post("/api/auth/logout-all/").status_code == 204
    assert _can_write(laptop, world) in REFUSED and _can_write(tablet, world) in REFUSED


def test_a_password_change_revokes_every_token(official, world):
    token = _sign_in().json()["token"]
    official.set_password("a-new-password-2027")
    official.save()
    assert _can_write(token, world) in REFUSED
    assert not AuthToken.objects.filter(user=official).exists()


def test_signing_in_again_does_not_revoke_tokens(official, world, client):
    token = _sign_in().json()["token"]
    signed_in = client.post("/accounts/login/", {"username": "official_A", "password": PASSWORD})
    assert signed_in.status_code == 302  # signing in saves last_login only
    assert _can_write(token, world) == 201


def test_signing_out_of_the_site_revokes_every_token(official, world, client):
    token = _sign_in().json()["token"]
    client.force_login(official)
    assert client.post("/accounts/logout/").status_code == 302
    assert _can_write(token, world) in REFUSED
