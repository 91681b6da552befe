"""Writes of the records: :func:`records_recompute` brings a competition's :class:`PartnershipLine` rows up to
date with its approved match nights' boem sheets (the per-player :class:`~records.models.RecordLine` is a view
over them).

It runs inside the standings' recompute (``matches.results.standings.standings_recompute`` sends
``standings_recomputed``; records/apps.py connects it), so it is as durable as the standings: the same outbox
message, the same task, the same transaction, and idempotent (same approved sheets, same rows).

**How it is fast** (bench/records.py: a union of 500 teams and 20,000 match nights):

* *Incremental.* Each line keeps the match's ``live_version`` it was computed from (``match_version``); every
  write of a match night bumps that version (``matches.writes.match_lock``). A recompute deletes the lines of
  matches no longer approved or changed since, and computes only the approved matches that have no lines: after
  an approval, that match's eight or so lines. ``full=True`` (``manage.py records_recompute``) rebuilds all.
* *In the database.* The lines are computed and written by one ``INSERT … SELECT`` grouping the seats, the
  boems and the straf lines per table (:data:`_TABLES_SQL`), for every table whose partnership sat the whole
  night; no row passes through Python. Only a table where a half-time substitution was made is worked out in
  Python, because its first half's partnership is found by undoing the team's substitutions in order
  (:func:`_first_half_lineups`); those lines are inserted with ``executemany``.
* *Half the rows.* A line is a partnership's, not each player's; a player's figures are read through the view.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, Sum, Value, When

from matches.models import Boem, BoemEntry, Match, MatchTable, Seat, Substitution, TeamSheet
from records.models import PartnershipLine

RECORDS_TOKEN_KEY = "records:token"

# One line's figures, in this order (the columns of RecordLine they become).
_BOEMS_WON, _BOEMS_LOST, _FOR, _AGAINST, _FIVE, _FIVE_AGAINST, _CONCEDED, _WRONG_AGAINST = range(8)


def records_token() -> str:
    """A token renewed whenever any competition's records are recomputed (after the commit): the records'
    cached readings are kept under it, so a reading is never stale. 0 queries."""
    token = cache.get(RECORDS_TOKEN_KEY)
    if token is None:
        cache.add(RECORDS_TOKEN_KEY, uuid.uuid4().hex, None)
        token = cache.get(RECORDS_TOKEN_KEY)
    return str(token)


def records_token_renew() -> None:
    """Renew :func:`records_token` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: cache.set(RECORDS_TOKEN_KEY, uuid.uuid4().hex, None))


def _half(field: str) -> Case:
    """1 when ``field`` (an instant) is before the match's second half started (or it never did), else 2."""
    return Case(
        When(Q(table__match__second_half_started_at__isnull=True)
             | Q(**{f"{field}__lt": F("table__match__second_half_started_at")}), then=Value(1)),
        default=Value(2), output_field=IntegerField(),
    )


def _first_half_lineups(
    second: dict[tuple[int, int], dict[tuple[int, str], int]], substitutions: list[tuple[int, int, int, int]],
) -> dict[tuple[int, int], dict[tuple[int, str], int]]:
    """The partnerships before half-time: the seats as they stand (after any substitution), with each
    substitution undone, latest first: the player who came in gives the seat back to the player who left."""
    first = {key: dict(seats) for key, seats in second.items()}
    for match_id, team_id, player_out, player_in in reversed(substitutions):
        seats = first.get((match_id, team_id))
        if seats is None:
            continue
        for place, player in seats.items():
            if player == player_in:
                seats[place] = player_out
                break
    return first


_COLUMNS = ("competition_id", "match_id", "match_version", "team_id", "opponent_id", "table_number", "half",
            "telman_id", "byspeler_id", "boems_won", "boems_lost", "strokes_for", "strokes_against",
            "five_to_nils", "five_to_nils_against", "strafs_conceded", "wrong_strafs_against",
            "telman_strafs_claimed", "telman_wrong_strafs_claimed", "byspeler_strafs_claimed",
            "byspeler_wrong_strafs_claimed")

# Lines of matches no longer approved, or written at another version of the match than its current one.
_STALE_SQL = """
DELETE FROM {line}
WHERE competition_id = %(competition)s AND NOT EXISTS (
    SELECT 1 FROM {match} m
    WHERE m.id = {line}.match_id AND m.result_status = %(approved)s AND m.live_version = {line}.match_version
)
"""

