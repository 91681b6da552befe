"""Health that tells the truth (issue 37), for ``/healthz`` and the operator's page, with django-health-check.

The checks, each a django-health-check :class:`~health_check.base.HealthCheck` run through its ``get_result``
(timeouts, errors caught and logged):

* ``database``: the library's ``Database`` (``SELECT 1``);
* ``cache``: the library's ``Cache`` (a key written and read back);
* ``broker``: the library's ``Redis`` ping of ``CELERY_BROKER_URL``;
* ``worker``: the library's Celery ``Ping``: a live worker answers and consumes the task queue;
* ``beat``: :class:`BeatHeartbeat`: beat's heartbeat task (:func:`plumbing.tasks.beat_heartbeat_write`, every
  ``BEAT_HEARTBEAT_SECONDS``) ran within ``BEAT_HEARTBEAT_MAX_AGE_SECONDS``;
* ``outbox``: :class:`OutboxBacklog`: no message has waited longer than ``OUTBOX_MAX_AGE_SECONDS``.

The embedded default (no ``REDIS_URL``) has no broker, worker or beat: tasks run in-process, so those three say
"not used" rather than failing (:data:`NOT_USED`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from health_check.base import HealthCheck
from health_check.checks import Cache, Database
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable

from klawerjas_league.celery import app as celery_app
from plumbing.models import OutboxMessage
from plumbing.tasks import beat_heartbeat_read

#: Status of a check the installation does not need (the embedded default's broker, worker and beat).
NOT_USED = "not used"


@dataclasses.dataclass
class BeatHeartbeat(HealthCheck):
    """Beat sent its heartbeat task and a worker ran it within ``max_age`` (``BEAT_HEARTBEAT_MAX_AGE_SECONDS``,
    a few heartbeat intervals). :raises ServiceUnavailable: none ever, or the last too long ago."""

    max_age: datetime.timedelta = dataclasses.field(
        default_factory=lambda: datetime.timedelta(seconds=settings.BEAT_HEARTBEAT_MAX_AGE_SECONDS), repr=False)

    async def run(self) -> None:
        last = await sync_to_async(beat_heartbeat_read)()
        if last is None:
            raise ServiceUnavailable("no heartbeat from beat yet")
        age = timezone.now() - last
        if age > self.max_age:
            raise ServiceUnavailable(f"last heartbeat {int(age.total_seconds())} s ago "
                                     f"(more than {int(self.max_age.total_seconds())} s)")


def outbox_backlog() -> tuple[int, datetime.timedelta | None]:
    """Pending outbox messages: ``(count, age of the oldest or None)``. Two queries on the pending index."""
    pending = OutboxMessage.objects.filter(done_at__isnull=True)
    oldest = pending.order_by("created_at").values_list("created_at", flat=True).first()
    return pending.count(), (timezone.now() - oldest if oldest else None)


@dataclasses.dataclass
class OutboxBacklog(HealthCheck):
    """No outbox message has waited longer than ``max_age`` (``OUTBOX_MAX_AGE_SECONDS``): work queued by a change
    (e-mails, standings) reaches a worker. :raises ServiceUnavailable: the oldest pending message is older."""

    max_age: datetime.timedelta = dataclasses.field(
        default_factory=lambda: datetime.timedelta(seconds=settings.OUTBOX_MAX_AGE_SECONDS), repr=False)

    async def run(self) -> None:
        count, oldest = await sync_to_async(outbox_backlog)()
        if oldest is not None and oldest > self.max_age:
            raise ServiceUnavailable(f"{count} pending, the oldest {int(oldest.total_seconds())} s old "
                                     f"(more than {int(self.max_age.total_seconds())} s)")


def _broker_client() -> Any:
    from redis.asyncio import Redis as RedisClient

    return RedisClient.from_url(celery_app.conf.broker_url, socket_connect_timeout=2, socket_timeout=2)


def uses_broker() -> bool:
    """Whether tasks go through a broker to a worker (``REDIS_URL`` set); the embedded default runs them here."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def health_checks() -> dict[str, HealthCheck | None]:
    """The checks by name; ``None`` for one this installation does not use (no broker: no worker, no beat)."""
    queued = uses_broker()
    return {
        "database": Database(),
        "cache": Cache(),
        "broker": Redis(client_factory=_broker_client) if queued else None,
        "worker": Ping(app=celery_app, timeout=datetime.timedelta(seconds=1), limit=1) if queued else None,
        "beat": BeatHeartbeat() if queued else None,
        "outbox": OutboxBacklog(),
    }


_DETAILS: dict[str, Callable[[], str]] = {
    "database": lambda: settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
    "cache": lambda: settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
    "broker": lambda: str(celery_app.conf.broker_url).split("://", 1)[0],
}


def _ok_detail(name: str) -> str:
    if name in _DETAILS:
        return _DETAILS[name]()
    if name == "beat":
        last = beat_heartbeat_read()
        if last is None:  # the cache lost it since the check passed
            return ""
        return _("last heartbeat %(seconds)s s ago") % {"seconds": int((timezone.now() - last).total_seconds())}
    if name == "outbox":
        count, oldest = outbox_backlog()
        return _("%(count)s pending, the oldest %(seconds)s s old") % {
            "count": count, "seconds": int(oldest.total_seconds()) if oldest else 0}
    return "pong"


def health_report() -> dict[str, dict[str, str]]:
    """Run every check (concurrently, each with its timeout): ``{name: {"status": "ok" | "error" | "not used",
    "detail": text}}``. The detail of an error is the check's message, which may name hosts: staff only."""
    checks = health_checks()

    async def gather() -> list[Any]:
        running = [check.get_result() for check in checks.values() if check is not None]
        return list(await asyncio.gather(*running))

    results = iter(async_to_sync(gather)())
    report: dict[str, dict[str, str]] = {}
    for name, check in checks.items():
        if check is None:
            report[name] = {"status": NOT_USED, "detail": _("tasks run in-process (no REDIS_URL)")}
            continue
        result = next(results)
        if result.error is None:
            report[name] = {"status": "ok", "detail": _ok_detail(name)}
        else:
            report[name] = {"status": "error", "detail": str(result.error)[:300]}
    return report


def healthz(request: HttpRequest) -> JsonResponse:
    """``GET /healthz``: 200 ``{"status": "ok", "failing": []}`` when every check used passes, else 503 with
    ``"status": "unavailable"`` and ``"failing": [names]`` (``database``, ``cache``, ``broker``, ``worker``,
    ``beat``, ``outbox``).

    Only signed-in staff also get ``"checks"``: each check's ``ok``, ``error`` or ``not used`` and its detail
    (the backend, or the error's text, which can name hosts and ports: not for anonymous callers, issue 16).
    """
    results = health_report()
    failing = [name for name, result in results.items() if result["status"] == "error"]
    body: dict[str, object] = {"status": "unavailable" if failing else "ok", "failing": failing}
    user = getattr(request, "user", None)
    if user is not None and user.is_active and user.is_staff:
        body["checks"] = results
    return JsonResponse(body, status=503 if failing else 200)
