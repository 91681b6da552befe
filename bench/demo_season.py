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

import argparse
import ctypes
import gc
import os
import resource
import subprocess
import sys
import time

from inprocess import django_setup, throwaway_database

TARGET_SECONDS = 12.0  # issue 23 (issue 7's was 60 s)
SEED = 2026
#: The digest of the hands and results (``demo.season.demo_season_digest``) of seed 2026, computed on
#: the code before issue 23's write changes: a faster season must play the same hands to the same results. Issue
#: 34 renamed the published snapshots ("After round 7"); with the old titles the digest is the one before,
#: 541ccbf6d279ab19948cc4319285133bb6991dc92f5306b4bfa51e38c98173cf.
EXPECTED_DIGESTS: dict[tuple[int, str], str] = {
    (8, "full"): "139e9d11564c52afce979c9934725645efaf478eef2189eacd9739bdeb031d3d",
}

OWN_SQLITE_FILE = django_setup("demo.sqlite3")  # like `make demo`: a SQLite file on disk, migrated here

from django.db import connection  # noqa: E402


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


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def settled_rss_mb() -> float | None:
    """This process's resident memory now, in MB, after a garbage collection and glibc's ``malloc_trim(0)``
    have handed freed memory back to the system: what the process still holds. ``None`` without glibc.

    The peak (:func:`peak_rss_mb`) also counts memory freed but kept by the C allocator for reuse, which grows
    with the run's length without being held by anything; this figure does not."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    gc.collect()
    libc.malloc_trim(0)
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(*, clubs: int, size: str) -> int:
    from demo.season import demo_season_digest, demo_season_run, demo_summary
    from matches.models import Competition

    timer = SqlTimer()
    load_before = os.getloadavg()
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    with connection.execute_wrapper(timer):
        stats = demo_season_run(seed=SEED, clubs=clubs, size=size, progress=sys.stderr)
    for line in demo_summary(stats):
        print(line)
    other = stats.seconds - stats.engine_seconds - timer.seconds
    print(f"demo season: {stats.seconds:.1f} s for {stats.match_nights} match nights, {stats.hands:,} hands "
          f"({stats.hands / stats.seconds:,.0f} hands/s); engine {stats.engine_seconds:.1f} s, SQL "
          f"{timer.seconds:.1f} s in {timer.queries:,} queries, ORM and services {other:.1f} s "
          f"({connection.vendor}); target <= {TARGET_SECONDS:.0f} s: "
          f"{'met' if stats.seconds <= TARGET_SECONDS else 'NOT met'}")
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    settled = settled_rss_mb()  # before the digest reads the whole season back
    cpu = cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime
    print(f"CPU time of the season: {cpu:.1f} s (this process; on a busy machine the wall-clock figure above "
          f"includes the time it waited for a CPU)")
    digest = demo_season_digest(Competition.objects.get(name="Premier League"))
    expected = EXPECTED_DIGESTS.get((clubs, size))
    same = "no pinned digest for this size" if expected is None else (
        "the same hands and results as pinned" if digest == expected else "DIFFERENT from the pinned digest")
    print(f"digest of the hands and results: {digest} ({same})")
    print(f"peak resident memory: {peak_rss_mb():.0f} MB ({stats.match_nights} match nights)")
    if settled is not None:
        print(f"resident memory after the season, freed memory handed back: {settled:.0f} MB "
              f"({stats.match_nights} match nights)")
    # the machine is shared: the load (1-minute average, before and after) says how much of it the run had
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"(5-minute {load_after[1]:.2f}; {os.cpu_count()} CPUs)")
    return 0


def memory_runs() -> int:
    """The peak resident memory of the (small-size) season at 30 and 56 match nights, each in a process of its
    own (``ru_maxrss`` only grows), and what each still holds at the end once freed memory is handed back: a
    season that keeps something per night grows with the nights."""
    env = dict(os.environ)
    if OWN_SQLITE_FILE:
        del env["DATABASE_URL"]  # each run makes its own SQLite file
    for clubs in (6, 8):  # 30 and 56 match nights
        out = subprocess.run([sys.executable, __file__, "--clubs", str(clubs), "--size", "small"],
                             capture_output=True, text=True, check=True, env=env).stdout
        for line in out.splitlines():
            if line.startswith(("peak resident memory", "resident memory after")):
                print(f"{clubs} clubs, small: {line}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=8, help="clubs in the league (8: 56 match nights)")
    parser.add_argument("--size", choices=["full", "small"], default="full", help="75- or 15-minute halves")
    parser.add_argument("--memory", action="store_true",
                        help="instead: the peak memory of the small season at 30 and 56 match nights")
    args = parser.parse_args()
    if args.memory:
        sys.exit(memory_runs())
    if OWN_SQLITE_FILE:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        sys.exit(main(clubs=args.clubs, size=args.size))
    with throwaway_database():
        code = main(clubs=args.clubs, size=args.size)
    sys.exit(code)
