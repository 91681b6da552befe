"""The operator's page (issue 37): for staff, what a union's server is doing and what needs a hand.

``/operator/`` shows the health checks (:func:`klawerjas_league.health.health_report`), the outbox's stuck
messages with their error and a Retry and a Drop (``plumbing.outbox``; a drop asks first), the newest
backup in ``BACKUP_DIR`` and its size (``scripts/backup`` writes ``klawerjas-<UTC>.{dump,sqlite3,json}[.age]``),
and the versions running. Staff only (``is_staff``): anyone else signed in gets 403.
"""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import celery
import django
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from klawerjas_league.health import health_report
from plumbing.models import OutboxMessage
from plumbing.outbox import outbox_message_drop, outbox_message_retry, outbox_stuck


@dataclass(frozen=True)
class Backup:
    """A backup file: its name, size in bytes and modification time (aware, UTC)."""

    name: str
    size: int
    written_at: datetime


def backup_latest(*, folder: Path | None = None) -> Backup | None:
    """The newest ``klawerjas-*`` file in ``folder`` (default ``settings.BACKUP_DIR``), or ``None`` when there
    is none (or no folder)."""
    folder = Path(folder or settings.BACKUP_DIR)
    try:
        files = [path for path in folder.iterdir() if path.is_file() and path.name.startswith("klawerjas-")]
    except OSError:
        return None
    if not files:
        return None
    newest = max(files, key=lambda path: path.stat().st_mtime)
    stat = newest.stat()
    return Backup(name=newest.name, size=stat.st_size, written_at=datetime.fromtimestamp(stat.st_mtime, tz=UTC))


@functools.cache
def _git_commit() -> str:
    commit = os.environ.get("GIT_COMMIT", "").strip()
    if commit:
        return commit[:12]
    try:
        out = subprocess.run(["git", "-C", str(settings.BASE_DIR), "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def database_version() -> str:
    """The database server's name and version, e.g. ``PostgreSQL 17.2`` or ``SQLite 3.46.1``."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            return f"PostgreSQL {cursor.fetchone()[0].split()[0]}"
    if connection.vendor == "sqlite":
        import sqlite3

        return f"SQLite {sqlite3.sqlite_version}"
    return connection.display_name


def versions_running() -> list[tuple[str, str]]:
    """``[(what, version)]``: the project's commit (``GIT_COMMIT``, else ``git rev-parse``; "unknown" without
    either), Django, Celery, Python and the database."""
    return [
        (_("This site (commit)"), _git_commit() or _("unknown")),
        ("Django", django.get_version()),
        ("Celery", celery.__version__),
        ("Python", platform.python_version()),
        (_("Database"), database_version()),
    ]


def _staff(request: HttpRequest) -> None:
    if not (request.user.is_active and request.user.is_staff):
        raise PermissionDenied


@login_required
def operator_home(request: HttpRequest) -> HttpResponse:
    """The operator's page: health, the stuck outbox, the last backup, the versions."""
    _staff(request)
    report = health_report()
    return render(request, "operator/home.html", {
        "checks": list(report.items()),
        "failing": [name for name, result in report.items() if result["status"] == "error"],
        "stuck": outbox_stuck(),
        "backup": backup_latest(),
        "versions": versions_running(),
    })


@login_required
@require_POST
def outbox_retry(request: HttpRequest, message_id: int) -> HttpResponse:
    """Retry a stuck outbox message (``outbox_message_retry``)."""
    _staff(request)
    if outbox_message_retry(message_id=message_id):
        messages.success(request, _("The message was handed to the worker again."))
    else:
        messages.error(request, _("The message could not be handed on: it ran already, or the broker is down."))
    return redirect("operator")


@login_required
@require_http_methods(["GET", "POST"])
def outbox_drop(request: HttpRequest, message_id: int) -> HttpResponse:
    """Ask, then drop a stuck outbox message (``outbox_message_drop``): its work is given up."""
    _staff(request)
    message = OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).first()
    if message is None:
        raise Http404("No such pending message.")
    if request.method == "POST":
        outbox_message_drop(message_id=message_id, by=request.user)
        messages.success(request, _("The message was dropped; it will not run."))
        return redirect("operator")
    return render(request, "operator/drop.html", {"message": message})
