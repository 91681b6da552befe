"""What the load benchmarks share (``bench/load_standings.py``, ``bench/load_pages.py``, ``bench/api_reads.py``,
``bench/match_night_load.py``, ``bench/offline_sync.py``): a fresh database for the run, migrated (with the
reduced demo season in it, for the read benchmarks), the production-like environment, and gunicorn started on
127.0.0.1 and a free port and always stopped. Nothing here runs by itself.

The server is the site's own WSGI application under ``gunicorn.conf.py`` (its workers and threads), with
``bench/load_settings.py`` as the settings: the site's settings plus a bare "ok" view at ``/bench/bare``
(``bench/load_urls.py``), served through the same middleware as the pages it is compared with.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
BARE_PATH = "/bench/bare"
MANAGE = [sys.executable, "manage.py"]  # run in the project folder (:func:`run`)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(args: list[str], env: dict[str, str], timeout: float | None = None) -> str:
    """Run ``args`` in the project folder; its stdout, or exit with its output when it fails (or times out)."""
    try:
        result = subprocess.run(args, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"{' '.join(args)} did not finish within {timeout:g} s")
    if result.returncode:
        sys.exit(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return result.stdout


class Database:
    """A fresh database for the run: a SQLite file, or a new PostgreSQL database beside DATABASE_URL's."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="klawerjas-load-"))
        base = os.environ.get("DATABASE_URL", "")
        self.pg_admin = self.pg_name = None
        if base.startswith(("postgres://", "postgresql://")):
            server = base.replace("postgres://", "postgresql://", 1).rsplit("/", 1)[0]
            self.pg_admin, self.pg_name = f"{server}/postgres", f"klawerjas_load_{uuid.uuid4().hex[:8]}"
            self._pg(f'CREATE DATABASE "{self.pg_name}"')
            self.url, self.vendor = f"{server}/{self.pg_name}", "PostgreSQL"
        else:
            self.url, self.vendor = f"sqlite:///{self.folder / 'load.sqlite3'}", "SQLite"

    def _pg(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.pg_admin, autocommit=True) as conn:
            conn.execute(sql)

    def drop(self) -> None:
        if self.pg_name:
            self._pg(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
        shutil.rmtree(self.folder, ignore_errors=True)


def run_env(db: Database, *, without: tuple[str, ...] = ("REDIS_URL", "DJANGO_SETTINGS_MODULE")) -> dict[str, str]:
    """The environment of the run's ``manage.py`` commands and gunicorn: this process's, less the variables
    ``without`` names (by default: the local-memory cache, and the site's settings module), with ``db`` as
    DATABASE_URL and the project folder on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in without}
    env.update(DATABASE_URL=db.url, PYTHONPATH=str(PROJECT))
    return env


def database_migrate(env: dict[str, str]) -> None:
    """``manage.py migrate`` on the run's database (10 minutes at most)."""
    run([*MANAGE, "migrate", "--noinput", "-v0"], env, timeout=600)


def demo_season_seed(env: dict[str, str], db: Database) -> None:
    """Migrate the run's database and play the reduced demo season into it (4 clubs, ``--size small``, seed 7),
    saying so first."""
    print(f"Seeding a reduced demo season into a fresh {db.vendor} database ...", flush=True)
    database_migrate(env)
    run([*MANAGE, "demo_season", "--clubs", "4", "--size", "small", "--seed", "7", "--quiet"], env)


def production_env(env: dict[str, str], port: int, folder: Path) -> None:
    """Add to ``env`` what the server runs with: production settings (DEBUG=0, a generated SECRET_KEY,
    SECURE_SSL_REDIRECT=0, ALLOWED_HOSTS=127.0.0.1), ``bench.load_settings``, gunicorn bound to 127.0.0.1:``port``
    and the collected static files in ``folder``."""
    env.update(DJANGO_SETTINGS_MODULE="bench.load_settings", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50),
               SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1", GUNICORN_BIND=f"127.0.0.1:{port}",
               LOG_LEVEL="WARNING", BENCH_STATIC_ROOT=str(folder / "static"))


def production_prepare(env: dict[str, str], port: int, folder: Path) -> None:
    """:func:`production_env`, then ``manage.py collectstatic`` into ``folder`` as the Dockerfile does (whitenoise
    serves them; 5 minutes at most)."""
    production_env(env, port, folder)
    run([*MANAGE, "collectstatic", "--noinput", "-v0"], env, timeout=300)


