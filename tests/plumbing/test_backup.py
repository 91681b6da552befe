"""Backups (issue 8): a whole season survives ``scripts/backup`` and ``scripts/restore`` (docs/operate/backups.md).

Every backup is encrypted with age to the operator's public key (issue 35, finding 12: a backup holds password
hashes and e-mail addresses); the restore takes the identity file. Encrypted backups hold no e-mail address and no
password hash in their bytes, and restore with the identity to the same rows; without a recipient the backup
refuses (exit 2) unless ``--unencrypted`` is given, and a restore without the identity, or with another one,
refuses and changes nothing.

A reduced demo season (2 clubs, 15-minute halves: every model of the league, with history) is played into a
database of its own by ``manage.py demo_season`` in a subprocess, backed up with ``scripts/backup``, restored
with ``scripts/restore`` into a fresh database, and the two compared table by table:

* SQLite (file databases in ``tmp_path``), SQLite's online backup: every table's row count and a checksum of
  all its rows in order are identical;
* SQLite, the portable route (``--json``: dumpdata with natural keys, loaddata): every table's row count is
  identical and dumping the restored database gives the backup again, row for row;
* PostgreSQL (integration), ``pg_dump -Fc`` / ``pg_restore`` into a second fresh database: every table's row
  count and the md5 of all its rows in order are identical.

The scripts' refusals are tested too: restoring without ``--yes`` and without a terminal to ask exits 3 and
changes nothing; a backup never overwrites a file (exit 2); a PostgreSQL dump is not restored into SQLite.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
BACKUP, RESTORE = str(PROJECT / "scripts" / "backup"), str(PROJECT / "scripts" / "restore")


_OURS = ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "BACKUP_AGE_RECIPIENT", "BACKUP_AGE_RECIPIENTS_FILE",
         "BACKUP_AGE_IDENTITY")


def _env(database_url: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The scripts' environment: this database, tasks in-process (no REDIS_URL), this interpreter, no age
    recipient or identity but those in ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in _OURS}
    return {**env, "DATABASE_URL": database_url, "PYTHON": sys.executable, **(extra or {})}


def _run(args: list[str], database_url: str, check: bool = True,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=PROJECT, env=_env(database_url, env), capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=300)
    if check:
        assert result.returncode == 0, f"{args} -> {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def _play_season(database_url: str) -> None:
    manage = [sys.executable, "manage.py"]
    _run([*manage, "migrate", "--noinput", "-v0"], database_url)
    _run([*manage, "demo_season", "--clubs", "2", "--size", "small", "--seed", "5", "--quiet"], database_url)


@dataclass(frozen=True)
class AgeKey:
    """An operator's age key pair: the public key the server encrypts to, the identity file kept elsewhere."""

    recipient: str
    identity: Path

    @property
    def env(self) -> dict[str, str]:
        return {"BACKUP_AGE_RECIPIENT": self.recipient}


def _age_key(folder: Path) -> AgeKey:
    if shutil.which("age") is None or shutil.which("age-keygen") is None:  # as the browser tests without Chromium
        message = "age is not installed: scripts/ensure-age (Debian: apt-get install age)"
        if os.environ.get("KLAWERJAS_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    folder.mkdir(parents=True, exist_ok=True)
    identity = folder / "operator.agekey"
    made = subprocess.run(["age-keygen", "-o", str(identity)], capture_output=True, text=True, check=True)
    recipient = re.search(r"age1[0-9a-z]+", made.stderr + identity.read_text()).group(0)
    return AgeKey(recipient=recipient, identity=identity)


@pytest.fixture(scope="module")
def age_key(tmp_path_factory) -> AgeKey:
    return _age_key(tmp_path_factory.mktemp("operator"))


AGE_MAGIC = b"age-encryption.org/v1\n"
#: An e-mail address as it sits in a table's text: someone@somewhere.tld.
EMAIL = re.compile(rb"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def assert_not_readable(backup: Path, plain: Path) -> None:
    """``backup`` is age-encrypted: none of the e-mail addresses and password hashes ``plain`` (the same data
    unencrypted) holds is in its bytes."""
    sealed, readable = backup.read_bytes(), plain.read_bytes()
    assert sealed.startswith(AGE_MAGIC)
    addresses = {m.group(0) for m in EMAIL.finditer(readable)}
    assert b"pbkdf2" in readable and addresses  # the control: the plain data does hold them
    # Each of them, not the pattern: megabytes of ciphertext match a loose e-mail pattern somewhere by chance.
    assert b"pbkdf2" not in sealed
    assert not [address for address in addresses if address in sealed]


# --- SQLite -----------------------------------------------------------------------------------------------


def sqlite_tables(path: Path) -> dict[str, tuple[int, str]]:
    """Every table: its row count and a SHA-256 of all its rows, ordered (rows sorted by their text)."""
    db = sqlite3.connect(path)
    try:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        tables = {}
        for name in names:
            rows = sorted(repr(row) for row in db.execute(f'SELECT * FROM "{name}"'))
            tables[name] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
        return tables
    finally:
        db.close()


@pytest.fixture(scope="module")
def sqlite_season(tmp_path_factory) -> tuple[Path, Path]:
    """A season played into a SQLite file, and a migrated empty database beside it (a fresh install)."""
    folder = tmp_path_factory.mktemp("backup")
    empty, season = folder / "empty.sqlite3", folder / "season.sqlite3"
    _run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], f"sqlite:///{empty}")
    shutil.copy(empty, season)
    _run([sys.executable, "manage.py", "demo_season", "--clubs", "2", "--size", "small", "--seed", "5",
          "--quiet"], f"sqlite:///{season}")
    return season, empty


