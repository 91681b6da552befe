"""Shared fixtures.

The tests are arranged by the package they test (tests/README.md): ``tests/<app>/`` for each app,
``tests/plumbing/``, ``tests/demo/``, ``tests/klawerjas_league/`` (the wiring), ``tests/bench/``, and
``tests/e2e/`` for the browser walks. The helpers every folder uses live here at the top: this file,
factories.py, people.py, season_factories.py, world.py, private_redis.py, nginx_front.py, two_step_codes.py.

Integration tests (``@pytest.mark.integration``) need PostgreSQL (``DATABASE_URL``), Redis (``REDIS_URL``)
and a live Celery worker, which the ``live_worker`` fixture starts once per session and stops at the end.
Without those services they are skipped with the reason; ``.ci/run`` sets ``KLAWERJAS_REQUIRE_SERVICES=1``,
which turns a missing service into a failure, so CI always runs them for real.
"""

import hashlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from amqp.exceptions import ChannelError
from django.conf import settings
from django.db import connections

PROJECT_DIR = Path(__file__).resolve().parent.parent
SERVICES_REQUIRED = os.environ.get("KLAWERJAS_REQUIRE_SERVICES") == "1"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None, django_db_keepdb: bool) -> None:
    """Under ``--reuse-db`` (pyproject.toml's addopts; CI's ``--create-db`` still builds it afresh) name the SQLite
    test database after the checkout instead of the process (settings.py names it ``klawerjas-test-<pid>``), so the
    next local run finds it: one file per checkout (and xdist worker, ``_gw0``/``_gw1``) in /dev/shm, not one per
    run. Two runs at once in one checkout would share it: give the second ``-o addopts=-ra`` (a file of its own)."""
    test = settings.DATABASES["default"].get("TEST", {})
    per_process = f"klawerjas-test-{os.getpid()}"
    if django_db_keepdb and per_process in (test.get("NAME") or ""):
        checkout = hashlib.sha256(str(PROJECT_DIR).encode()).hexdigest()[:12]
        test["NAME"] = test["NAME"].replace(per_process, f"klawerjas-test-{checkout}")


def services_missing() -> str:
    """Name what the integration tests lack, or return ``""`` when PostgreSQL and Redis are configured."""
    missing = []
    if connections["default"].vendor != "postgresql":
        missing.append("DATABASE_URL (PostgreSQL)")
    if not settings.REDIS_URL:
        missing.append("REDIS_URL")
    return ", ".join(missing)


def require_services() -> None:
    """Skip (or, under CI, fail) the calling test when the integration services are not configured."""
    missing = services_missing()
    if missing:
        message = f"integration services not configured: {missing} (run `bash .ci/run`)"
        if SERVICES_REQUIRED:
            pytest.fail(message)
        pytest.skip(message)


@dataclass(frozen=True)
class LiveWorker:
    """A Celery worker process consuming ``queue`` against the test database."""

    queue: str
    hostname: str
    process: subprocess.Popen[bytes]
    log_path: Path


def _database_url(settings_dict: dict[str, object]) -> str:
    user = settings_dict.get("USER") or "postgres"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


def celery_worker_start(
    *, queue: str, hostname: str, log_path: Path, env: dict[str, str] | None = None, extra_args: tuple[str, ...] = ()
) -> subprocess.Popen[bytes]:
    """Start a ``celery worker`` process (solo pool) consuming ``queue`` against the test database, its output in
    ``log_path``; ``env`` adds to the environment. The caller waits for it to be ready and stops it."""
    worker_env = {
        **os.environ,
        "DATABASE_URL": _database_url(connections["default"].settings_dict),
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        **(env or {}),
    }
    with log_path.open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "klawerjas_league", "worker", "--pool=solo", "-Q", queue,
             "-n", hostname, "-l", "info", "--without-gossip", "--without-mingle", *extra_args],
            cwd=PROJECT_DIR, env=worker_env, stdout=log, stderr=subprocess.STDOUT,
        )


