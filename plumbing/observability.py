"""Errors that reach someone and logs that can be read (issue 37): Sentry, ``ADMINS`` e-mail, the logging set-up.

* **Sentry** (:func:`sentry_init`, from settings when ``SENTRY_DSN`` is set): unhandled errors of requests and of
  Celery tasks, and every ``logger.error``, go to the operator's Sentry project. Nothing personal is sent
  (:data:`SENTRY_DATA_COLLECTION`, stricter than ``send_default_pii=False``; POPIA s19: the players' names and
  e-mail addresses stay on the server): no user, cookie, client address, body or local variable, only the
  request's path, the stack and the request id (tag ``request_id``).
* **E-mail to ADMINS** (:func:`admins_from_env`): without Sentry, Django's ``AdminEmailHandler`` mails each 500 to
  the addresses in ``ADMINS`` through the site's ordinary mail settings.
* **Logs** (:func:`logging_config`): one line per record on standard error, with the time (ISO 8601, UTC), the
  level, the logger, the request id (django-guid's ``X-Request-ID``; ``-`` outside a request) and the message;
  ``LOG_FORMAT=json`` writes each as one JSON object (:class:`JsonFormatter`) for a log shipper.
* **The request id** comes from django-guid (``DJANGO_GUID`` in settings). :class:`RequestIdTrustMiddleware`
  removes a client's own ``X-Request-ID`` unless a trusted proxy is in front (``NUM_PROXIES``), whose id (nginx's
  ``$request_id``, ``deploy/nginx/``) then ties its access log to ours.

This is a plumbing module: it imports no app.
"""

from __future__ import annotations

import json
import logging
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import formataddr, getaddresses
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django_guid import get_guid
from django_guid.integrations import CeleryIntegration

#: The header that carries the request id, to the site (from the proxy) and back (to the client).
REQUEST_ID_HEADER = "X-Request-ID"


def admins_from_env(text: str) -> list[str]:
    """The ``ADMINS`` list (Django 6: e-mail addresses as strings) from an environment value such as
    ``"Ops <ops@example.org>, Anna <anna@example.org>; bob@example.org"``: commas or semicolons between entries,
    a display name optional. Entries without an ``@`` are dropped; each address appears once.

    :returns: ``["Ops <ops@example.org>", "Anna <anna@example.org>", "bob@example.org"]`` (names kept, quoted where
        they need it, as Django accepts them in ``To:``).
    """
    found: list[str] = []
    seen: set[str] = set()
    for name, address in getaddresses([text.replace(";", ",")]):
        address = address.strip()
        if "@" not in address or address.lower() in seen:
            continue
        seen.add(address.lower())
        found.append(formataddr((" ".join(name.split()), address)))
    return found


