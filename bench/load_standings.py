"""Benchmark: the public standings page and the standings API under gunicorn, against a bare Django view.

Plays a reduced demo season (4 clubs, 15-minute halves) into a fresh database (a SQLite file in a temporary
folder; or, with ``DATABASE_URL`` naming PostgreSQL, a new database on that server, dropped at the end),
starts gunicorn (``gunicorn.conf.py``: its workers and threads) on 127.0.0.1 and a free port with production
settings (DEBUG=0, a generated SECRET_KEY, SECURE_SSL_REDIRECT=0, ALLOWED_HOSTS=127.0.0.1) plus one bare view
(``bench/load_settings.py``: "ok" as text, through the same middleware), then loads each address in turn from
threads on 127.0.0.1 that keep their connection alive and stop by themselves (``SECONDS`` each, at most
``MAX_REQUESTS``), and prints requests/s, p50 and p99 latency. gunicorn is stopped at the end, always.

Target (issue 8): the standings page serves at least half the bare view's requests per second.

    .venv/bin/python bench/load_standings.py                 # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/load_standings.py
    BENCH_SECONDS=10 BENCH_THREADS=8 .venv/bin/python bench/load_standings.py
"""

from __future__ import annotations

import json
import os
import sys

from loadkit import BARE_PATH, closed_loop, demo_season_served, get, gunicorn_answers_check

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
THREADS = int(os.environ.get("BENCH_THREADS", "8"))
MAX_REQUESTS = int(os.environ.get("BENCH_MAX_REQUESTS", "50000"))
TARGET_RATIO = 0.5


def load(port: int, path: str, seconds: float) -> dict[str, float]:
    """THREADS clients, each on one kept-alive connection, for ``seconds`` or MAX_REQUESTS in all."""
    return closed_loop(port, path, seconds, threads=THREADS, max_requests=MAX_REQUESTS)


def main() -> int:
    with demo_season_served() as (port, db, log):
        status, body = get(port, "/api/competitions/")
        assert status == 200, (status, body[:500])
        competition = json.loads(body)["results"][0]["id"]
        endpoints = {
            "bare view": BARE_PATH,
            "standings page": f"/competitions/{competition}/standings/",
            "standings API": f"/api/competitions/{competition}/standings/",
        }
        gunicorn_answers_check(port, endpoints.values(), log)

        cpu = os.cpu_count()
        print(f"gunicorn on 127.0.0.1:{port} ({db.vendor}, gunicorn.conf.py workers/threads, {cpu} CPUs); "
              f"{THREADS} client threads, {SECONDS:g} s per address; load average {os.getloadavg()[0]:.2f}")
        results = {}
        for name, path in endpoints.items():
            load(port, path, min(1.0, SECONDS))  # warm every worker's caches and connections
            results[name] = r = load(port, path, SECONDS)
            print(f"  {name:15} {path:40} {r['rps']:8.0f} req/s   p50 {r['p50']:6.1f} ms   p99 {r['p99']:6.1f} ms"
                  f"   ({r['requests']} requests, {r['errors']} errors)")
        ratio = results["standings page"]["rps"] / results["bare view"]["rps"]
        held = ratio >= TARGET_RATIO and not any(r["errors"] for r in results.values())
        print(f"standings page / bare view: {ratio:.2f} (target at least {TARGET_RATIO}): "
              f"{'target holds' if held else 'TARGET MISSED'}")
        return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