def test_sqlite_backup_restores_every_row_of_a_season(sqlite_season, age_key, tmp_path):
    season, _ = sqlite_season
    original = sqlite_tables(season)
    assert original["matches_playedhand"][0] > 50 and original["matches_boementry"][0] > 10
    assert original["referee_strafclaim"][0] >= 0 and original["matches_standingssnapshot"][0] >= 1
    backup = tmp_path / "season.sqlite3.age"
    result = _run([BACKUP, str(backup)], f"sqlite:///{season}", env=age_key.env)
    assert "->" in result.stdout and "encrypted" in result.stdout
    assert_not_readable(backup, season)
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # the owner's only, encrypted or not
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season.sqlite3.age"]  # no plain copy left behind

    fresh = tmp_path / "fresh.sqlite3"
    _run([RESTORE, "--yes", "--identity", str(age_key.identity), str(backup)], f"sqlite:///{fresh}")
    assert sqlite_tables(fresh) == original
    assert len(original) > 40 and sum(count for count, _ in original.values()) > 500


def test_a_backup_without_a_recipient_is_refused_unless_unencrypted_is_asked_for(sqlite_season, tmp_path):
    season, _ = sqlite_season
    backup = tmp_path / "plain.sqlite3"
    refused = _run([BACKUP, str(backup)], f"sqlite:///{season}", check=False)
    assert refused.returncode == 2
    assert "BACKUP_AGE_RECIPIENT" in refused.stderr and "--unencrypted" in refused.stderr
    assert "password hashes" in refused.stderr
    assert not backup.exists() and list(tmp_path.iterdir()) == []

    plain = _run([BACKUP, "--unencrypted", str(backup)], f"sqlite:///{season}")
    assert "NOT encrypted" in plain.stdout + plain.stderr
    assert backup.read_bytes().startswith(b"SQLite format 3")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # password hashes inside: the owner's only
    fresh = tmp_path / "fresh.sqlite3"
    _run([RESTORE, "--yes", str(backup)], f"sqlite:///{fresh}")
    assert sqlite_tables(fresh) == sqlite_tables(season)


def test_an_encrypted_backup_restores_only_with_its_identity(sqlite_season, age_key, tmp_path):
    season, empty = sqlite_season
    backup = tmp_path / "season.sqlite3.age"
    _run([BACKUP, str(backup)], f"sqlite:///{season}", env=age_key.env)
    target = tmp_path / "target.sqlite3"
    shutil.copy(empty, target)
    before = target.read_bytes()

    without = _run([RESTORE, "--yes", str(backup)], f"sqlite:///{target}", check=False)
    assert without.returncode == 2 and "encrypted" in without.stderr and "--identity" in without.stderr
    other = _age_key(tmp_path / "other")
    wrong = _run([RESTORE, "--yes", "--identity", str(other.identity), str(backup)], f"sqlite:///{target}",
                 check=False)
    assert wrong.returncode == 2 and "cannot decrypt" in wrong.stderr
    assert target.read_bytes() == before and not list(tmp_path.glob("target.sqlite3.*"))

    # The identity may come from the environment too, as cron would give it.
    _run([RESTORE, "--yes", str(backup)], f"sqlite:///{target}", env={"BACKUP_AGE_IDENTITY": str(age_key.identity)})
    assert sqlite_tables(target) == sqlite_tables(season)


_TIME_WITHOUT_FRACTION = re.compile(r"(T\d{2}:\d{2}:\d{2})(?=Z|[+-]\d{2}:\d{2}|$)")


