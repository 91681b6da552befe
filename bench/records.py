"""Benchmark: players', partnerships' and teams' records for a union of 500 teams and 20,000 match nights.

Builds, with bulk inserts in a throw-away test database (SQLite in a temporary file, or ``test_<name>`` beside
the PostgreSQL database named by ``DATABASE_URL``, dropped at the end), a union of 500 teams (8 players each)
in 10 leagues of 50, and 20,000 approved match nights: two team sheets (16 seats), 4 tables, 7 boems a table
(560,000 boems) with their winners, strokes and five-to-nils, a straf line on about 1 boem in 50 (one in four
of them reversed as a wrong straf) and a half-time substitution on one night in ten (all of them in the first
league, as the bench has always built them). Then it times:

* the whole union's records computed from nothing: ``records_recompute(full=True)`` for every league (what
  ``manage.py records_recompute`` runs on demand, and what the first recompute after an upgrade does);
* an approval: one match night's result withdrawn and approved again, each followed by the league's
  recompute, as the standings' recompute runs it (incremental: only that night's lines are computed);
* a recompute of every league with nothing changed, and every statistic of the union read from the lines (the
  ten leaderboards, every player's and every partnership's figures as the API groups them);
* the cached and uncached reads of a player page, a leaderboard and a team page.

Target (issue 21): the union's records compute in at most 2 s, then are served from the cache. On SQLite the
database works inside this process, so its CPU time is the compute's own cost however busy the machine is (the
machine is shared; wall time is printed beside it); on PostgreSQL the wall time is what counts. The figures of
the design before (one line per player, computed in Python) are printed for comparison.

    .venv/bin/python bench/records.py            # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klawerjas .venv/bin/python bench/records.py
"""

import os
import random
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from inprocess import django_setup, throwaway_database

TEAMS, LEAGUES, BOEMS_PER_TABLE, TARGET_SECONDS = 500, 10, 7, 2.0
MATCHES = int(os.environ.get("BENCH_MATCHES", "20000"))  # a smaller union to try things quickly

django_setup("bench.sqlite3")

