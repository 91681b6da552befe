"""What the load benchmarks share (``bench/load_standings.py``, ``bench/load_pages.py``, ``bench/api_reads.py``,
``bench/match_night_load.py``, ``bench/offline_sync.py``, ``bench/national_final.py``): a fresh database for the
run, migrated (with the reduced demo season in it, for the read benchmarks), the production-like environment, and
gunicorn started on 127.0.0.1 and a free port and always stopped; for the national final also nginx with the
shipped snippets in front of one or more gunicorn nodes (:func:`nginx_front`, which the proxy test
``tests/klawerjas_league/test_nginx_micro_cache.py`` uses too, through ``tests/nginx_front.py``) and a ``redis-server``
of the run's own (:func:`redis_server_start`). Nothing here runs by itself.

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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
BARE_PATH = "/bench/bare"
SNIPPETS = PROJECT / "deploy" / "nginx" / "snippets"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
SHIPPED_CACHE_FOLDER = "/var/cache/nginx/klawerjas-league"
ACCESS_LOG_FORMAT = "$msec $status $upstream_cache_status $request_method $request_time $uri $upstream_addr"
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


# --- nginx with the shipped snippets, in front of one or more nodes (issue 40) --------------------------------

def nginx_conf_write(folder: Path, upstreams: Sequence[str], port: int, *, workers: int = 1,
                     connections: int = 4096, access_log: Path | None = None) -> Path:
    """Write ``folder/nginx.conf`` (and the cache snippet it includes) and return its path; nothing is started.

    The http-level snippet ``deploy/nginx/snippets/klawerjas-league-cache.conf`` (its cache folder moved into
    ``folder/cache``), an ``upstream klawerjas_nodes`` with one ``server`` per entry of ``upstreams``
    (``"127.0.0.1:PORT"``; nginx's default round robin), and one server on ``127.0.0.1:port`` whose location is
    the shipped one: ``proxy_pass`` to the upstream, then ``deploy/nginx/snippets/klawerjas-league-proxy.conf``
    (the forwarded headers, the micro-cache, compression). No TLS. ``workers`` worker processes of
    ``connections`` connections each; ``access_log``: one line per request in :data:`ACCESS_LOG_FORMAT`
    (buffered), else none. The pid goes to ``folder/nginx.pid``, errors to ``folder/error.log``.

    :raises ValueError: no upstream.
    """
    if not upstreams:
        raise ValueError("nginx needs at least one upstream server")
    folder.mkdir(parents=True, exist_ok=True)
    cache_folder = folder / "cache"
    cache_folder.mkdir(exist_ok=True)
    cache_conf = folder / "klawerjas-league-cache.conf"
    shipped = (SNIPPETS / "klawerjas-league-cache.conf").read_text()
    assert SHIPPED_CACHE_FOLDER in shipped, "the shipped cache snippet moved its cache folder"
    cache_conf.write_text(shipped.replace(SHIPPED_CACHE_FOLDER, str(cache_folder)))
    user = "user root;\n" if os.geteuid() == 0 else ""  # the workers must write to this (private) folder
    temp = {name: folder / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    logging = (f"    log_format klawerjas_bench '{ACCESS_LOG_FORMAT}';\n"
               f"    access_log {access_log} klawerjas_bench buffer=256k flush=1s;\n" if access_log
               else "    access_log off;\n")
    servers = "".join(f"        server {upstream};\n" for upstream in upstreams)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes {workers};\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        f"events {{ worker_connections {connections}; }}\n"
        "http {\n"
        f"{logging}"
        f"    client_body_temp_path {temp['client_body']};\n    proxy_temp_path {temp['proxy']};\n"
        f"    fastcgi_temp_path {temp['fastcgi']};\n    uwsgi_temp_path {temp['uwsgi']};\n"
        f"    scgi_temp_path {temp['scgi']};\n"
        f"    include {cache_conf};\n"
        f"    upstream klawerjas_nodes {{\n{servers}    }}\n"
        "    server {\n"
        f"        listen 127.0.0.1:{port} backlog=4096;\n"
        "        location / {\n"
        "            proxy_pass http://klawerjas_nodes;\n"
        f"            include {SNIPPETS / 'klawerjas-league-proxy.conf'};\n"
        "        }\n"
        "    }\n"
        "}\n"
    )
    return conf


def _port_wait(port: int, process: subprocess.Popen, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx stopped at start (exit {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on 127.0.0.1:{port} within {timeout:g} s")


@contextmanager
def nginx_front(folder: Path, upstream: str | Sequence[str], *, workers: int = 1, connections: int = 4096,
                access_log: Path | None = None) -> Iterator[str]:
    """Run nginx with the shipped snippets in front of ``upstream`` (``"127.0.0.1:PORT"``, or a list of them:
    :func:`nginx_conf_write`) on a free port; yields its base URL (``"http://127.0.0.1:PORT"``). ``folder``
    (created) holds its configuration, cache, temporary files, ``nginx.pid`` and ``error.log``. nginx runs in the
    foreground as a child in a process group of its own (its master's pid), and is stopped by its pid after the
    block. Raises ``RuntimeError`` when nginx is missing, refuses the configuration or does not listen."""
    if NGINX is None:
        raise RuntimeError("nginx is not installed (scripts/ensure-nginx)")
    port = free_port()
    upstreams = [upstream] if isinstance(upstream, str) else list(upstream)
    conf = nginx_conf_write(folder, upstreams, port, workers=workers, connections=connections,
                            access_log=access_log)
    check = subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError(f"nginx refused the configuration: {check.stderr.strip()}")
    process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(conf), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _port_wait(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- A redis-server of the run's own ---------------------------------------------------------------------------

def redis_server_start(folder: Path) -> tuple[subprocess.Popen, str]:
    """Start Debian's ``redis-server`` on 127.0.0.1 and a free port (no persistence, its log in ``folder``) in a
    process group of its own, and wait until it answers PING (20 s at most): the process and its URL
    (``redis://127.0.0.1:PORT/0``). Stop it with :func:`process_stop`; the machine's shared Redis is never
    touched. Exits when redis-server is missing (``scripts/ensure-redis-server``) or does not answer."""
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is not installed (scripts/ensure-redis-server)")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                                "--appendonly", "no", "--save", "", "--protected-mode", "no",
                                "--logfile", "redis.log"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process_stop(process)
            sys.exit(f"redis-server did not start: {(folder / 'redis.log').read_text()[-2000:]}")
        time.sleep(0.05)


def process_stop(process: subprocess.Popen | None) -> None:
    """Stop a process this run started (its own process group): SIGTERM, then SIGKILL after 10 s."""
    if process is not None and process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
