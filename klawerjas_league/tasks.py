"""Cross-cutting Celery tasks."""

import socket

from celery import shared_task
from django.db import transaction

from klawerjas_league.services import task_receipt_claim


@shared_task(name="klawerjas_league.receipt_write")
def receipt_write(key: str) -> dict[str, object]:
    """Write a :class:`~klawerjas_league.models.TaskReceipt` for ``key`` once (idempotent).

    Used to prove the wiring end to end (broker → worker → database) and by the health tooling.

    :returns: ``{"key": key, "written": bool, "worker": hostname}``.
    """
    worker = socket.gethostname()
    with transaction.atomic():
        written = task_receipt_claim(key=key, task="klawerjas_league.receipt_write", worker=worker)
    return {"key": key, "written": written, "worker": worker}