from django.core.cache import cache  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def build() -> list[int]:
    """The union, bulk inserted; returns the leagues' ids."""
    from clubs.models import Club, Player, Team, Union
    from matches.models import Boem, BoemEntry, Competition, Match, MatchTable, Seat, Substitution, TeamSheet

    rng = random.Random(21)
    union = Union.objects.create(name="Bench Union", short_name="BENCH")
    leagues = Competition.objects.bulk_create(
        Competition(union=union, name=f"League {n}", season="2026") for n in range(LEAGUES))
    clubs = Club.objects.bulk_create(Club(union=union, name=f"Club {i}") for i in range(100))
    teams = Team.objects.bulk_create(
        Team(club=clubs[i % 100], competition=leagues[i % LEAGUES], name=f"Team {i:03d}") for i in range(TEAMS))
    players = Player.objects.bulk_create(
        (Player(union=union, club=team.club, registration_number=f"B{team.pk:03d}-{k}",
                national_number=f"B{team.pk:03d}-{k}", first_name=f"P{k}", last_name=f"T{team.pk}")
         for team in teams for k in range(9)), batch_size=2000)
    squad = {team.pk: players[i * 9:(i + 1) * 9] for i, team in enumerate(teams)}
    by_league = {league.pk: [t for t in teams if t.competition_id == league.pk] for league in leagues}
    start = datetime(2026, 2, 1, 19, 30, tzinfo=ZoneInfo("Africa/Johannesburg"))
    matches = []
    for n in range(MATCHES):
        league = leagues[n % LEAGUES]
        home, away = rng.sample(by_league[league.pk], 2)
        kick_off = start + timedelta(days=n // 1000)
        matches.append(Match(
            competition=league, round_number=n // (MATCHES // 40) + 1, home=home, away=away,
            scheduled_start=kick_off, phase=Match.Phase.FINISHED, result_status=Match.ResultStatus.APPROVED,
            home_score=rng.randint(0, 60), away_score=rng.randint(0, 60),
            second_half_started_at=kick_off + timedelta(minutes=85), finished_at=kick_off + timedelta(minutes=160),
        ))
    Match.objects.bulk_create(matches, batch_size=2000)
    sheets = TeamSheet.objects.bulk_create(
        (TeamSheet(match=m, team_id=t, submitted_at=m.scheduled_start) for m in matches
         for t in (m.home_id, m.away_id)), batch_size=2000)
    seats, subs = [], []
    for sheet in sheets:
        team_players = squad[sheet.team_id]
        for k in range(8):
            seats.append(Seat(sheet=sheet, table_number=k // 2 + 1, role=("telman", "byspeler")[k % 2],
                              player=team_players[k]))
    match_by_id = {m.pk: m for m in matches}
    for i, sheet in enumerate(sheets):
        if i % 20:  # a half-time substitution on one night in ten
            continue
        seat = seats[i * 8 + 3]
        player_out = seat.player
        seat.player = squad[sheet.team_id][8]
        m = match_by_id[sheet.match_id]
        subs.append(Substitution(match=m, team_id=sheet.team_id, table_number=seat.table_number, role=seat.role,
                                 player_out=player_out, player_in=seat.player,
                                 made_at=m.second_half_started_at - timedelta(minutes=2)))
    Seat.objects.bulk_create(seats, batch_size=5000)
    Substitution.objects.bulk_create(subs, batch_size=2000)
    tables = MatchTable.objects.bulk_create((MatchTable(match=m, number=k) for m in matches for k in range(1, 5)),
                                            batch_size=5000)
    boems, strafs = [], []
    for table in tables:
        m = match_by_id[table.match_id]
        for number in range(1, BOEMS_PER_TABLE + 1):
            ended = m.scheduled_start + timedelta(minutes=number * 20)
            home_wins = rng.random() < 0.5
            loser = rng.choice((0, 0, 1, 2, 3, 4))
            straf = rng.random() < 0.02
            boem = Boem(table=table, number=number, ended_at=ended,
                        status=Boem.Status.STRAFFED if straf else Boem.Status.COMPLETED,
                        home_strokes=5 if home_wins and not straf else loser,
                        away_strokes=loser if home_wins or straf else 5,
                        winner_id=m.home_id if home_wins else m.away_id, points=4 if loser == 0 else 2)
            boems.append(boem)
            if straf:
                strafs.append((table, boem, m, ended, rng.random() < 0.25))
    Boem.objects.bulk_create(boems, batch_size=5000)
    entries, reversals = [], []
    for table, boem, _match, ended, _wrong in strafs:
        entries.append(BoemEntry(table=table, boem=boem, sequence=boem.number * 10, kind=BoemEntry.Kind.STRAF,
                                 team_id=boem.winner_id, points=2, recorded_at=ended))
    BoemEntry.objects.bulk_create(entries, batch_size=5000)
    for entry, (table, boem, m, ended, wrong) in zip(entries, strafs, strict=True):
        if wrong:
            other = m.away_id if entry.team_id == m.home_id else m.home_id
            reversals.append(BoemEntry(table=table, boem=boem, sequence=entry.sequence + 1, reverses=entry, points=2,
                                       kind=BoemEntry.Kind.STRAF_REVERSED, team_id=other, recorded_at=ended))
    BoemEntry.objects.bulk_create(reversals, batch_size=5000)
    print(f"  {len(players)} players, {len(seats)} seats, {len(subs)} substitutions, {len(boems)} boems, "
          f"{len(entries)} straf lines ({len(reversals)} reversed)")
    return [league.pk for league in leagues]


# Measured on this machine with the design before (commit 6d6e104: a line per player, 324,000 lines computed in
# Python and written with executemany), SQLite: every league 11.2 s (16.6 s when the machine was busier), one
# league after an approval 1.1 s (it recomputed the whole league).
BEFORE = "before (a line per player, computed in Python): whole union 11.2 s, one league after an approval 1.1 s"


def _timed(work):
    """(result, wall seconds, CPU seconds of this process, queries) of ``work()``."""
    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        return result, time.perf_counter() - wall, time.process_time() - cpu, len(queries)


def _lines() -> list[tuple]:
    from records.models import PartnershipLine

    fields = [f.attname for f in PartnershipLine._meta.fields if f.attname not in ("id", "match_version")]
    return sorted(PartnershipLine.objects.values_list(*fields))


def main() -> None:
    from django.db.models import F

    from matches.models import Match
    from records import selectors
    from records.models import PartnershipLine, RecordLine
    from records.services import records_recompute

    with throwaway_database():
        t = time.perf_counter()
        with transaction.atomic():
            leagues = build()
        print(f"database: {connection.vendor}; built {TEAMS} teams and {MATCHES} approved match nights "
              f"in {time.perf_counter() - t:.1f} s")
        print(BEFORE)
        sqlite = connection.vendor == "sqlite"
        if not sqlite:  # the tables were just bulk loaded: give the planner the statistics a live database has
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        cache.clear()

        rows, wall, cpu, queries = _timed(lambda: sum(records_recompute(competition_id=league, full=True)
                                                      for league in leagues))
        whole = cpu if sqlite else wall
        print(f"after: whole union from nothing, all {LEAGUES} leagues: {wall:.2f} s wall, {cpu:.2f} s CPU, "
              f"{queries} queries, {rows} partnership lines ({RecordLine.objects.count()} player lines in the "
              f"view); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        full = _lines()

        match = Match.objects.filter(competition_id=leagues[1]).order_by("id")[MATCHES // LEAGUES // 2]

        Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.CONFIRMED,
                                                 live_version=F("live_version") + 1)
        records_recompute(competition_id=match.competition_id)
        assert not PartnershipLine.objects.filter(match_id=match.pk).exists()
        Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.APPROVED,
                                                 live_version=F("live_version") + 1)
        written, wall, cpu, queries = _timed(lambda: records_recompute(competition_id=match.competition_id))
        print(f"after: one league after an approval (incremental): {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms "
              f"CPU, {queries} queries, {written} lines written")
        _, wall, cpu, queries = _timed(lambda: sum(records_recompute(competition_id=league) for league in leagues))
        print(f"after: every league with nothing changed: {wall:.2f} s wall, {cpu:.2f} s CPU, {queries} queries")
        same = _lines() == full
        print("the incremental lines equal the full recompute's:", "yes" if same else "NO")

        def statistics():
            boards = [selectors.competition_leaderboards(competition_id=league) for league in leagues]
            players = list(selectors.player_rows(RecordLine.objects.all()))
            partnerships = list(selectors.partnership_rows(PartnershipLine.objects.all()))
            return len(boards), len(players), len(partnerships)

        cache.clear()
        (boards, players, partnerships), wall, cpu, queries = _timed(statistics)
        print(f"after: every statistic of the union from the lines ({boards} leaderboards, {players} players' and "
              f"{partnerships} partnerships' figures): {wall:.2f} s wall, {cpu:.2f} s CPU, {queries} queries")

        player_id = RecordLine.objects.values_list("player_id", flat=True).first()
        team_id = PartnershipLine.objects.values_list("team_id", flat=True).first()
        for label, read in (
            ("player page", lambda: selectors.player_record(player_id=player_id)),
            ("leaderboards", lambda: selectors.competition_leaderboards(competition_id=leagues[0])),
            ("team page", lambda: selectors.team_record(team_id=team_id)),
        ):
            cache.clear()
            timings = []
            for _ in ("miss", "hit"):
                _, wall, _, queries = _timed(read)
                timings.append((wall, queries))
            (miss, miss_q), (hit, hit_q) = timings
            print(f"{label}: {miss * 1000:.1f} ms, {miss_q} queries uncached; {hit * 1000:.2f} ms, {hit_q} "
                  "queries cached")
        ok = whole <= TARGET_SECONDS and same
        print(f"RESULT: whole union {whole:.2f} s {'CPU' if sqlite else 'wall'} (target ≤ {TARGET_SECONDS:.1f} s):",
              "ok" if ok else "TOO SLOW" if same else "LINES DIFFER")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
