"""Cross-cutting Celery tasks (the outbox's delivery task is defined in plumbing/outbox.py and
registered through the import here)."""

import datetime
import socket
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from plumbing.backups import backup_scheduled
from plumbing.outbox import outbox_deliver_task, outbox_flush  # noqa: F401 (the worker's tasks)
from plumbing.services import task_receipt_claim

#: The cache key of beat's heartbeat: the time (ISO 8601, UTC) the heartbeat task last ran.
BEAT_HEARTBEAT_KEY = "health:beat-heartbeat"
def beat_heartbeat_write(*, now: datetime.datetime | None = None) -> datetime.datetime:
    """Record that beat's heartbeat task ran now (the cache, kept a day). :returns: the time written."""
    now = now or timezone.now()
    cache.set(BEAT_HEARTBEAT_KEY, now.isoformat(), timeout=24 * 3600)
    return now


def beat_heartbeat_read() -> datetime.datetime | None:
    """When beat's heartbeat task last ran, or ``None`` (never, or the cache lost it)."""
    value = cache.get(BEAT_HEARTBEAT_KEY)
    return datetime.datetime.fromisoformat(value) if value else None


@shared_task(name="klawerjas_league.receipt_write")
def receipt_write(key: str) -> dict[str, object]:
    """Write a :class:`~plumbing.models.TaskReceipt` for ``key`` once (idempotent).

    Used to prove the wiring end to end (broker → worker → database) and by the health tooling.

    :returns: ``{"key": key, "written": bool, "worker": hostname}``.
    """
    worker = socket.gethostname()
    with transaction.atomic():
        written = task_receipt_claim(key=key, task="klawerjas_league.receipt_write", worker=worker)
    return {"key": key, "written": written, "worker": worker}


@shared_task(name="klawerjas_league.outbox_flush", ignore_result=True)
def outbox_flush_task() -> int:
    """Send every waiting outbox message again (Celery beat). :returns: how many were sent."""
    return outbox_flush()


@shared_task(name="klawerjas_league.beat_heartbeat", ignore_result=True)
def beat_heartbeat_task() -> str:
    """Record that beat is alive (every ``BEAT_HEARTBEAT_SECONDS``; ``/healthz`` checks its age).

    :returns: the time written (ISO 8601)."""
    return beat_heartbeat_write().isoformat()


@worker_ready.connect
def outbox_flush_when_worker_starts(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts sends what waited while none ran (or while the broker was down)."""
    outbox_flush_task.delay()


@shared_task(name="klawerjas_league.backup_scheduled", ignore_result=True, time_limit=3600, soft_time_limit=3500)
def backup_scheduled_task() -> str:
    """The daily backup (Celery beat, ``BACKUP_HOUR``): ``plumbing.backups.backup_scheduled``, encrypted
    to ``BACKUP_AGE_RECIPIENT`` into ``BACKUP_DIR``, then rotated to ``BACKUP_KEEP`` (POPIA s19: safeguards
    against loss). :returns: the backup's path, or ``""`` when skipped (no recipient configured)."""
    made = backup_scheduled()
    return str(made or "")