def get(port: int, path: str) -> tuple[int, bytes]:
    """One GET on a connection of its own (10 s at most): the status and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def closed_loop(port: int, path: str, seconds: float, *, threads: int, max_requests: int,
                headers: dict[str, str] | None = None, expect: int = 200) -> dict[str, float]:
    """``threads`` clients as fast as they go, each on one kept-alive connection, GETting ``path`` (with
    ``headers``) for ``seconds`` or ``max_requests`` in all: requests/s, p50 and p99 latency (ms), requests, and
    errors (an answer other than ``expect``, or a broken connection)."""
    latencies: list[list[float]] = [[] for _ in range(threads)]
    errors = [0] * threads
    deadline = time.perf_counter() + seconds
    budget = threading.Semaphore(max_requests)
    sent = {"Host": "127.0.0.1", **(headers or {})}

    def client(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.perf_counter() < deadline and budget.acquire(blocking=False):
            start = time.perf_counter()
            try:
                conn.request("GET", path, headers=sent)
                response = conn.getresponse()
                response.read()
                if response.status != expect:
                    errors[n] += 1
            except (OSError, http.client.HTTPException):
                errors[n] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            latencies[n].append(time.perf_counter() - start)
        conn.close()

    started = time.perf_counter()
    workers = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    elapsed = time.perf_counter() - started
    times = sorted(x for per in latencies for x in per)
    if not times:
        return {"requests": 0, "rps": 0.0, "p50": float("nan"), "p99": float("nan"), "errors": sum(errors)}
    return {
        "requests": len(times),
        "rps": len(times) / elapsed,
        "p50": statistics.median(times) * 1000,
        "p99": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
        "errors": sum(errors),
    }


def gunicorn_start(env: dict[str, str], log: Path) -> subprocess.Popen:
    """Start gunicorn (``gunicorn.conf.py``, the access log off, everything else into ``log``) in a process group
    of its own, so that :func:`gunicorn_stop` stops its workers with it and Ctrl-C reaches only this process."""
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                                 "--access-logfile", "/dev/null", "klawerjas_league.wsgi:application"],
                                cwd=PROJECT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def gunicorn_wait(server: subprocess.Popen, port: int, log: Path) -> None:
    """Wait until the bare view answers 200 (20 s at most); exit with gunicorn's log when it does not."""
    for _ in range(200):
        if server.poll() is not None:
            sys.exit(f"gunicorn exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if get(port, BARE_PATH)[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("gunicorn did not answer within 20 s")


def gunicorn_serve(env: dict[str, str], folder: Path, log: Path) -> tuple[subprocess.Popen, int]:
    """Production settings on a free port (:func:`production_prepare`, the static files collected into
    ``folder``), gunicorn started and answering: the server and its port. A server that does not answer is stopped
    before this exits."""
    port = free_port()
    production_prepare(env, port, folder)
    server = gunicorn_start(env, log)
    try:
        gunicorn_wait(server, port, log)
    except BaseException:
        gunicorn_stop(server)
        raise
    return server, port


def gunicorn_answers_check(port: int, paths: Iterable[str], log: Path) -> None:
    """Exit with the end of gunicorn's log unless every one of ``paths`` answers 200."""
    for path in paths:
        status, _body = get(port, path)
        if status != 200:
            sys.exit(f"{path} answered {status}; gunicorn's log:\n{log.read_text()[-3000:]}")


@contextmanager
def demo_season_served() -> Iterator[tuple[int, Database, Path]]:
    """The reduced demo season (:func:`demo_season_seed`) in a fresh database, served by gunicorn for the block
    (:func:`gunicorn_serve`): its port, the database and gunicorn's log. gunicorn is stopped and the database
    dropped after the block, always."""
    db = Database()
    server = None
    log = db.folder / "gunicorn.log"
    try:
        env = run_env(db)
        demo_season_seed(env, db)
        server, port = gunicorn_serve(env, db.folder, log)
        yield port, db, log
    finally:
        gunicorn_stop(server)
        db.drop()


def gunicorn_stop(server: subprocess.Popen | None) -> None:
    """Stop gunicorn and its workers (its own process group): SIGTERM, then SIGKILL after 30 s."""
    if server is not None and server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)  # gunicorn's own process group (start_new_session)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
