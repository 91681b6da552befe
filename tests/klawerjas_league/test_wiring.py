"""The real wiring: a task goes through the Redis broker to a live worker and writes to PostgreSQL."""

import uuid

import pytest
from django.conf import settings
from django.db import connection

from plumbing.models import TaskReceipt
from plumbing.tasks import receipt_write
from tests.conftest import require_services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_task_runs_on_the_live_worker_and_writes_to_postgresql(live_worker):
    require_services()
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    key = f"wiring-{uuid.uuid4().hex}"

    result = receipt_write.delay(key)
    payload = result.get(timeout=30)

    assert payload == {"key": key, "written": True, "worker": payload["worker"]}
    receipt = TaskReceipt.objects.get(key=key)  # read back from PostgreSQL by the test process
    assert receipt.task == "klawerjas_league.receipt_write"
    assert connection.vendor == "postgresql"
    # The live worker, not this process, ran it: the result came back through Redis and the worker logged it.
    assert result.backend.__class__.__name__ == "RedisBackend"
    assert f"receipt_write[{result.id}] succeeded" in live_worker.log_path.read_text()


def test_second_delivery_of_the_same_task_is_a_no_op(live_worker):
    require_services()
    key = f"twice-{uuid.uuid4().hex}"
    first = receipt_write.delay(key).get(timeout=30)
    second = receipt_write.delay(key).get(timeout=30)
    assert first["written"] is True
    assert second["written"] is False
    assert TaskReceipt.objects.filter(key=key).count() == 1


def test_healthz_reports_postgresql_redis_and_the_broker(client, admin_user, live_worker, settings):
    require_services()
    import os
    import time

    from plumbing.cache import caches_config
    from plumbing.tasks import beat_heartbeat_read, beat_heartbeat_task

    # the worker's cache (its key prefix, not this test's own): beat's heartbeat is written there
    settings.CACHES = caches_config(redis_url=settings.REDIS_URL,
                                    key_prefix=os.environ.get("CACHE_KEY_PREFIX", "klawerjas"))

    beat_heartbeat_task.delay()  # what beat sends every BEAT_HEARTBEAT_SECONDS, run by the live worker
    deadline = time.monotonic() + 30
    while beat_heartbeat_read() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    anonymous = client.get("/healthz")
    assert anonymous.status_code == 200 and anonymous.json() == {"status": "ok", "failing": []}  # no internals
    client.force_login(admin_user)
    checks = client.get("/healthz").json()["checks"]
    assert checks["database"]["detail"] == "postgresql"
    assert checks["cache"]["detail"] == "DegradingRedisCache"
    assert checks["broker"]["detail"] == "redis"
    assert checks["worker"]["status"] == checks["beat"]["status"] == checks["outbox"]["status"] == "ok"
