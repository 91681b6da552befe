"""Health checks for ``/healthz``: the database, the cache and the Celery broker."""

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest, JsonResponse

from klawerjas_league.celery import app as celery_app


def check_database() -> str:
    """Run ``SELECT 1`` on the default database. :returns: the database vendor."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connections["default"].vendor


def check_cache() -> str:
    """Write and read back a key. :returns: the cache backend's class name. :raises RuntimeError: on a mismatch."""
    cache = caches["default"]
    token = str(time.monotonic_ns())
    cache.set("healthz:probe", token, timeout=30)
    if cache.get("healthz:probe") != token:
        raise RuntimeError("cache did not return the value just written")
    return type(cache).__name__


def check_broker() -> str:
    """Connect to the Celery broker. :returns: ``"in-process"`` when tasks run eagerly, else the transport."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=2)
        return str(conn.transport.driver_name)


CHECKS: dict[str, Callable[[], str]] = {"database": check_database, "cache": check_cache, "broker": check_broker}


def healthz(request: HttpRequest) -> JsonResponse:
    """``GET /healthz``: 200 ``{"status": "ok", "failing": []}`` when every check answers, else 503 with
    ``"status": "unavailable"`` and ``"failing": [names]`` (``database``, ``cache``, ``broker``).

    Only signed-in staff also get ``"checks"``: each check's ``ok`` or ``error`` and its detail (the backend,
    or the error's text, which can name hosts and ports: not for anonymous callers, issue 16).
    """
    results: dict[str, dict[str, str]] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = {"status": "ok", "detail": check()}
        except Exception as exc:  # noqa: BLE001 - any failure of a dependency is reported, not raised
            results[name] = {"status": "error", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    failing = [name for name, result in results.items() if result["status"] != "ok"]
    body: dict[str, object] = {"status": "unavailable" if failing else "ok", "failing": failing}
    user = getattr(request, "user", None)
    if user is not None and user.is_active and user.is_staff:
        body["checks"] = results
    return JsonResponse(body, status=503 if failing else 200)