# The lines of the competition's approved match nights that have none yet ("todo"), for every table where no
# substitution was made: one per table (half 0), its partnership from the seats (the telman's joined to the
# byspeler's: a table with one seat only is left out), its boems and strokes from the table's ended boems (the
# home side's and the away side's, the team's picked by side), its strafs from the table's straf lines (a straf
# is wrong when a line not struck reverses it): those of the other side conceded, each player's own claimed.
# {name}: table names; %(name)s: values.
# "todo CROSS JOIN" keeps SQLite's planner reading the boems of the matches to do only (it cannot tell how few
# they are); to PostgreSQL it is an inner join like any other.
_TABLES_SQL = """
WITH todo AS (
    SELECT m.id, m.competition_id, m.live_version, m.home_id, m.away_id FROM {match} m
    WHERE m.competition_id = %(competition)s AND m.result_status = %(approved)s
      AND NOT EXISTS (SELECT 1 FROM {line} l WHERE l.competition_id = m.competition_id AND l.match_id = m.id)
),
boems AS (
    SELECT a.id AS match_id, mt.number AS table_number,
           SUM(CASE WHEN b.winner_id = a.home_id THEN 1 ELSE 0 END) AS home_won,
           SUM(CASE WHEN b.winner_id = a.away_id THEN 1 ELSE 0 END) AS away_won,
           SUM(b.home_strokes) AS home_strokes, SUM(b.away_strokes) AS away_strokes,
           SUM(CASE WHEN b.winner_id = a.home_id AND b.status = %(completed)s AND b.away_strokes = 0
                    THEN 1 ELSE 0 END) AS home_five,
           SUM(CASE WHEN b.winner_id = a.away_id AND b.status = %(completed)s AND b.home_strokes = 0
                    THEN 1 ELSE 0 END) AS away_five
    FROM todo a
    CROSS JOIN {matchtable} mt
    JOIN {boem} b ON b.table_id = mt.id
    WHERE mt.match_id = a.id AND b.status <> %(in_progress)s
    GROUP BY a.id, mt.number
),
straf_lines AS (
    SELECT mt.match_id, mt.number AS table_number, e.team_id, e.claimed_by_id,
           CASE WHEN e.team_id = a.home_id THEN a.away_id ELSE a.home_id END AS against_id,
           CASE WHEN EXISTS (SELECT 1 FROM {boementry} r WHERE r.reverses_id = e.id AND r.struck = %(false)s)
                THEN 1 ELSE 0 END AS wrong
    FROM todo a
    CROSS JOIN {matchtable} mt
    JOIN {boementry} e ON e.table_id = mt.id
    WHERE mt.match_id = a.id AND e.kind = %(straf)s AND e.struck = %(false)s
),
against AS (
    SELECT match_id, table_number, against_id, SUM(1 - wrong) AS upheld, SUM(wrong) AS wrong
    FROM straf_lines GROUP BY match_id, table_number, against_id
),
claims AS (
    SELECT match_id, table_number, team_id, claimed_by_id, SUM(1 - wrong) AS upheld, SUM(wrong) AS wrong
    FROM straf_lines WHERE claimed_by_id IS NOT NULL GROUP BY match_id, table_number, team_id, claimed_by_id
)
SELECT a.competition_id, a.id, a.live_version, ts.team_id,
       CASE WHEN ts.team_id = a.home_id THEN a.away_id ELSE a.home_id END,
       t.table_number, 0, t.player_id, y.player_id,
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.home_won ELSE b.away_won END, 0),
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.away_won ELSE b.home_won END, 0),
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.home_strokes ELSE b.away_strokes END, 0),
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.away_strokes ELSE b.home_strokes END, 0),
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.home_five ELSE b.away_five END, 0),
       COALESCE(CASE WHEN ts.team_id = a.home_id THEN b.away_five ELSE b.home_five END, 0),
       COALESCE(s.upheld, 0), COALESCE(s.wrong, 0),
       COALESCE(ct.upheld, 0), COALESCE(ct.wrong, 0), COALESCE(cb.upheld, 0), COALESCE(cb.wrong, 0)
FROM todo a
CROSS JOIN {teamsheet} ts
JOIN {seat} t ON t.sheet_id = ts.id AND t.role = %(telman)s
JOIN {seat} y ON y.sheet_id = ts.id AND y.table_number = t.table_number AND y.role = %(byspeler)s
LEFT JOIN boems b ON b.match_id = a.id AND b.table_number = t.table_number
LEFT JOIN against s ON s.match_id = a.id AND s.table_number = t.table_number AND s.against_id = ts.team_id
LEFT JOIN claims ct ON ct.match_id = a.id AND ct.table_number = t.table_number AND ct.team_id = ts.team_id
    AND ct.claimed_by_id = t.player_id
LEFT JOIN claims cb ON cb.match_id = a.id AND cb.table_number = t.table_number AND cb.team_id = ts.team_id
    AND cb.claimed_by_id = y.player_id
WHERE ts.match_id = a.id
  AND NOT EXISTS (SELECT 1 FROM {substitution} su
                  WHERE su.match_id = a.id AND su.team_id = ts.team_id AND su.table_number = t.table_number)
"""


