"""Writes of the records: :func:`records_recompute` rebuilds a competition's :class:`RecordLine` rows.

It runs inside the standings' recompute (``matches.standings.standings_recompute`` sends
``standings_recomputed``; records/apps.py connects it), so it is as durable as the standings: the same outbox
message, the same task, the same transaction, and idempotent (same approved sheets, same rows).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, Sum, Value, When
from django.utils import timezone

from matches.models import Boem, BoemEntry, Match, Seat, Substitution
from records.models import RecordLine

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


_COLUMNS = ("competition_id", "match_id", "played_on", "round_number", "team_id", "opponent_id", "table_number",
            "half", "player_id", "role", "partner_id", "telman_id", "byspeler_id", "boems_won", "boems_lost",
            "strokes_for", "strokes_against", "five_to_nils", "five_to_nils_against", "strafs_claimed",
            "wrong_strafs_claimed", "strafs_conceded", "wrong_strafs_against")


def _insert(rows: list[tuple[Any, ...]], batch: int = 5000) -> None:
    """Insert plain rows in :data:`_COLUMNS`' order with ``executemany``: a few hundred thousand rows a second,
    where ``bulk_create`` prepares every field of every object in Python (about ten times slower)."""
    table = connection.ops.quote_name(RecordLine._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _COLUMNS)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            cursor.executemany(sql, rows[start:start + batch])


@transaction.atomic
def records_recompute(*, competition_id: int) -> int:
    """Replace the competition's :class:`RecordLine` rows with what its approved match nights' boem sheets say,
    and renew the records token. Idempotent. Queries: 5 reads, a delete and the insert (batches of 5,000),
    whatever the number of matches; the boems are summed by the database per table and half.

    :returns: the number of rows written.
    """
    approved = Match.objects.filter(competition_id=competition_id, result_status=Match.ResultStatus.APPROVED)
    matches = {
        m[0]: m for m in approved.values_list("id", "home_id", "away_id", "round_number", "scheduled_start")
    }
    second: dict[tuple[int, int], dict[tuple[int, str], int]] = defaultdict(dict)
    for match_id, team_id, table_number, role, player_id in Seat.objects.filter(
        sheet__match__in=approved
    ).values_list("sheet__match_id", "sheet__team_id", "table_number", "role", "player_id").iterator(chunk_size=5000):
        second[(match_id, team_id)][(table_number, role)] = player_id
    substitutions = list(
        Substitution.objects.filter(match__in=approved).order_by("made_at", "id")
        .values_list("match_id", "team_id", "player_out_id", "player_in_id")
    )
    first = _first_half_lineups(second, substitutions)

    # figures[(match, team, table, half)], half 1 or 2 here; merged into 0 below where nobody was substituted.
    figures: dict[tuple[int, int, int, int], list[int]] = defaultdict(lambda: [0] * 8)
    home_won = Q(winner_id=F("table__match__home_id"))
    away_won = Q(winner_id=F("table__match__away_id"))
    boems = (
        Boem.objects.filter(table__match__in=approved).exclude(status=Boem.Status.IN_PROGRESS)
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
    for match_id, number, half, h_won, a_won, h_strokes, a_strokes, h_five, a_five in boems.iterator(chunk_size=5000):
        _, home_id, away_id, _, _ = matches[match_id]
        home = figures[(match_id, home_id, number, half)]
        away = figures[(match_id, away_id, number, half)]
        home[_BOEMS_WON] += h_won
        home[_BOEMS_LOST] += a_won
        home[_FOR] += h_strokes or 0
        home[_AGAINST] += a_strokes or 0
        home[_FIVE] += h_five
        home[_FIVE_AGAINST] += a_five
        away[_BOEMS_WON] += a_won
        away[_BOEMS_LOST] += h_won
        away[_FOR] += a_strokes or 0
        away[_AGAINST] += h_strokes or 0
        away[_FIVE] += a_five
        away[_FIVE_AGAINST] += h_five

    # Strafs from the sheets' straf lines (a referee's ruling writes one; a wrong straf is one reversed).
    reversed_line = BoemEntry.objects.filter(reverses=OuterRef("pk"), struck=False)
    strafs = (
        BoemEntry.objects.filter(table__match__in=approved, kind=BoemEntry.Kind.STRAF, struck=False)
        .annotate(half=_half("recorded_at"), wrong=Exists(reversed_line))
        .values_list("table__match_id", "table__number", "half", "team_id", "claimed_by_id", "wrong")
    )
    # claims[(match, team, table, half)] = {player_id: [upheld, wrong]}
    claims: dict[tuple[int, int, int, int], dict[int | None, list[int]]] = defaultdict(dict)
    for match_id, number, half, team_id, claimant, wrong in strafs:
        _, home_id, away_id, _, _ = matches[match_id]
        opponent_id = away_id if team_id == home_id else home_id
        claims[(match_id, team_id, number, half)].setdefault(claimant, [0, 0])[1 if wrong else 0] += 1
        figures[(match_id, opponent_id, number, half)][_WRONG_AGAINST if wrong else _CONCEDED] += 1

    adapt_date = connection.ops.adapt_datefield_value
    lines: list[tuple[Any, ...]] = []
    for (match_id, team_id), seats in second.items():
        _, home_id, away_id, round_number, start = matches[match_id]
        opponent_id = away_id if team_id == home_id else home_id
        before = first[(match_id, team_id)]
        played_on = adapt_date(timezone.localtime(start).date())
        for table_number in sorted({number for number, _ in seats}):
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
                    for claimant, (upheld, wrong) in claims.get(key, {}).items():
                        mine = own.setdefault(claimant, [0, 0])
                        mine[0] += upheld
                        mine[1] += wrong
                for player, role, partner in ((t, RecordLine.Role.TELMAN, b), (b, RecordLine.Role.BYSPELER, t)):
                    upheld, wrong = own.get(player, (0, 0))
                    lines.append((
                        competition_id, match_id, played_on, round_number, team_id, opponent_id, table_number,
                        half, player, role, partner, t, b, total[_BOEMS_WON], total[_BOEMS_LOST], total[_FOR],
                        total[_AGAINST], total[_FIVE], total[_FIVE_AGAINST], upheld, wrong, total[_CONCEDED],
                        total[_WRONG_AGAINST],
                    ))
    RecordLine.objects.filter(competition_id=competition_id).delete()
    _insert(lines)
    records_token_renew()
    return len(lines)


def records_recompute_on_standings(sender: Any = None, *, competition_id: int, **kwargs: Any) -> None:
    """``standings_recomputed``'s receiver: recompute the competition's records in the same transaction."""
    records_recompute(competition_id=competition_id)
