"""Benchmark: standings for a union of 500 teams and 20,000 approved matches.

Builds the data with bulk_create in a throw-away test database (Django's test-database machinery: SQLite
in memory, or ``test_<name>`` beside the PostgreSQL database named by ``DATABASE_URL``, dropped at the end),
then times ``standings_recompute``
(load, compute with tiebreaks, store the rows, cache) and the cached read, and prints seconds and queries.
Target (issue 4): computed in at most 1 s, then served from cache.

    .venv/bin/python bench/standings.py            # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klawerjas .venv/bin/python bench/standings.py
"""

import random
import sys
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from inprocess import django_setup, throwaway_database

TEAMS, MATCHES, TARGET_SECONDS = 500, 20_000, 1.0

django_setup("bench.sqlite3")

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def build() -> int:
    from clubs.models import Club, Team, Union
    from matches.models import Competition, Match

    union = Union.objects.create(name="Bench Union", short_name="BENCH")
    competition = Competition.objects.create(union=union, name="Bench League", season="2026")
    clubs = Club.objects.bulk_create(Club(union=union, name=f"Club {i}") for i in range(100))
    teams = Team.objects.bulk_create(
        Team(club=clubs[i % 100], competition=competition, name=f"Team {i:03d}") for i in range(TEAMS)
    )
    rng = random.Random(4)
    start = datetime(2026, 2, 1, 19, 30, tzinfo=ZoneInfo("Africa/Johannesburg"))
    matches = []
    for n in range(MATCHES):
        home, away = rng.sample(teams, 2)
        matches.append(Match(
            competition=competition, round_number=n // 250 + 1, home=home, away=away, scheduled_start=start,
            phase=Match.Phase.FINISHED, home_score=rng.randint(0, 60), away_score=rng.randint(0, 60),
            result_status=Match.ResultStatus.APPROVED,
        ))
    Match.objects.bulk_create(matches, batch_size=2000)
    return competition.pk


def main() -> None:
    from matches.results.selectors import standings_for_competition
    from matches.results.standings import standings_recompute

    with throwaway_database():
        t = time.perf_counter()
        competition_id = build()
        print(f"database: {connection.vendor}; built {TEAMS} teams and {MATCHES} approved matches "
              f"in {time.perf_counter() - t:.2f} s")
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            lines = standings_recompute(competition_id=competition_id)
            computed = time.perf_counter() - t
        print(f"standings_recompute: {computed:.3f} s, {len(queries)} queries, {len(lines)} rows "
              f"(target ≤ {TARGET_SECONDS:.1f} s)")
        print(f"  leader: {lines[0].team_name} {lines[0].league_points} pts, diff {lines[0].difference:+d}; "
              f"tie reasons given: {sum(1 for line in lines if line.tiebreak_reason)}")
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            cached = standings_for_competition(competition_id=competition_id)
            hit = time.perf_counter() - t
        print(f"cached read: {hit * 1000:.2f} ms, {len(queries)} queries, {len(cached)} rows")
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            stored = standings_for_competition(competition_id=competition_id)
            miss = time.perf_counter() - t
        print(f"cache-miss read (stored rows): {miss * 1000:.1f} ms, {len(queries)} queries, {len(stored)} rows")
        ok = computed <= TARGET_SECONDS and len(cached) == TEAMS
        print("RESULT:", "ok" if ok else "TOO SLOW")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
