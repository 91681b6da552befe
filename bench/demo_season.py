"""Benchmark: the full demo season (8 clubs, 56 match nights, 4 tables each, 75-minute halves) played card by
card by the engine's bots and written through the match-night services into a fresh SQLite file, as
``make demo`` does (or, when ``DATABASE_URL`` is set, into ``test_<name>`` beside that database, dropped at the
end).

Prints the seconds taken, the hands played and hands per second, and where the time went: the engine
(dealing, playing, adjudicating), SQL in the database driver (every query timed), and the rest (the ORM and
the services' Python). Target (issue 7): at most 60 s on this machine.

    .venv/bin/python bench/demo_season.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klawerjas .venv/bin/python bench/demo_season.py
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
TARGET_SECONDS = 60.0

OWN_SQLITE_FILE = not os.environ.get("DATABASE_URL")  # like `make demo`: a SQLite file on disk, migrated here
if OWN_SQLITE_FILE:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='klawerjas-bench-')}/demo.sqlite3"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402


class SqlTimer:
    """``connection.execute_wrapper`` that counts queries and the time spent in the database driver."""

    def __init__(self) -> None:
        self.queries, self.seconds = 0, 0.0

    def __call__(self, execute, sql, params, many, context):  # noqa: ANN001
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.queries += 1


def main() -> int:
    from klawerjas_league.demo import demo_season_run, demo_summary

    timer = SqlTimer()
    load_before = os.getloadavg()
    with connection.execute_wrapper(timer):
        stats = demo_season_run(seed=2026, clubs=8, size="full", progress=sys.stderr)
    for line in demo_summary(stats):
        print(line)
    other = stats.seconds - stats.engine_seconds - timer.seconds
    print(f"demo season: {stats.seconds:.1f} s for {stats.match_nights} match nights, {stats.hands:,} hands "
          f"({stats.hands / stats.seconds:,.0f} hands/s); engine {stats.engine_seconds:.1f} s, SQL "
          f"{timer.seconds:.1f} s in {timer.queries:,} queries, ORM and services {other:.1f} s "
          f"({connection.vendor}); target <= {TARGET_SECONDS:.0f} s: "
          f"{'met' if stats.seconds <= TARGET_SECONDS else 'NOT met'}")
    # the machine is shared: the load (1-minute average, before and after) says how much of it the run had
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"(5-minute {load_after[1]:.2f}; {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    if OWN_SQLITE_FILE:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        sys.exit(main())
    old = setup_databases(verbosity=0, interactive=False)
    try:
        code = main()
    finally:
        teardown_databases(old, verbosity=0)
    sys.exit(code)
