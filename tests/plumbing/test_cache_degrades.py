"""The cache degrades to the database when Redis is unreachable (issue 16): no 500, and no stale value after.

A ``redis-server`` of the test's own (``tests/private_redis.py``) is the cache; it is killed and restarted,
never the machine's shared Redis.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.utils import timezone

from matches.models import StandingsRow
from tests.private_redis import PrivateRedis

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(tmp_path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    config = {"default": {"BACKEND": "plumbing.cache.DegradingRedisCache", "LOCATION": server.url,
                          "KEY_PREFIX": "degrade-test",
                          "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.3, "SOCKET_TIMEOUT": 0.3}}}
    with override_settings(CACHES=config):
        yield server
    server.stop()


def test_reads_and_writes_degrade_when_redis_is_down(redis_cache):
    cache = caches["default"]
    assert cache.set("k", 1) and cache.get("k") == 1 and cache.incr("k") == 2
    redis_cache.kill()
    assert cache.get("k", "missing") == "missing"
    assert cache.get_many(["k"]) == {}
    assert cache.set("k", 5) is False and cache.add("n", 1) is False and cache.delete("k") is False
    assert cache.incr("k", 3) == 3  # not kept while Redis is away


def test_a_write_lost_while_down_empties_the_cache_when_redis_is_back(redis_cache):
    cache = caches["default"]
    cache.set("standings", "old table", None)
    redis_cache.command("SET", "broker-key", "kept")  # not the cache's: never touched
    redis_cache.save()
    redis_cache.kill()
    assert cache.delete("standings") is False  # the invalidation is lost ...
    redis_cache.start()  # ... and Redis comes back with its snapshot, the old table in it
    assert redis_cache.command("EXISTS", "degrade-test:1:standings").startswith(b":1")
    assert cache.get("standings") is None  # dropped, not served stale
    assert redis_cache.command("GET", "broker-key").endswith(b"kept\r\n")
    cache.set("standings", "new table")
    assert cache.get("standings") == "new table"


def test_public_standings_page_and_publishing_answer_without_redis(redis_cache, client, world,
                                                                  django_capture_on_commit_callbacks):
    league = world.a.league
    StandingsRow.objects.create(competition=league, team=world.a.home, position=1, played=1, league_points=2,
                                computed_at=timezone.now())
    assert client.get(f"/competitions/{league.pk}/standings/").status_code == 200
    redis_cache.kill()
    page = client.get(f"/competitions/{league.pk}/standings/")
    assert page.status_code == 200 and world.a.home.name in page.content.decode()
    client.force_login(world.a.official)
    with django_capture_on_commit_callbacks(execute=True):  # the token renewal and the e-mail after commit
        published = client.post(f"/api/competitions/{league.pk}/standings/", {"title": "Round 1 (Redis down)"},
                                content_type="application/json")
    assert published.status_code == 201, published.content
    page = client.get(f"/competitions/{league.pk}/standings/")
    assert page.status_code == 200 and "Round 1 (Redis down)" in page.content.decode()
    failing = client.get("/healthz").json()["failing"]
    # the cache is named; under CI (REDIS_URL, no worker in this test) the worker and beat are named too
    assert failing[0] == "cache" and set(failing) <= {"cache", "worker", "beat"}