def _sql(template: str) -> str:
    """``template`` with the tables' quoted names."""
    quoted = {name: connection.ops.quote_name(model._meta.db_table) for name, model in (
        ("match", Match), ("teamsheet", TeamSheet), ("seat", Seat), ("substitution", Substitution),
        ("matchtable", MatchTable), ("boem", Boem), ("boementry", BoemEntry), ("line", PartnershipLine))}
    return template.format(**quoted)


def _params(competition_id: int) -> dict[str, Any]:
    return {
        "competition": competition_id, "approved": Match.ResultStatus.APPROVED.value,
        "telman": Seat.Role.TELMAN.value, "byspeler": Seat.Role.BYSPELER.value,
        "completed": Boem.Status.COMPLETED.value, "in_progress": Boem.Status.IN_PROGRESS.value,
        "straf": BoemEntry.Kind.STRAF.value, "false": False,
    }


def _delete_stale(*, competition_id: int, full: bool) -> None:
    """Delete the lines of matches no longer approved or changed since (``full``: every line). 1 query."""
    if full:
        PartnershipLine.objects.filter(competition_id=competition_id).delete()
        return
    with connection.cursor() as cursor:
        cursor.execute(_sql(_STALE_SQL), _params(competition_id))


def _insert_tables(*, competition_id: int) -> int:
    """Run :data:`_TABLES_SQL`: the lines of every team without a substitution in the approved matches that have
    no lines. 1 query.

    :returns: the number of lines written."""
    columns = ", ".join(connection.ops.quote_name(c) for c in _COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {_sql('{line}')} ({columns}) {_sql(_TABLES_SQL)}", _params(competition_id))
        return cursor.rowcount


def _insert(rows: list[tuple[Any, ...]], batch: int = 5000) -> None:
    """Insert plain rows in :data:`_COLUMNS`' order with ``executemany`` (``bulk_create`` would prepare every
    field of every object in Python)."""
    if not rows:
        return
    columns = ", ".join(connection.ops.quote_name(c) for c in _COLUMNS)
    sql = f"INSERT INTO {_sql('{line}')} ({columns}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            cursor.executemany(sql, rows[start:start + batch])


def _fetch(queryset: Any) -> list[tuple[Any, ...]]:
    """``queryset``'s rows as the database returns them (its SELECT's columns in order), without the ORM's
    per-row conversions: ``values_list`` of whole numbers and strings only, where those conversions change
    nothing and cost a tenth of a second per ten thousand rows."""
    sql, params = queryset.query.get_compiler(connection=connection).as_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _boem_figures_add(
    line: list[int], *, won: int, lost: int, strokes: int | None, strokes_against: int | None, five: int,
    five_against: int,
) -> None:
    """Add one side's boems at a table in a half to its figures ``line``: boems won and lost, strokes for and
    against (``None`` from an empty sum counts 0), fives made and conceded. The other side adds the same
    numbers the other way round."""
    line[_BOEMS_WON] += won
    line[_BOEMS_LOST] += lost
    line[_FOR] += strokes or 0
    line[_AGAINST] += strokes_against or 0
    line[_FIVE] += five
    line[_FIVE_AGAINST] += five_against


def _substituted_lines(*, competition_id: int) -> list[tuple[Any, ...]]:
    """The lines of the tables where a half-time substitution was made in an approved match, that have no lines
    yet, in :data:`_COLUMNS`' order: a line a half where the partnership at the table changed, else one for the
    night. (Undoing a substitution changes only the seats of its own table: the player who came in took a seat
    there and, SAKBOC 11.3, moves only within it; every other table sat as it stands all night, and is
    :data:`_TABLES_SQL`'s.)
    1 query when there is none, else 5 (the teams, the matches and seats, the substitutions, the boems and the
    straf lines, summed by the database per table and half)."""
    missing = Substitution.objects.filter(
        match__competition_id=competition_id, match__result_status=Match.ResultStatus.APPROVED,
    ).exclude(Exists(PartnershipLine.objects.filter(
        competition_id=competition_id, match_id=OuterRef("match_id"), team_id=OuterRef("team_id"),
        table_number=OuterRef("table_number"))))
    tables = set(missing.values_list("match_id", "team_id", "table_number").distinct())
    if not tables:
        return []
    substituted = {(match_id, team_id) for match_id, team_id, _ in tables}
    ids = {match_id for match_id, _ in substituted}
    approved = Match.objects.filter(pk__in=ids)
    if len(ids) > 500:  # a list of thousands of ids, compiled and sent by each query below, costs more than
        approved = Match.objects.filter(  # reading the few other matches with a substitution too
            competition_id=competition_id, result_status=Match.ResultStatus.APPROVED, substitutions__isnull=False,
        ).distinct()
    matches = {m[0]: m for m in approved.values_list("id", "home_id", "away_id", "live_version")}
    substitutions = list(
        Substitution.objects.filter(match__in=approved).order_by("made_at", "id")
        .values_list("match_id", "team_id", "player_out_id", "player_in_id")
    )
    second: dict[tuple[int, int], dict[tuple[int, str], int]] = defaultdict(dict)
    substituted_sheet = Substitution.objects.filter(match_id=OuterRef("sheet__match_id"),
                                                    team_id=OuterRef("sheet__team_id"))
    for match_id, team_id, table_number, role, player_id in _fetch(Seat.objects.filter(
        Exists(substituted_sheet), sheet__match__in=approved,
    ).values_list("sheet__match_id", "sheet__team_id", "table_number", "role", "player_id")):
        if (match_id, team_id) in substituted:
            second[(match_id, team_id)][(table_number, role)] = player_id
    first = _first_half_lineups(second, substitutions)

    # figures[(match, team, table, half)], half 1 or 2 here; merged into 0 below where the partnership stayed.
    figures: dict[tuple[int, int, int, int], list[int]] = defaultdict(lambda: [0] * 8)
    home_won = Q(winner_id=F("table__match__home_id"))
    away_won = Q(winner_id=F("table__match__away_id"))
    # Only the tables where a substitution was made (of either team: the figures are the table's).
    substituted_table = Substitution.objects.filter(match_id=OuterRef("table__match_id"),
                                                    table_number=OuterRef("table__number"))
    boems = (
        Boem.objects.filter(Exists(substituted_table), table__match__in=approved)
        .exclude(status=Boem.Status.IN_PROGRESS)
        .values("table__match_id", "table__number", half=_half("ended_at"))
        .annotate(
            home_won=Count("id", filter=home_won), away_won=Count("id", filter=away_won),
            home_for=Sum("home_strokes"), away_for=Sum("away_strokes"),
            home_five=Count("id", filter=home_won & Q(status=Boem.Status.COMPLETED, away_strokes=0)),
            away_five=Count("id", filter=away_won & Q(status=Boem.Status.COMPLETED, home_strokes=0)),
        )
        .order_by()
        .values_list("table__match_id", "table__number", "half", "home_won", "away_won", "home_for",
                     "away_for", "home_five", "away_five")
    )
    for match_id, number, half, h_won, a_won, h_strokes, a_strokes, h_five, a_five in _fetch(boems):
        _, home_id, away_id, _ = matches[match_id]
        _boem_figures_add(figures[(match_id, home_id, number, half)], won=h_won, lost=a_won, strokes=h_strokes,
                          strokes_against=a_strokes, five=h_five, five_against=a_five)
        _boem_figures_add(figures[(match_id, away_id, number, half)], won=a_won, lost=h_won, strokes=a_strokes,
                          strokes_against=h_strokes, five=a_five, five_against=h_five)

    # Strafs from the sheets' straf lines (a referee's ruling writes one; a wrong straf is one reversed).
    reversed_line = BoemEntry.objects.filter(reverses=OuterRef("pk"), struck=False)
    strafs = (
        BoemEntry.objects.filter(Exists(substituted_table), table__match__in=approved, kind=BoemEntry.Kind.STRAF,
                                 struck=False)
        .annotate(half=_half("recorded_at"), wrong=Exists(reversed_line))
        .values_list("table__match_id", "table__number", "half", "team_id", "claimed_by_id", "wrong")
    )
    # claims[(match, team, table, half)] = {player_id: [upheld, wrong]}
    claims: dict[tuple[int, int, int, int], dict[int | None, list[int]]] = defaultdict(dict)
    for match_id, number, half, team_id, claimant, wrong in strafs:
        _, home_id, away_id, _ = matches[match_id]
        opponent_id = away_id if team_id == home_id else home_id
        claims[(match_id, team_id, number, half)].setdefault(claimant, [0, 0])[1 if wrong else 0] += 1
        figures[(match_id, opponent_id, number, half)][_WRONG_AGAINST if wrong else _CONCEDED] += 1

    lines: list[tuple[Any, ...]] = []
    for (match_id, team_id), seats in sorted(second.items()):
        _, home_id, away_id, version = matches[match_id]
        opponent_id = away_id if team_id == home_id else home_id
        before = first[(match_id, team_id)]
        for table_number in sorted({number for number, _ in seats if (match_id, team_id, number) in tables}):
            telman, byspeler = seats.get((table_number, "telman")), seats.get((table_number, "byspeler"))
            old = (before.get((table_number, "telman")), before.get((table_number, "byspeler")))
            halves: list[tuple[int, int | None, int | None, list[int]]] = []
            if old == (telman, byspeler):
                halves.append((0, telman, byspeler, [1, 2]))
            else:
                halves.extend([(1, old[0], old[1], [1]), (2, telman, byspeler, [2])])
            for half, t, b, parts in halves:
                if t is None or b is None:
                    continue
                total = [0] * 8
                own: dict[int | None, list[int]] = {}
                for part in parts:
                    key = (match_id, team_id, table_number, part)
                    for index, value in enumerate(figures.get(key, ())):
                        total[index] += value
                    for claimed_by, (upheld, wrongs) in claims.get(key, {}).items():
                        mine = own.setdefault(claimed_by, [0, 0])
                        mine[0] += upheld
                        mine[1] += wrongs
                t_upheld, t_wrong = own.get(t, (0, 0))
                b_upheld, b_wrong = own.get(b, (0, 0))
                lines.append((
                    competition_id, match_id, version, team_id, opponent_id, table_number, half, t, b,
                    total[_BOEMS_WON], total[_BOEMS_LOST], total[_FOR], total[_AGAINST], total[_FIVE],
                    total[_FIVE_AGAINST], total[_CONCEDED], total[_WRONG_AGAINST], t_upheld, t_wrong, b_upheld,
                    b_wrong,
                ))
    return lines


@transaction.atomic
def records_recompute(*, competition_id: int, full: bool = False) -> int:
    """Bring the competition's :class:`PartnershipLine` rows up to date with its approved match nights' boem
    sheets, and renew the records token. Incremental: the lines of a match no longer approved, or changed since
    (its ``live_version``), are deleted, and only the approved matches without lines are computed; ``full``
    deletes and computes every line (``manage.py records_recompute``). Idempotent; the lines are the same either
    way. Queries: the delete, the ``INSERT … SELECT`` of the teams without a substitution (:data:`_TABLES_SQL`),
    then 1 read when no substituted team is left to compute, else 5 reads and the insert
    (batches of 5,000); whatever the number of matches.

    :returns: the number of partnership lines written.
    """
    _delete_stale(competition_id=competition_id, full=full)
    written = _insert_tables(competition_id=competition_id)
    substituted = _substituted_lines(competition_id=competition_id)
    _insert(substituted)
    records_token_renew()
    return written + len(substituted)


def records_recompute_on_standings(sender: Any = None, *, competition_id: int, **kwargs: Any) -> None:
    """``standings_recomputed``'s receiver: recompute the competition's records in the same transaction."""
    records_recompute(competition_id=competition_id)
