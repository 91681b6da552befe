"""``/healthz`` (django-health-check, issue 37): 200 when the database, cache, broker, a worker, beat and the
outbox are well; 503 naming what is not; the checks' details (backends, error text with hosts and ports) only
for signed-in staff. The embedded default has no broker, worker or beat: "not used", not failing."""

from datetime import timedelta

import pytest
from django.test import override_settings

from klawerjas_league.celery import app as celery_app
from plumbing.tasks import beat_heartbeat_write

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def embedded_default(settings):
    """Tasks in-process, as without REDIS_URL (CI sets one, with no worker for these tests): the tests that need a
    broker say so themselves."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


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
    assert set(body["checks"]) == {"database", "cache", "broker", "worker", "beat", "outbox"}
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok", "cache": "ok", "outbox": "ok", "broker": "not used", "worker": "not used",
        "beat": "not used"}  # the embedded default: tasks run in-process


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
    # no broker: no worker answers and beat's heartbeat never ran
    assert response.json() == {"status": "unavailable", "failing": ["broker", "worker", "beat"]}
    assert b"127.0.0.1" not in response.content and b"Error" not in response.content  # no internals


def test_healthz_503_names_an_outbox_message_waiting_too_long(staff_client):
    from django.utils import timezone

    from plumbing.models import OutboxMessage

    message = OutboxMessage.objects.create(task="clubs.ruling_email", args=[1])
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    response = staff_client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["outbox"]
    assert body["checks"]["outbox"]["detail"].startswith("Unavailable: 1 pending, the oldest 66")


def test_healthz_names_beat_when_its_heartbeat_is_old(staff_client, monkeypatch):
    from django.utils import timezone

    from klawerjas_league import health

    monkeypatch.setattr(health, "uses_broker", lambda: True)
    monkeypatch.setattr(health, "_broker_client", lambda: _AnsweringRedis())
    monkeypatch.setattr(health.Ping, "run", lambda self: None)  # a worker answers (proved in the fault suite)
    beat_heartbeat_write(now=timezone.now() - timedelta(seconds=30))
    assert staff_client.get("/healthz").status_code == 200
    beat_heartbeat_write(now=timezone.now() - timedelta(minutes=4))
    response = staff_client.get("/healthz")
    assert response.status_code == 503 and response.json()["failing"] == ["beat"]
    assert "last heartbeat 24" in response.json()["checks"]["beat"]["detail"]


class _AnsweringRedis:
    """A broker client whose PING answers (the library's Redis check calls ``ping`` and ``aclose``)."""

    async def ping(self) -> bool:
        return True

    async def aclose(self) -> None:
        return None


def test_home_page_links_the_admin(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/admin/"' in response.content
