"""Backups on a schedule, with rotation, and the restore drill (issue 37; plumbing/backups.py).

* The beat schedule runs ``klawerjas_league.backup_scheduled`` daily at ``BACKUP_HOUR``:``BACKUP_MINUTE``.
* Without a recipient nothing is written and the log says why; with one, an age-encrypted backup lands in
  ``BACKUP_DIR`` and only the newest ``BACKUP_KEEP`` stay (other files there are never touched).
* ``manage.py backup_drill`` restores the newest backup into a scratch database and compares every table's rows;
  a backup that no longer matches the database is reported, exit 1.
* The restore drill (integration, PostgreSQL): a played season is backed up by the scheduled task's code, the newest
  backup restored with ``scripts/restore`` into a FRESH database, and every table holds as many rows.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import uuid
from io import StringIO
from pathlib import Path

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from klawerjas_league.celery import app
from plumbing.backups import (
    BACKUP_NAME,
    backup_rotate,
    backup_run,
    backup_scheduled,
    backups_listed,
    table_row_counts,
)
from tests.plumbing.test_backup import RESTORE, _play_season, _run, age_key, pg_tables  # noqa: F401

PROJECT = Path(__file__).resolve().parents[2]


def test_the_daily_backup_is_on_the_beat_schedule():
    entry = settings.CELERY_BEAT_SCHEDULE["backup-daily"]
    import plumbing.tasks  # noqa: F401 - registers the task, as the worker's autodiscovery does
    assert entry["task"] == "klawerjas_league.backup_scheduled" and entry["task"] in app.tasks
    assert entry["schedule"] == crontab(hour=3, minute=15)
    moved = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
         "s = settings.CELERY_BEAT_SCHEDULE['backup-daily']['schedule']; print(sorted(s.hour), sorted(s.minute), "
         "settings.BACKUP_DIR, settings.BACKUP_KEEP)"],
        cwd=PROJECT, capture_output=True, text=True, check=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "klawerjas_league.settings", "BACKUP_HOUR": "1",
             "BACKUP_MINUTE": "40", "BACKUP_DIR": "/srv/backups", "BACKUP_KEEP": "30"})
    assert moved.stdout.split() == ["[1]", "[40]", "/srv/backups", "30"]


def test_without_a_recipient_the_backup_is_skipped_and_says_so(tmp_path, caplog):
    with override_settings(BACKUP_DIR=tmp_path / "b", BACKUP_AGE_RECIPIENT="", BACKUP_AGE_RECIPIENTS_FILE=""):
        with caplog.at_level(logging.WARNING, logger="plumbing.backups"):
            assert backup_scheduled() is None
    assert "skipped" in caplog.text and "BACKUP_AGE_RECIPIENT" in caplog.text
    assert not (tmp_path / "b").exists()


def test_rotation_keeps_the_newest_and_nothing_else_is_touched(tmp_path):
    names = [f"klawerjas-202611{day:02d}-031500.dump.age" for day in range(1, 21)]
    for name in [*names, "notes.txt", "klawerjas-latest.dump.age"]:
        (tmp_path / name).write_text("x")
    deleted = backup_rotate(directory=tmp_path, keep=14)
    assert sorted(p.name for p in deleted) == names[:6]
    assert [p.name for p in backups_listed(directory=tmp_path)] == sorted(names[6:], reverse=True)
    assert (tmp_path / "notes.txt").exists() and (tmp_path / "klawerjas-latest.dump.age").exists()
    with pytest.raises(ValueError):
        backup_rotate(directory=tmp_path, keep=0)


@pytest.mark.django_db(transaction=True)
def test_scheduled_backups_rotate_and_the_drill_restores_them(tmp_path, age_key):  # noqa: F811
    for n in range(3):
        get_user_model().objects.create_user(f"player{n}", f"p{n}@example.org", "a-long-password-1")
    directory = tmp_path / "backups"
    with override_settings(BACKUP_DIR=directory, BACKUP_AGE_RECIPIENT=age_key.recipient, BACKUP_KEEP=2):
        made = [backup_scheduled() for _ in range(3)]
        kept = backups_listed(directory=directory)
        assert len(kept) == 2 and made[0] not in kept and set(kept) == set(made[1:])
        assert all(BACKUP_NAME.match(p.name) and p.read_bytes().startswith(b"age-encryption.org/v1") for p in kept)
        assert oct(directory.stat().st_mode & 0o777) == "0o700"

        out = StringIO()
        call_command("backup_drill", identity=age_key.identity, newest=True, stdout=out)
        report = out.getvalue()
        assert "Drill passed" in report
        [users_line] = [line for line in report.splitlines() if line.startswith("auth_user ")]
        assert users_line.split()[1:] == ["3", "3"]

        # A row written after the backup: the drill says which table no longer matches.
        get_user_model().objects.create_user("late", "late@example.org", "a-long-password-1")
        out = StringIO()
        with pytest.raises(CommandError, match="auth_user") as refused:
            call_command("backup_drill", identity=age_key.identity, newest=True, stdout=out)
        assert refused.value.returncode == 1 and "DIFFERS" in out.getvalue()

        # Without the identity the drill cannot decrypt: told so, exit 2.
        with pytest.raises(CommandError, match="identity") as no_identity:
            call_command("backup_drill", identity=tmp_path / "missing.agekey", newest=True)
        assert no_identity.value.returncode == 2


@pytest.mark.integration
def test_restore_drill_a_played_season_into_a_fresh_postgresql_database(age_key, tmp_path):  # noqa: F811
    """The drill of issue 37 on PostgreSQL: the scheduled task's backup of a played season, the newest restored with
    scripts/restore into a database made for it, every table's row count compared; then the operator's command."""
    import psycopg
    from django.db import connection

    from tests.conftest import _database_url, require_services

    require_services()
    server = _database_url(connection.settings_dict).rsplit("/", 1)[0]
    names = [f"klawerjas_drill_{uuid.uuid4().hex[:8]}_{n}" for n in ("season", "fresh")]
    admin_url = server.replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    season_url, fresh_url = (f"{server}/{name}" for name in names)
    directory = tmp_path / "backups"
    try:
        _play_season(season_url)
        original = table_row_counts(season_url)
        assert original["matches_playedhand"] > 50 and len(original) > 40
        with override_settings(BACKUP_AGE_RECIPIENT=age_key.recipient):
            first = backup_run(directory=directory, url=season_url)
            newest = backup_run(directory=directory, url=season_url)
        backup_rotate(directory=directory, keep=1)
        assert backups_listed(directory=directory) == [newest] and not first.exists()

        _run([RESTORE, "--yes", "--identity", str(age_key.identity), str(newest)], fresh_url)
        restored = table_row_counts(fresh_url)
        assert restored == original
        assert {name: count for name, (count, _) in pg_tables(fresh_url).items()} == original

        drill = subprocess.run(
            [sys.executable, "manage.py", "backup_drill", "--newest", "--identity", str(age_key.identity)],
            cwd=PROJECT, capture_output=True, text=True, timeout=600,
            env={**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, "DATABASE_URL": season_url,
                 "BACKUP_DIR": str(directory)})
        assert drill.returncode == 0, drill.stderr
        assert "Drill passed" in drill.stdout and f"{original['matches_playedhand']:>9}" in drill.stdout
        with psycopg.connect(admin_url) as admin:  # the drill's scratch database is gone
            left = admin.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                 [f"{names[0]}_drill_%"]).fetchall()
        assert left == []
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
