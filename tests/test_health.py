"""``/healthz``: 200 when the database, cache and broker answer; 503 naming the one that does not."""

import pytest
from django.test import override_settings

from klawerjas_league.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_healthz_ok_reports_every_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert set(body["checks"]) == {"database", "cache", "broker"}
    assert all(check["status"] == "ok" for check in body["checks"].values())


def test_healthz_503_names_an_unreachable_cache(client):
    dead_redis = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                              "LOCATION": "redis://127.0.0.1:1/0", "OPTIONS": {"socket_connect_timeout": 0.2}}}
    with override_settings(CACHES=dead_redis):
        response = client.get("/healthz")
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
    assert response.json()["failing"] == ["broker"]


def test_home_page_links_the_admin(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/admin/"' in response.content
