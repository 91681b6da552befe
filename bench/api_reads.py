"""Benchmark: the public API reads' own cost per request, in process, against the bare Django view (issue 23).

``bench/load_pages.py`` measures requests/s under gunicorn, which on a machine shared with other work swings by
a factor of two from one run to the next. This one takes the network and the other processes out: it seeds the
same reduced demo season (4 clubs, ``--size small``, seed 7) into a fresh database (``bench/loadkit.py``), then
calls the site's WSGI application (production settings, ``bench/load_settings.py``: the same middleware and the
bare view at ``/bench/bare``) directly, ``BENCH_REQUESTS`` plain GETs of each address per round, as a phone's
first visit (no cookie, ``Accept: */*``), and measures the CPU time of this process (``time.process_time``: time
taken by others' work does not count). Each address's ratio is the bare view's CPU time per request over its
own, the median over ``BENCH_ROUNDS`` rounds, the bare view measured right before each address.

Addresses: the standings API ``/api/competitions/{id}/standings/``, the live state ``/api/fixtures/{id}/live/``
(the season's first league and its played match with the most boems, as ``bench/load_pages.py``) and, to
compare, the standings page. Target: each at least 0.5 (as fast per request as half the bare view). Exit status
0 when it holds, 1 otherwise.

    .venv/bin/python bench/api_reads.py
    BENCH_REQUESTS=3000 BENCH_ROUNDS=7 .venv/bin/python bench/api_reads.py
"""

from __future__ import annotations

import io
import json
import os
import statistics
import sys
import time

from loadkit import BARE_PATH, PROJECT, Database, demo_season_seed, production_prepare, run_env

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
TARGET_RATIO = 0.5


def main() -> int:
    db = Database()
    try:
        env = run_env(db)
        demo_season_seed(env, db)
        production_prepare(env, 0, db.folder)
        os.environ.update(env)
        sys.path.insert(0, str(PROJECT))

        import django
        django.setup()
        from django.core.handlers.wsgi import WSGIHandler

        app = WSGIHandler()

        def get(path: str) -> tuple[str, bytes]:
            found: list[str] = []
            path, _, query = path.partition("?")
            environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
                       "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "HTTP_ACCEPT": "*/*", "wsgi.version": (1, 0),
                       "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
                       "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False}
            body = b"".join(app(environ, lambda status, headers, *_: found.append(status)))
            return found[0], body

        status, body = get("/api/competitions/?kind=league")
        if not status.startswith("200"):
            sys.exit(f"/api/competitions/ answered {status}: {body[:300]!r}")
        competition = json.loads(body)["results"][0]["id"]
        results = json.loads(get(f"/api/results/?competition={competition}")[1])["results"]
        match = max(results, key=lambda r: sum(len(t["boems"]) for t in r["tables"]))["id"]
        addresses = {
            "standings API": f"/api/competitions/{competition}/standings/",
            "live state API": f"/api/fixtures/{match}/live/",
            "standings page": f"/competitions/{competition}/standings/",
        }
        for path in [BARE_PATH, *addresses.values()]:
            status = get(path)[0]
            if not status.startswith("200"):
                sys.exit(f"{path} answered {status}")

        def cpu_per_request(path: str) -> float:
            start = time.process_time()
            for _ in range(REQUESTS):
                get(path)
            return (time.process_time() - start) / REQUESTS

        print(f"In process, {REQUESTS} requests per address and round, {ROUNDS} rounds; load average "
              f"{os.getloadavg()[0]:.2f}", flush=True)
        bare_times: list[float] = []
        times: dict[str, list[float]] = {name: [] for name in addresses}
        ratios: dict[str, list[float]] = {name: [] for name in addresses}
        for _ in range(ROUNDS):
            for name, path in addresses.items():
                bare = cpu_per_request(BARE_PATH)
                found = cpu_per_request(path)
                bare_times.append(bare)
                times[name].append(found)
                ratios[name].append(bare / found)
        held = True
        print(f"  {'address':16} {'path':34} {'CPU µs/request':>15} {'bare / it':>10}")
        print(f"  {'bare view':16} {BARE_PATH:34} {statistics.median(bare_times) * 1e6:15.0f} {1.0:10.2f}")
        for name, path in addresses.items():
            ratio = statistics.median(ratios[name])
            missed = ratio < TARGET_RATIO
            held = held and not missed
            print(f"  {name:16} {path:34} {statistics.median(times[name]) * 1e6:15.0f} {ratio:10.2f}"
                  f"{'   TARGET MISSED' if missed else ''}")
        print(f"target: every address at least {TARGET_RATIO} of the bare view's requests per CPU second: "
              f"{'holds' if held else 'MISSED'}")
        return 0 if held else 1
    finally:
        db.drop()


if __name__ == "__main__":
    sys.exit(main())