def _times_to_ms(value):
    """Write every ISO time with its milliseconds: Django's encoder writes ``12:00:00.000`` for a time of
    ``12:00:00.000456`` but ``12:00:00`` for the same time restored (microsecond 0), which are equal."""
    if isinstance(value, dict):
        return {key: _times_to_ms(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_times_to_ms(item) for item in value]
    if isinstance(value, str):
        return _TIME_WITHOUT_FRACTION.sub(r"\1.000", value)
    return value


def test_json_backup_loads_into_a_fresh_database(sqlite_season, age_key, tmp_path):
    """The portable route: what is dumped from the restored database is the backup itself, and every table
    holds as many rows. (Times keep milliseconds: Django's JSON encoder drops the microseconds.)"""
    season, empty = sqlite_season
    sealed = tmp_path / "season.json.age"
    _run([BACKUP, "--json", str(sealed)], f"sqlite:///{season}", env=age_key.env)
    assert stat.S_IMODE(sealed.stat().st_mode) == 0o600
    backup = tmp_path / "season.json"
    subprocess.run(["age", "--decrypt", "-i", str(age_key.identity), "-o", str(backup), str(sealed)], check=True)
    assert_not_readable(sealed, backup)
    fresh = tmp_path / "fresh.sqlite3"
    shutil.copy(empty, fresh)
    _run([RESTORE, "--yes", "--identity", str(age_key.identity), str(sealed)], f"sqlite:///{fresh}")

    again = tmp_path / "again.json"
    _run([BACKUP, "--json", "--unencrypted", str(again)], f"sqlite:///{fresh}")
    dumped, restored = _times_to_ms(json.loads(backup.read_text())), _times_to_ms(json.loads(again.read_text()))
    assert len(dumped) > 500 and len(restored) == len(dumped)
    differing = [(a, b) for a, b in zip(dumped, restored, strict=True) if a != b]
    assert not differing, differing[:3]
    counts = {name: count for name, (count, _) in sqlite_tables(season).items()}
    assert {name: count for name, (count, _) in sqlite_tables(fresh).items()} == counts


def test_the_scripts_refuse_without_confirmation_and_never_overwrite(sqlite_season, age_key, tmp_path):
    season, _ = sqlite_season
    backup = tmp_path / "b.sqlite3.age"
    _run([BACKUP, str(backup)], f"sqlite:///{season}", env=age_key.env)
    again = _run([BACKUP, str(backup)], f"sqlite:///{season}", check=False, env=age_key.env)
    assert again.returncode == 2 and "already exists" in again.stderr

    target = tmp_path / "target.sqlite3"
    shutil.copy(sqlite_season[1], target)
    before = target.read_bytes()
    refused = _run([RESTORE, "--identity", str(age_key.identity), str(backup)], f"sqlite:///{target}",
                   check=False)
    assert refused.returncode == 3 and "--yes" in refused.stderr and target.read_bytes() == before

    fake_dump = tmp_path / "x.dump"
    fake_dump.write_bytes(b"PGDMP\x01\x0e\x00")
    wrong = _run([RESTORE, "--yes", str(fake_dump)], f"sqlite:///{target}", check=False)
    assert wrong.returncode == 2 and "PostgreSQL dump" in wrong.stderr and target.read_bytes() == before
    missing = _run([RESTORE, "--yes", str(tmp_path / "nothing.json")], f"sqlite:///{target}", check=False)
    assert missing.returncode == 2 and "no such file" in missing.stderr


# --- PostgreSQL -------------------------------------------------------------------------------------------


def pg_tables(url: str) -> dict[str, tuple[int, str]]:
    """Every table of the public schema: its row count and the md5 of all its rows, ordered by their text."""
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        tables = {}
        for name in names:
            count, digest = conn.execute(
                f'SELECT count(*), md5(coalesce(string_agg(t::text, E\'\\n\' ORDER BY t::text), \'\')) '
                f'FROM public."{name}" t').fetchone()
            tables[name] = (count, digest)
        return tables


@pytest.mark.integration
def test_postgresql_dump_restores_every_row_of_a_season(age_key, tmp_path):
    from django.db import connection

    from tests.conftest import _database_url, require_services

    require_services()
    import psycopg

    server = _database_url(connection.settings_dict).rsplit("/", 1)[0]
    names = [f"klawerjas_backup_{uuid.uuid4().hex[:8]}_{n}" for n in ("season", "restored")]
    admin_url = server.replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    season_url, restored_url = (f"{server}/{name}" for name in names)
    try:
        _play_season(season_url)
        original = pg_tables(season_url)
        assert original["matches_playedhand"][0] > 50 and len(original) > 40

        backup = tmp_path / "season.dump.age"
        _run([BACKUP, str(backup)], season_url, env=age_key.env)
        plain = tmp_path / "season.dump"
        subprocess.run(["age", "--decrypt", "-i", str(age_key.identity), "-o", str(plain), str(backup)],
                       check=True)
        assert plain.read_bytes().startswith(b"PGDMP")
        assert stat.S_IMODE(backup.stat().st_mode) == 0o600
        identity = ["--identity", str(age_key.identity)]
        refused = _run([RESTORE, *identity, str(backup)], restored_url, check=False)
        assert refused.returncode == 3 and pg_tables(restored_url) == {}
        _run([RESTORE, "--yes", *identity, str(backup)], restored_url)
        assert pg_tables(restored_url) == original
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