def git_commit(base_dir: Path) -> str:
    """The commit checked out in ``base_dir`` (40 hex digits), or ``""`` where there is no git checkout (a
    container image: set ``SENTRY_RELEASE`` there)."""
    try:
        done = subprocess.run(["git", "-C", str(base_dir), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) == 40 else ""


#: What Sentry may collect (sentry-sdk's ``data_collection``; see :func:`sentry_init`).
SENTRY_DATA_COLLECTION: dict[str, Any] = {
    "user_info": False,
    "cookies": {"mode": "off"},
    "http_headers": {"request": {"mode": "allowlist",
                                 "terms": ["user-agent", "accept-language", "content-type", "host"]}},
    "http_bodies": [],
    "url_query_params": {"mode": "off"},
    "graphql": {"document": False, "variables": False},
    "gen_ai": {"inputs": False, "outputs": False},
    "database_query_data": False,
    "queues": False,
    "stack_frame_variables": False,
}


def _request_id_tag(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Sentry's ``before_send``: tag the event with the request id of the request (or task) that raised it, so
    the event, the log lines and the client's ``X-Request-ID`` can be matched."""
    request_id = get_guid()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def sentry_init(*, dsn: str, environment: str, release: str, traces_sample_rate: float = 0.0,
                transport: Any = None) -> bool:
    """Start Sentry's SDK with its Django and Celery integrations when ``dsn`` is set; do nothing otherwise.

    :param environment: Sentry's environment (``SENTRY_ENVIRONMENT``: ``production``, ``staging``…).
    :param release: the code's version (the git commit; ``""``: none). :param traces_sample_rate: the share of
        requests traced for performance (0: none; errors are always sent).
    :param transport: for tests, a ``sentry_sdk.transport.Transport`` that keeps the events instead of sending them.
    :returns: whether Sentry was started. POPIA s19: :data:`SENTRY_DATA_COLLECTION` (no user, cookies,
        addresses, bodies or local variables).
    """
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    options: dict[str, Any] = {}
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        # POPIA s19: nothing personal leaves the server. This is sentry-sdk's send_default_pii=False made stricter
        # (its data_collection option, which replaces send_default_pii): no user, cookies, query strings, request
        # bodies (a form holds names), local variables or SQL parameters; of the headers only these four.
        data_collection=SENTRY_DATA_COLLECTION,  # type: ignore[arg-type]  # a plain dict of the TypedDict's keys
        traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        before_send=_request_id_tag,  # type: ignore[arg-type]  # Sentry's Event is a TypedDict of this dict
        **options,
    )
    return True


class RequestIdTrustMiddleware:
    """Drop the client's ``X-Request-ID`` unless a trusted proxy is in front (``settings.NUM_PROXIES`` > 0), so
    django-guid makes a fresh id; behind the proxy of ``deploy/nginx/`` (which sets the header itself, replacing
    the client's) its id is kept. Goes just before ``django_guid.middleware.guid_middleware``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.NUM_PROXIES:
            request.META.pop("HTTP_X_REQUEST_ID", None)
        return self.get_response(request)


def _task_prerun(task: Any, **kwargs: Any) -> None:
    from django_guid.integrations.celery import signals

    if getattr(task.request, "is_eager", False) and get_guid():
        task.request.klawerjas_request_id_inherited = True  # run inside the request: keep its id, and after
        return
    signals.worker_prerun(task=task, **kwargs)


def _task_postrun(task: Any, **kwargs: Any) -> None:
    from django_guid.integrations.celery import signals

    if getattr(task.request, "klawerjas_request_id_inherited", False):
        return
    signals.clean_up(task=task, **kwargs)


class RequestIdCeleryIntegration(CeleryIntegration):
    """django-guid's Celery integration (a task sent from a request carries the request's id in its headers, and
    the worker logs under it), with one change: a task run in-process (``task_always_eager``, the embedded
    default without Redis) keeps the id of the request it runs in, and leaves it set after. django-guid's own
    handlers would give it a new id and then clear it, so the rest of the request logged no id and the response
    carried no ``X-Request-ID``."""

    def setup(self) -> None:
        """Connect django-guid's Celery signals, then swap its task start and end handlers for ours."""
        super().setup()
        from django_guid.integrations.celery import signals

        task_prerun.disconnect(signals.worker_prerun)
        task_postrun.disconnect(signals.clean_up)
        task_prerun.connect(_task_prerun, weak=False, dispatch_uid="klawerjas-request-id-prerun")
        task_postrun.connect(_task_postrun, weak=False, dispatch_uid="klawerjas-request-id-postrun")


def _utc_time(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: ``time`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``,
    ``message``, ``request_id`` (``null`` outside a request) and, for an exception, ``exception`` (its
    traceback as text). Newlines inside values are escaped, so a record is always one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _utc_time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """A line a person reads: ``2026-11-28T19:04:05.123Z ERROR django.request [<request id>] message``, the
    traceback on the lines after it."""

    def format(self, record: logging.LogRecord) -> str:
        line = (f"{_utc_time(record)} {record.levelname} {record.name} "
                f"[{getattr(record, 'request_id', None) or '-'}] {record.getMessage()}")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's ``LOGGING``: every record to standard error in ``log_format`` (``json`` or ``plain``) with its
    request id; Django's errors (a 500) also e-mailed to ``ADMINS`` when ``DEBUG`` is off (Django's
    ``AdminEmailHandler``, which sends nothing while ``ADMINS`` is empty, as it is when Sentry is on).

    :raises ValueError: a ``log_format`` other than ``json`` or ``plain``.
    """
    if log_format not in ("json", "plain"):
        raise ValueError(f"LOG_FORMAT must be 'json' or 'plain', not {log_format!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "django_guid.log_filters.CorrelationId", "correlation_id_field": "request_id"},
            "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        },
        "formatters": {
            "json": {"()": "plumbing.observability.JsonFormatter"},
            "plain": {"()": "plumbing.observability.PlainFormatter"},
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": log_format, "filters": ["request_id"]},
            "mail_admins": {"class": "django.utils.log.AdminEmailHandler", "level": "ERROR",
                            "filters": ["require_debug_false"]},
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own console handler is replaced by ours (the root's); the 500 e-mails stay.
            "django": {"handlers": ["mail_admins"], "level": "INFO", "propagate": True},
            # django-guid says at INFO, for every request, whether the header came: noise.
            "django_guid": {"level": "WARNING"},
        },
    }
