"""Benchmark: every public read a match night leans on, under gunicorn, against a bare Django view (issue 23).

Plays a reduced demo season (4 clubs, ``--size small``, seed 7) into a fresh database (a SQLite file in a
temporary folder; or, with ``DATABASE_URL`` naming PostgreSQL, a new database on that server, dropped at the
end), starts gunicorn (``gunicorn.conf.py``: its workers and threads) on 127.0.0.1 with production settings and
the bare view of ``bench/load_settings.py`` (``bench/loadkit.py``), then loads each address from ``BENCH_THREADS``
client threads on kept-alive connections (``BENCH_SECONDS`` each, at most ``BENCH_MAX_REQUESTS``). The machine
is shared and noisy, so each address is measured right after the bare view, in ``BENCH_ROUNDS`` rounds: its
ratio is the median over the rounds of its requests/s over the bare view's just before (the bare view's line
gives the median of all its measurements). gunicorn is stopped at the end, always.

The addresses (the competition is the season's first league, the match its played match with the most boems):

* the match report ``/matches/{id}/`` (36 boem trees in the demo), its live part ``/matches/{id}/live/`` (what
  the page's htmx polls) and the live state ``/api/fixtures/{id}/live/``, each a plain GET (a first visit);
* the standings page ``/competitions/{id}/standings/`` and the standings API ``/api/competitions/{id}/standings/``;
* the results page ``/competitions/{id}/results/`` and the fixtures page ``/competitions/{id}/``;
* for information, not a goal: the live part polled with the ETag a phone holds (``If-None-Match`` → 304).

Target: every address (the first seven) at least half the bare view's requests/s. Exit status 0 when every
target holds and no request failed, 1 otherwise.

    .venv/bin/python bench/load_pages.py
    BENCH_SECONDS=5 BENCH_ROUNDS=3 .venv/bin/python bench/load_pages.py
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import sys

from loadkit import BARE_PATH, closed_loop, demo_season_served, get, gunicorn_answers_check

SECONDS = float(os.environ.get("BENCH_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
THREADS = int(os.environ.get("BENCH_THREADS", "8"))
MAX_REQUESTS = int(os.environ.get("BENCH_MAX_REQUESTS", "50000"))
TARGET_RATIO = 0.5


def etag_of(port: int, path: str) -> str:
    """The ETag ``path`` answers with now (a phone's first poll)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        response.read()
        return response.getheader("ETag") or ""
    finally:
        conn.close()


def addresses(port: int) -> tuple[dict[str, str], int, int]:
    """The addresses to load, by name, and the competition's and the match's ids."""
    status, body = get(port, "/api/competitions/?kind=league")
    assert status == 200, (status, body[:500])
    competition = json.loads(body)["results"][0]["id"]
    status, body = get(port, f"/api/results/?competition={competition}")
    assert status == 200, (status, body[:500])
    results = json.loads(body)["results"]
    match = max(results, key=lambda r: sum(len(t["boems"]) for t in r["tables"]))["id"]
    return {
        "bare view": BARE_PATH,
        "match report": f"/matches/{match}/",
        "live part": f"/matches/{match}/live/",
        "live state API": f"/api/fixtures/{match}/live/",
        "standings page": f"/competitions/{competition}/standings/",
        "standings API": f"/api/competitions/{competition}/standings/",
        "results page": f"/competitions/{competition}/results/",
        "fixtures page": f"/competitions/{competition}/",
    }, competition, match


def main() -> int:
    with demo_season_served() as (port, db, log):
        endpoints, _, match = addresses(port)
        gunicorn_answers_check(port, endpoints.values(), log)
        polled = f"/matches/{match}/live/"
        polled_headers = {"If-None-Match": etag_of(port, polled)}

        print(f"gunicorn on 127.0.0.1:{port} ({db.vendor}, gunicorn.conf.py workers/threads, {os.cpu_count()} CPUs);"
              f" {THREADS} client threads, {SECONDS:g} s per address, {ROUNDS} rounds; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        polled_name = "live part, polled (304)"
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in [*endpoints, polled_name]}
        ratios: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(ROUNDS):
            for name in runs:
                if name == "bare view":
                    continue
                path, headers = (polled, polled_headers) if name == polled_name else (endpoints[name], None)
                expect = 304 if name == polled_name else 200
                closed_loop(port, path, min(0.5, SECONDS), threads=THREADS, max_requests=MAX_REQUESTS,
                            headers=headers, expect=expect)  # warm every worker's caches and connections
                bare = closed_loop(port, BARE_PATH, SECONDS, threads=THREADS, max_requests=MAX_REQUESTS)
                found = closed_loop(port, path, SECONDS, threads=THREADS, max_requests=MAX_REQUESTS,
                                    headers=headers, expect=expect)
                runs["bare view"].append(bare)
                runs[name].append(found)
                ratios[name].append(found["rps"] / bare["rps"] if bare["rps"] else 0.0)
        ratios["bare view"] = [1.0]
        held = True
        print(f"  {'address':24} {'path':40} {'req/s':>7} {'/ bare':>7} {'p50 ms':>7} {'p99 ms':>7}  errors")
        for name, found in runs.items():
            rps = statistics.median(r["rps"] for r in found)
            ratio = statistics.median(ratios[name])
            p50 = statistics.median(r["p50"] for r in found)
            p99 = statistics.median(r["p99"] for r in found)
            errors = sum(int(r["errors"]) for r in found)
            path = endpoints.get(name, polled)
            goal = name not in ("bare view", polled_name)
            missed = goal and ratio < TARGET_RATIO
            held = held and not missed and not errors
            print(f"  {name:24} {path:40} {rps:7.0f} {ratio:7.2f} {p50:7.1f} {p99:7.1f}  {errors}"
                  f"{'   TARGET MISSED' if missed else ''}")
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        print(f"target: every address at least {TARGET_RATIO} of the bare view's requests/s, no errors: "
              f"{'holds' if held else 'MISSED'}")
        return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
