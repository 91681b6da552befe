"""``/healthz``: 200 when the database, cache and broker answer; 503 naming the one that does not; the
checks' details (backends, error text with hosts and ports) only for signed-in staff."""

import pytest
from django.test import override_settings

from klawerjas_league.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(is_staff=True))
    return client


def test_healthz_ok_reports_every_check(staff_client):
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert set(body["checks"]) == {"database", "cache", "broker"}
    assert all(check["status"] == "ok" for check in body["checks"].values())


def test_healthz_tells_an_anonymous_caller_the_status_only(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "failing": []}


def test_healthz_503_names_an_unreachable_cache(staff_client):
    dead_redis = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                              "LOCATION": "redis://127.0.0.1:1/0", "OPTIONS": {"socket_connect_timeout": 0.2}}}
    with override_settings(CACHES=dead_redis):
        response = staff_client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["failing"] == ["cache"]
    assert body["checks"]["cache"]["status"] == "error"
    assert body["checks"]["database"]["status"] == "ok"


def test_healthz_503_names_an_unreachable_broker(client, monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "failing": ["broker"]}
    assert b"127.0.0.1" not in response.content and b"Error" not in response.content  # no internals


def test_home_page_links_the_admin(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/admin/"' in response.content