def celery_worker_stop(process: subprocess.Popen[bytes], *, timeout: float = 20) -> None:
    """Stop a worker started by :func:`celery_worker_start` if it still runs: SIGTERM (a warm shutdown), then
    SIGKILL after ``timeout`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def live_worker(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveWorker]:
    """Start a real Celery worker on a queue of its own, pointed at the test database; stop it afterwards.

    Tasks sent with ``.delay()`` during the session go to that queue through the Redis broker.
    """
    require_services()
    from klawerjas_league.celery import app as celery_app

    queue = f"test-{uuid.uuid4().hex[:10]}"
    hostname = f"{queue}@localhost"
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    process = celery_worker_start(queue=queue, hostname=hostname, log_path=log_path)
    previous_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        deadline = time.monotonic() + 60
        while not celery_app.control.ping(destination=[hostname], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Celery worker did not start; log:\n{log_path.read_text()[-3000:]}")
        yield LiveWorker(queue=queue, hostname=hostname, process=process, log_path=log_path)
    finally:
        celery_app.conf.task_default_queue = previous_queue
        celery_worker_stop(process)


def live_worker_wait_idle(worker: LiveWorker, *, timeout: float = 90) -> None:
    """Wait until ``worker``'s queue is empty and it runs or holds no task (ETA tasks aside).

    :raises RuntimeError: after ``timeout`` seconds, naming what is still busy.
    """
    from klawerjas_league.celery import app as celery_app

    deadline = time.monotonic() + timeout
    while True:
        with celery_app.connection_for_read() as conn:
            try:
                queued = conn.default_channel.queue_declare(queue=worker.queue, passive=True).message_count
            except ChannelError:  # Redis keeps no key for an empty queue: nothing queued
                queued = 0
        inspect = celery_app.control.inspect(destination=[worker.hostname], timeout=1)
        busy = sum(len(tasks) for tasks in (inspect.active() or {}).values())
        busy += sum(len(tasks) for tasks in (inspect.reserved() or {}).values())
        if queued == 0 and busy == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"live worker still busy after {timeout} s: {queued} queued, {busy} running")
        time.sleep(0.2)


@pytest.fixture(autouse=True)
def live_worker_idle_after_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used the live worker, wait for the worker to finish what the test queued, before the
    test database is flushed: a task still running then would deadlock with the flush."""
    yield
    if "live_worker" in request.fixturenames:
        live_worker_wait_idle(request.getfixturevalue("live_worker"))


@pytest.fixture(autouse=True)
def tasks_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run Celery tasks in-process (``.delay()`` executes at once) in every test but those that use the
    ``live_worker`` fixture, even under CI's ``REDIS_URL``: a service test that queues a task on commit then sees
    its effect, and no task reaches a worker that would touch the test database while it is being flushed.
    Tests with ``live_worker`` go through the broker to the live worker instead."""
    if "live_worker" in request.fixturenames:
        yield
        return
    from klawerjas_league.celery import app as celery_app

    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def language_reset_after_test() -> Iterator[None]:
    """Leave the test's thread in the site's default language: a request through the test client leaves the
    language it was answered in active (LocaleMiddleware activates it and never deactivates), and the next test in
    the same process would otherwise read Afrikaans where it expects English (with pytest-xdist the order of the
    tests in a process changes from run to run)."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: object) -> None:
    """Factories hash a password per user; PBKDF2 would make each test world take seconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def cache_namespace(settings: object) -> None:
    """Give each test caches of its own (a fresh key prefix): cached values are keyed by ids, which repeat
    between tests, and a test must never flush a Redis that the broker and other runs share."""
    settings.CACHES = {  # type: ignore[attr-defined]
        alias: {**config, "KEY_PREFIX": f"{config.get('KEY_PREFIX', '')}t{uuid.uuid4().hex[:12]}"}
        for alias, config in settings.CACHES.items()  # type: ignore[attr-defined]
    }


@pytest.fixture(autouse=True)
def live_versions_read_afresh(settings: object) -> Iterator[None]:
    """Public polls read the live version on every request (``LIVE_VERSION_REUSE_SECONDS = 0``) and nothing is
    kept from another test: a test's transaction never commits, so a write would not make the process forget a
    version it reuses (``matches.writes.LIVE_VERSIONS_POLLED``), and ids repeat between tests. The reuse itself is
    tested with the setting on (tests/matches/test_live_version_reuse.py)."""
    from matches.writes import LIVE_VERSIONS_POLLED

    settings.LIVE_VERSION_REUSE_SECONDS = 0  # type: ignore[attr-defined]
    LIVE_VERSIONS_POLLED.clear()
    yield
    LIVE_VERSIONS_POLLED.clear()


@pytest.fixture
def on_commit_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``transaction.on_commit`` callbacks at once: a test's transaction never commits, and a service that
    hands its outbox message (an e-mail) over after commit then sends it within the test (``mailoutbox``). The
    outbox's own tests cover the commit and the broker."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())


@pytest.fixture
def world(db):
    """A fresh two-union world (tests/world.py) for the test, rolled back with it."""
    from tests.world import make_world

    return make_world()


@pytest.fixture(scope="module")
def world_build():
    """What builds the module's shared world (``module_world``): tests/world.py's two unions. A module needing more
    on them overrides this fixture with its own builder (which calls ``make_world`` and adds to it)."""
    from tests.world import make_world

    return make_world


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker, world_build):
    """The module's world, built once in a transaction that stays open for the module and is rolled back after its
    last test (``world_in_transaction``)."""
    from tests.world import world_in_transaction

    with world_in_transaction(django_db_blocker, world_build) as world:
        yield world


@pytest.fixture
def module_world(db, shared_world):
    """The module's shared world read afresh from the database, inside the test's own savepoint (``db``), which is
    rolled back after the test: no test sees another's writes, or another's changes to the objects in memory.
    A module uses it as its ``world`` with ``from tests.conftest import module_world as world``."""
    from tests.world import world_reread

    # The module's transaction and this test's savepoint. A transactional test (transaction=True) would run
    # outside a savepoint, its writes and flush reaching the other tests' world.
    if len(connections["default"].atomic_blocks) < 2:
        pytest.fail("the shared world needs a test in a savepoint: @pytest.mark.django_db, not transaction=True")
    return world_reread(shared_world)
