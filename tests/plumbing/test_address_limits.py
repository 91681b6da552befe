"""Per-address limits keep counting when Redis fails (issue 35, finding 5).

The counters (failed sign-ins per address, wrong table codes per address, the table API's sign-in throttle) live
in the ``limits`` cache: Redis, and this process's memory while Redis fails (``plumbing.cache.
FailoverCache``). With Redis down every limit still blocks after its N attempts. The unit tests need no service
(a cache that raises on every call; the production configuration pointed at a port nothing listens on); one
test uses a ``redis-server`` of its own (``tests/private_redis.py``) and kills it mid-way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from plumbing.cache import caches_config
from tables import api as table_api
from tables import views as table_views
from tests.private_redis import PrivateRedis, free_port
from tests.tables.conftest import links, playing  # noqa: F401 - the table fixtures

pytestmark = pytest.mark.django_db


class BrokenCache(BaseCache):
    """A cache whose every call raises, as django-redis does when Redis cannot be reached."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis is down")

    add = get = set = touch = delete = incr = has_key = clear = get_many = set_many = delete_many = _fail


def _limits_over(primary: dict[str, Any]) -> dict[str, Any]:
    return {**settings.CACHES, "limits": {"BACKEND": "plumbing.cache.FailoverCache",
                                          "LOCATION": f"test-{primary['BACKEND']}", "KEY_PREFIX": "limits-test",
                                          "OPTIONS": {"PRIMARY": primary}}}


@pytest.fixture
def limits_cache_raising() -> Iterator[None]:
    """The limits cache over a primary that raises on every call."""
    with override_settings(CACHES=_limits_over({"BACKEND": f"{__name__}.BrokenCache"})):
        caches["limits"].clear()
        yield


@pytest.fixture
def redis_unreachable() -> Iterator[None]:
    """The production caches (``settings.CACHES`` with ``REDIS_URL`` set) pointed at a port nothing listens on."""
    config = caches_config(redis_url=f"redis://127.0.0.1:{free_port()}/0", key_prefix="down", socket_timeout=0.3)
    with override_settings(CACHES=config):
        caches["limits"].clear()
        yield


def _sign_in(client: Client, username: str, password: str = "wrong"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_the_limits_cache_counts_in_memory_while_its_primary_raises(limits_cache_raising):
    limits = caches["limits"]
    assert limits.add("n", 1, 60) is True and limits.incr("n") == 2 and limits.get("n") == 2
    assert limits.add("n", 1, 60) is False
    with pytest.raises(ValueError):
        limits.incr("missing")  # a missing counter is the cache's answer, not a failure


@pytest.mark.parametrize("caches_fixture", ["limits_cache_raising", "redis_unreachable"])
def test_sign_in_failures_per_address_still_count(caches_fixture, request, settings):
    request.getfixturevalue(caches_fixture)
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 3
    get_user_model().objects.create_user("captain1", password="a-Long-enough-passw0rd")
    for n in range(3):  # other usernames each time: the address's budget, not an account lockout
        assert _sign_in(Client(), f"nobody{n}").status_code == 200
    assert _sign_in(Client(), "captain1", "a-Long-enough-passw0rd").status_code == 429
    assert APIClient().post("/api/auth/token/", {"username": "captain1", "password": "a-Long-enough-passw0rd"}
                            ).status_code == 429


@pytest.mark.parametrize("caches_fixture", ["limits_cache_raising", "redis_unreachable"])
def test_wrong_table_codes_still_count(caches_fixture, request, monkeypatch):
    request.getfixturevalue(caches_fixture)
    cards = request.getfixturevalue("links")  # the table links, by table number
    monkeypatch.setattr(table_views, "WRONG_CODES_ALLOWED", 3)
    for _ in range(3):
        assert Client().post(reverse("tables:code"), {"code": "ZZZZ ZZZZ"}).status_code == 400
    blocked = Client().post(reverse("tables:code"), {"code": cards[1].code})
    assert blocked.status_code == 400 and "Too many wrong codes" in blocked.content.decode()


@pytest.mark.parametrize("caches_fixture", ["limits_cache_raising", "redis_unreachable"])
def test_the_table_api_sign_in_throttle_still_counts(caches_fixture, request, monkeypatch):
    request.getfixturevalue(caches_fixture)
    cards = request.getfixturevalue("links")  # the table links, by table number
    monkeypatch.setattr(table_api.SignInThrottle, "rate", "3/hour", raising=False)
    for _ in range(3):
        assert APIClient().post("/api/table/sign-in/", {"code": "ZZZZZZZZ"}, format="json").status_code == 400
    assert APIClient().post("/api/table/sign-in/", {"code": cards[1].code}, format="json").status_code == 429


def test_redis_down_mid_window_sign_in_limits_still_count(tmp_path, settings):
    """A real ``redis-server`` of the test's own holds the counters (with their expiry) until it is killed;
    the limit then keeps counting in memory and still blocks."""
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        with override_settings(CACHES=caches_config(redis_url=server.url, key_prefix="faulty", socket_timeout=0.3)):
            settings.SIGN_IN_FAILURES_PER_ADDRESS = 4
            settings.SIGN_IN_WINDOW_MINUTES = 10
            for n in range(2):
                assert _sign_in(Client(), f"nobody{n}").status_code == 200
            keys = server.command("KEYS", "*sign-in-failures*").decode()
            key = next(line for line in keys.split("\r\n") if "sign-in-failures" in line)
            assert 0 < int(server.command("TTL", key).decode().strip(":\r\n")) <= 600  # it expires
            assert server.command("GET", key).decode().split("\r\n")[1] == "2"
            server.kill()  # the 2 counted so far are gone with it; the count starts again in memory
            for n in range(2, 6):
                assert _sign_in(Client(), f"nobody{n}").status_code == 200
            assert _sign_in(Client(), "nobody9").status_code == 429
    finally:
        server.stop()
