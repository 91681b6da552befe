"""Backups on a schedule and the restore drill (issue 37), around ``scripts/backup`` and ``scripts/restore``.

* :func:`backup_scheduled` (Celery beat, daily at ``BACKUP_HOUR``:``BACKUP_MINUTE``): ``scripts/backup`` writes the
  database, encrypted with age to ``BACKUP_AGE_RECIPIENT`` (POPIA s19: a backup holds e-mail addresses and password
  hashes, and this server cannot read it back), into ``BACKUP_DIR``; then :func:`backup_rotate` keeps the newest
  ``BACKUP_KEEP``. With no recipient it writes nothing and says so in the log (a warning, every day).
* :func:`backup_drill` (``manage.py backup_drill``): restores the newest backup with ``scripts/restore`` into a
  scratch database (never the site's), compares every table's row count with the database it was taken from,
  and drops the scratch database.

This is a plumbing module: it imports no app.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

PROJECT = Path(__file__).resolve().parent.parent
BACKUP_SCRIPT, RESTORE_SCRIPT = PROJECT / "scripts" / "backup", PROJECT / "scripts" / "restore"
#: The names scripts/backup and :func:`backup_run` give: ``klawerjas-20261128-031500.dump.age``.
#: (A second backup within the same second gets 4 more hex digits: ``klawerjas-20261128-031500-9f3a.dump.age``.)
BACKUP_NAME = re.compile(r"^klawerjas-(\d{8}-\d{6})(-[0-9a-f]{4})?\.(dump|sqlite3|json)(\.age)?$")


def _count(row: tuple[Any, ...] | None) -> int:
    """The number a ``SELECT count(*)`` answered (a row it always gives)."""
    assert row is not None
    return int(row[0])


class BackupError(Exception):
    """A backup, restore or drill that failed; ``str()`` says why (the script's own message included)."""


def database_url() -> str:
    """The URL of the site's database, as the scripts read it (``DATABASE_URL``, ``postgres://…`` or
    ``sqlite:////path``), built from ``settings.DATABASES["default"]`` so it is the database this process uses."""
    found = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{found['NAME']}"
    if connection.vendor != "postgresql":
        raise BackupError(f"backing up a {connection.vendor} database is not supported")
    user, password = found.get("USER") or "", found.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    port = f":{found['PORT']}" if found.get("PORT") else ""
    return f"postgres://{credentials}{found.get('HOST') or '127.0.0.1'}{port}/{found['NAME']}"


def _script_env(url: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": url, **(extra or {})}


def backup_recipients() -> tuple[str, str]:
    """``(BACKUP_AGE_RECIPIENT, BACKUP_AGE_RECIPIENTS_FILE)`` from settings; both empty: no backup can be made."""
    return settings.BACKUP_AGE_RECIPIENT, settings.BACKUP_AGE_RECIPIENTS_FILE


def backup_run(*, directory: Path, url: str | None = None) -> Path:
    """Write an encrypted backup of the database at ``url`` (default: the site's) into ``directory`` with
    ``scripts/backup``, named ``klawerjas-<UTC time>.<dump|sqlite3>.age``.

    :returns: the backup's path. :raises BackupError: no recipient configured, or the script failed (its
        message).
    """
    recipient, recipients_file = backup_recipients()
    if not recipient and not recipients_file:
        raise BackupError("no BACKUP_AGE_RECIPIENT (or BACKUP_AGE_RECIPIENTS_FILE) is configured")
    url = url or database_url()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    kind = "dump" if url.startswith(("postgres", "pgsql", "psql")) else "sqlite3"
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = directory / f"klawerjas-{stamp}.{kind}.age"
    if target.exists():  # two backups in one second (a drill right after the scheduled one)
        target = directory / f"klawerjas-{stamp}-{uuid.uuid4().hex[:4]}.{kind}.age"
    extra = {"BACKUP_AGE_RECIPIENT": recipient, "BACKUP_AGE_RECIPIENTS_FILE": recipients_file}
    done = subprocess.run([str(BACKUP_SCRIPT), str(target)], cwd=PROJECT, env=_script_env(url, extra),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=3000, check=False)
    if done.returncode != 0:
        raise BackupError(f"scripts/backup exited {done.returncode}: {done.stderr.strip()}")
    return target


def backups_listed(*, directory: Path) -> list[Path]:
    """The backups in ``directory`` named as :data:`BACKUP_NAME`, newest first (by the time in the name, then,
    within one second, by when the file was written)."""
    if not directory.is_dir():
        return []
    found = [path for path in directory.iterdir() if path.is_file() and BACKUP_NAME.match(path.name)]

    def age(path: Path) -> tuple[str, int]:
        return BACKUP_NAME.match(path.name).group(1), path.stat().st_mtime_ns  # type: ignore[union-attr]

    return sorted(found, key=age, reverse=True)


def backup_rotate(*, directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``directory`` (files of other names are never touched).

    :returns: the deleted paths. :raises ValueError: ``keep`` below 1 (rotation never deletes the last backup).
    """
    if keep < 1:
        raise ValueError("BACKUP_KEEP must be at least 1")
    deleted = backups_listed(directory=directory)[keep:]
    for path in deleted:
        path.unlink(missing_ok=True)
    return deleted


def backup_scheduled() -> Path | None:
    """The scheduled backup: :func:`backup_run` into ``BACKUP_DIR``, then :func:`backup_rotate` keeping
    ``BACKUP_KEEP``. With no recipient configured nothing is written and a warning says so.

    :returns: the new backup, or ``None`` when skipped. :raises BackupError: the backup failed (the task fails,
        so Sentry or the ``ADMINS`` e-mail hears of it).
    """
    directory = Path(settings.BACKUP_DIR)
    if not any(backup_recipients()):
        logger.warning("backup: skipped: no BACKUP_AGE_RECIPIENT is configured, so no backup is made "
                       "(the documentation's 'Scheduled backups and the restore drill')")
        return None
    made = backup_run(directory=directory)
    deleted = backup_rotate(directory=directory, keep=settings.BACKUP_KEEP)
    logger.info("backup: wrote %s (%d bytes); rotation deleted %d older", made, made.stat().st_size, len(deleted))
    return made


def table_row_counts(url: str) -> dict[str, int]:
    """Every table's row count in the database at ``url`` (PostgreSQL: the ``public`` schema; SQLite: the file),
    views left out. :raises BackupError: an unsupported URL."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(f"file:{url.removeprefix('sqlite:///')}?mode=ro", uri=True) as db:
            names = [r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            return {name: db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as db:
            names = [r[0] for r in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
            return {name: _count(db.execute(f'SELECT count(*) FROM public."{name}"').fetchone()) for name in names}
    raise BackupError(f"cannot count the rows of {url.split(':', 1)[0]} databases")


@dataclass(frozen=True)
class DrillReport:
    """What a restore drill found: the backup restored, and per table ``(rows in the source, rows restored)``."""

    backup: Path
    counts: dict[str, tuple[int, int]]

    @property
    def differing(self) -> dict[str, tuple[int, int]]:
        """The tables whose counts differ (empty: the drill passed)."""
        return {name: pair for name, pair in self.counts.items() if pair[0] != pair[1]}


def _postgres_server(url: str) -> tuple[str, str]:
    base = url.replace("postgres://", "postgresql://", 1).split("?", 1)[0]
    return base.rsplit("/", 1)[0], base.rsplit("/", 1)[1]


def restore_into(*, backup: Path, url: str, identity: Path) -> None:
    """Restore ``backup`` with ``scripts/restore --yes`` into the database at ``url``, REPLACING what it holds.

    :raises BackupError: the script failed (its message: a wrong identity, a damaged file…).
    """
    done = subprocess.run([str(RESTORE_SCRIPT), "--yes", "--identity", str(identity), str(backup)], cwd=PROJECT,
                          env=_script_env(url), capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=3000, check=False)
    if done.returncode != 0:
        raise BackupError(f"scripts/restore exited {done.returncode}: {done.stderr.strip()}")


def backup_drill(*, backup: Path, identity: Path, source_url: str | None = None) -> DrillReport:
    """Restore ``backup`` into a new scratch database beside the source (PostgreSQL: ``<name>_drill_<hex>`` on the
    same server; SQLite: a temporary file), compare each table's row count with the source's (default: the site's
    database), then drop the scratch database. The site's database is only read.

    Counts are compared as they are now: run it on a backup just made, or expect the rows written since.

    :raises BackupError: the restore failed, or the source is neither PostgreSQL nor SQLite.
    """
    source_url = source_url or database_url()
    source = table_row_counts(source_url)
    if source_url.startswith("sqlite:///"):
        with tempfile.TemporaryDirectory(prefix="klawerjas-drill-") as folder:
            scratch = f"sqlite:///{folder}/scratch.sqlite3"
            restore_into(backup=backup, url=scratch, identity=identity)
            restored = table_row_counts(scratch)
    else:
        import psycopg

        server, name = _postgres_server(source_url)
        scratch_name = f"{name[:40]}_drill_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{scratch_name}"')
        try:
            scratch = f"{server}/{scratch_name}"
            restore_into(backup=backup, url=scratch, identity=identity)
            restored = table_row_counts(scratch)
        finally:
            with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{scratch_name}" WITH (FORCE)')
    names = sorted(set(source) | set(restored))
    return DrillReport(backup=backup, counts={n: (source.get(n, 0), restored.get(n, 0)) for n in names})
