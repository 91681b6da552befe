"""A transactional outbox for Celery tasks (issue 16): work queued by a change is never lost to a broker outage.

Before, a service queued a task with ``transaction.on_commit(lambda: task.delay(...))``. With Redis down the
``delay`` raised after the change had committed: the request answered 500, and the e-mail or the standings
recompute was never queued, so a retry found the result approved and the table stayed wrong for good. Now:

* :func:`outbox_enqueue` (call **inside** the service's transaction) writes an
  :class:`~plumbing.models.OutboxMessage`; the change and the need to act on it commit together.
* After commit it tries to hand the message to the broker (:func:`outbox_dispatch`). If the broker is
  unreachable nothing is raised: the request answers as usual, and the message waits.
* :func:`outbox_flush` (Celery beat every ``OUTBOX_FLUSH_SECONDS``, and each worker as it starts) sends every
  waiting message again, and one handed to the broker more than ``OUTBOX_REDISPATCH_SECONDS`` ago that has not
  run (a Redis that lost it), so everything catches up by itself once Redis is back.
* The worker's :func:`outbox_deliver` locks the row, runs the task and marks it done in one transaction: a
  message sent twice (re-sent, or redelivered by the broker) runs once. The tasks are idempotent besides. Its
  task, :func:`outbox_deliver_task`, is defined here beside what it runs, so that this module and
  ``plumbing.tasks`` do not import each other.
* A reader may run a pending message itself (:func:`outbox_run_pending`): the public standings do, so the table
  is right at the next read even while no worker runs.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app as app
from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from plumbing.models import OutboxMessage

logger = logging.getLogger(__name__)


def outbox_enqueue(*, task: str, args: list[object], key: str = "") -> OutboxMessage:
    """Write a message for ``task(*args)`` in the current transaction; after commit, try to send it.

    :param task: a registered Celery task name. :param args: JSON-serialisable positional arguments (ids).
    :param key: what the task is about (``standings:12``), for :func:`outbox_run_pending`.
    """
    message = OutboxMessage.objects.create(task=task, args=list(args), key=key)
    message_id = message.pk
    transaction.on_commit(lambda: outbox_dispatch(message_ids=[message_id]))
    return message


def outbox_dispatch(*, message_ids: list[int] | None = None) -> int:
    """Hand waiting messages to the broker (``message_ids``, else every one due); never raises.

    Due: not done, and never sent or sent more than ``OUTBOX_REDISPATCH_SECONDS`` ago. Stops at the first
    send that fails (the broker is down; the flush tries again). :returns: how many were sent.
    """
    now = timezone.now()
    due = OutboxMessage.objects.filter(done_at__isnull=True)
    if message_ids is not None:
        due = due.filter(pk__in=message_ids)
    else:
        stale = now - timedelta(seconds=settings.OUTBOX_REDISPATCH_SECONDS)
        due = due.filter(dispatched_at__isnull=True) | due.filter(dispatched_at__lt=stale)
    sent = 0
    for message_id in list(due.order_by("id").values_list("pk", flat=True)[: settings.OUTBOX_BATCH]):
        try:
            outbox_deliver_task.apply_async(args=(message_id,))
        except Exception as error:  # noqa: BLE001 - a broker outage must not fail the request; the row waits
            logger.warning("outbox: broker unreachable, message %s waits for the flush: %s", message_id, error)
            break
        OutboxMessage.objects.filter(pk=message_id).update(
            dispatched_at=timezone.now(), attempts=F("attempts") + 1
        )
        sent += 1
    return sent


def outbox_flush() -> int:
    """Send every due message again (see :func:`outbox_dispatch`). :returns: how many were sent."""
    return outbox_dispatch()


def outbox_deliver(*, message_id: int) -> bool:
    """Run message ``message_id``'s task and mark it done, in one transaction under the row's lock.

    :returns: True when this call ran it; False when it was done already (a second delivery) or is gone.
    """
    with transaction.atomic():
        message = OutboxMessage.objects.select_for_update().filter(pk=message_id, done_at__isnull=True).first()
        if message is None:
            return False
        if message.task not in app.tasks:  # a web process: the tasks modules are imported on first need
            app.loader.import_default_modules()
        app.tasks[message.task](*message.args)
        message.done_at = timezone.now()
        message.save(update_fields=["done_at"])
    return True


@shared_task(name="klawerjas_league.outbox_deliver", ignore_result=True)
def outbox_deliver_task(message_id: int) -> bool:
    """Run one outbox message once (:func:`outbox_deliver`), on a worker. :returns: whether it ran.

    A task that raises leaves the message pending (its transaction rolled back) with the error kept in
    ``last_error`` for the operator's page (:func:`outbox_stuck`), and the error is raised again for the log."""
    try:
        return outbox_deliver(message_id=message_id)
    except Exception as error:
        OutboxMessage.objects.filter(pk=message_id).update(last_error=f"{type(error).__name__}: {error}"[:2000])
        raise


def outbox_stuck(*, limit: int = 50) -> list[OutboxMessage]:
    """Pending messages (not run) that have waited longer than ``OUTBOX_MAX_AGE_SECONDS`` or whose last run
    failed, oldest first, at most ``limit``: what the operator's page offers to retry or drop. One query."""
    since = timezone.now() - timedelta(seconds=settings.OUTBOX_MAX_AGE_SECONDS)
    pending = OutboxMessage.objects.filter(done_at__isnull=True)
    return list((pending.filter(created_at__lt=since) | pending.exclude(last_error="")).order_by("id")[:limit])


def outbox_message_retry(*, message_id: int) -> bool:
    """Hand a pending message to the broker again now (the operator's Retry), or run it here when tasks run
    in-process. :returns: whether it was handed on (False: it ran already, is gone, or the broker is down).
    """
    updated = OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(
        dispatched_at=None, last_error="")
    return bool(updated) and outbox_dispatch(message_ids=[message_id]) == 1


@transaction.atomic
def outbox_message_drop(*, message_id: int, by: object) -> bool:
    """Delete a pending message that must not run (the operator's Drop, after a confirmation): its e-mail or
    recompute is given up. Logged with who dropped it. :returns: whether a pending message was dropped.
    """
    message = OutboxMessage.objects.select_for_update().filter(pk=message_id, done_at__isnull=True).first()
    if message is None:
        return False
    logger.warning("outbox: message %s (%s %s) dropped by %s; last error: %s",
                   message.pk, message.task, message.args, by, message.last_error or "none")
    message.delete()
    return True


def outbox_run_pending(*, key: str) -> int:
    """Run, here and now, every message about ``key`` that has not run yet (a reader that needs it done).

    Each runs under its row's lock, exactly as a worker would (:func:`outbox_deliver`), so a worker that gets
    it later finds it done. 1 query when nothing is pending. :returns: how many this call ran.
    """
    pending = list(OutboxMessage.objects.filter(key=key, done_at__isnull=True).values_list("pk", flat=True))
    return sum(outbox_deliver(message_id=message_id) for message_id in pending)


def outbox_waiting(*, key: str) -> bool:
    """Whether a message about ``key`` waits unsent (the broker was unreachable when it committed). 1 query."""
    return OutboxMessage.objects.filter(key=key, done_at__isnull=True, dispatched_at__isnull=True).exists()
