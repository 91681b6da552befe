"""Runs of lines at once: a finished stretch of play at one table or every table of a match in a few queries (the
demo season's bots), and lines brought from another installation (:mod:`matches.nightfile`), each checked and
scored like the single writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player, Team
from matches.models import Boem, BoemEntry, Match, MatchTable, Seat
from matches.night.boem_sheet.checks import entry_clock_check, table_lock
from matches.night.boem_sheet.scoring import _next_sequence, _sheet_apply, _SheetRows, sheets_read
from matches.writes import match_lock, now_or, score_and_save, team_in_match

# --- A run of lines at once (the demo season) -----------------------------------------------------------

@dataclass(frozen=True)
class StrokeLine:
    """A going-on for :func:`sheets_record`: ``team``'s telman went on ``strokes`` at ``now``."""

    team: Team
    strokes: int
    claimed_by: Player | None = None
    now: datetime | None = None
    by: Any = None  # the history user; ``None``: the batch's ``by``


@dataclass(frozen=True)
class StrafLine:
    """An upheld straf ("af") for :func:`sheets_record`, as :func:`straf_record`'s arguments."""

    team: Team
    points: int | None = None
    claimed_by: Player | None = None
    note: str = ""
    now: datetime | None = None
    by: Any = None


@dataclass(frozen=True)
class StrafReversalLine:
    """The straf on the line just before was wrong (as :func:`straf_reverse`)."""

    claimed_points: bool = False
    note: str = ""
    now: datetime | None = None
    by: Any = None


BoemLine = StrokeLine | StrafLine | StrafReversalLine


def sheet_record(
    *, match: Match, table_number: int, lines: Sequence[BoemLine], by: Any = None, now: datetime | None = None,
) -> list[BoemEntry]:
    """Record a finished run of a table's lines at once: :func:`sheets_record` for one table.

    :returns: the lines written, in order. :raises ValidationError: as the single writes; nothing is written.
    """
    return sheets_record(match=match, runs={table_number: lines}, by=by, now=now).get(table_number, [])


@transaction.atomic
def sheets_record(
    *, match: Match, runs: Mapping[int, Sequence[BoemLine]], by: Any = None, now: datetime | None = None,
) -> dict[int, list[BoemEntry]]:
    """Record finished runs of lines at a match's tables at once (the demo's bots play a stretch of a night at
    every table, then write it): the same lines, boems, points and match score as :func:`going_on_record`,
    :func:`straf_record` and :func:`straf_reverse` line by line, in a few queries: the match is locked, read and
    scored once, and the tables, their seats, lines and boems are read in one query each for all the tables.
    The lines are a sheet the table agreed: goings-on are confirmed by the opposing telman, strafs and reversals
    by ``by`` (the referee).

    Checked at each table before anything is written: the clock at ``now`` (default: the table's first line's)
    (SAKBOC 1.9, 2.2, 12.1); each going-on's ``claimed_by`` is its side's telman (6.8); a straf's claimant is
    seated for its side; then the engine's rules for every line (7.3, 6.5, 6.2, Notes §VII).

    :param runs: each table's lines in the order played, by table number; a table with none is left alone.
    :returns: the lines written at each table, in order, by table number.
    :raises ValidationError: as the single writes, for the first table that refuses; nothing is written.
    """
    runs = {number: lines for number, lines in sorted(runs.items()) if lines}
    if not runs:
        return {}
    match = match_lock(match)
    tables = {t.number: t for t in MatchTable.objects.select_for_update().filter(match=match, number__in=runs)}
    for number in runs:
        if number not in tables:
            table_lock(match, number)  # raises the refusal of a table that is not this match's
    seats = {(s.table_number, s.sheet.team_id, s.player_id): s for s in Seat.objects.filter(
        sheet__match=match, table_number__in=runs).select_related("sheet")}
    read = sheets_read(list(tables.values()))
    rows = _SheetRows()
    written: dict[int, list[BoemEntry]] = {}
    scored: list[int] = []
    for number, lines in runs.items():
        table = tables[number]
        entries, points_changed = _run_record(
            match, table, lines, seats={k[1:]: s for k, s in seats.items() if k[0] == number},
            lines_before=read[table.pk][0], boems=read[table.pk][1], by=by, now=now_or(now or lines[0].now),
            rows=rows)
        written[number] = entries
        if points_changed:
            scored.append(number)
    rows.write()
    if scored:
        where = f"table {scored[0]}" if len(scored) == 1 else f"tables {', '.join(map(str, scored))}"
        score_and_save(match, by=by, reason=f"{where}: boem sheet recorded")
    return written


def _run_record(
    match: Match, table: MatchTable, lines: Sequence[BoemLine], *, seats: dict[tuple[int, int], Seat],
    lines_before: list[BoemEntry], boems: list[Boem], by: Any, now: datetime, rows: _SheetRows,
) -> tuple[list[BoemEntry], bool]:
    """One table's run for :func:`sheets_record` (the match and the table locked, its ``seats`` by ``(team id,
    player id)``, its lines and boems as read under the lock): check, add the rows to ``rows`` (written here only
    before a reversal, which names its straf), and say whether points moved (the caller writes ``rows`` and
    scores the match once). :raises ValidationError: as :func:`sheets_record`."""
    entry_clock_check(match, table, now=now, cut_before_interval=None, ask_cut=False)
    telmen = {team_id: seat for (team_id, _), seat in seats.items() if seat.role == Seat.Role.TELMAN}
    sequence = _next_sequence(table, lines_before)
    entries: list[BoemEntry] = []
    claimed: dict[int, int] = {}
    reversal_of: dict[int, int] = {}
    for line in lines:
        line_by = line.by if line.by is not None else by
        at = line.now or now
        if isinstance(line, StrafReversalLine):
            if not entries or entries[-1].kind != BoemEntry.Kind.STRAF:
                raise ValidationError(_("Only a straf can be reversed (Notes §VII)."))
            straf = entries[-1]
            assert straf.team_id is not None  # a straf always names the side punished (SAKBOC 6.2)
            entry = BoemEntry(table=table, sequence=sequence, kind=BoemEntry.Kind.STRAF_REVERSED,
                              team_id=match.opponent_id(straf.team_id), points_claimed=line.claimed_points,
                              note=line.note, recorded_at=straf.recorded_at, recorded_by=line_by, confirmed_at=at,
                              confirmed_by=line_by)
            reversal_of[len(entries)] = len(entries) - 1
        else:
            team_in_match(match, line.team)
            if line.claimed_by is not None:
                seat = seats.get((line.team.pk, line.claimed_by.pk))
                if seat is None:
                    raise ValidationError(
                        _("%(full_name)s is not seated at table %(table_number)s for that side.")
                        % {"full_name": line.claimed_by.full_name, "table_number": table.number}
                    )
                if isinstance(line, StrokeLine) and seat.role != Seat.Role.TELMAN:
                    raise ValidationError(_("SAKBOC 6.8: going on the boem is the telman's (counter's) "
                                          "responsibility."))
            if isinstance(line, StrokeLine):
                opponent = telmen.get(match.opponent_id(line.team.pk))
                entry = BoemEntry(table=table, sequence=sequence, kind=BoemEntry.Kind.STROKE, team=line.team,
                                  strokes=line.strokes, claimed_by=line.claimed_by, recorded_at=at,
                                  recorded_by=line_by, confirmed_at=at,
                                  confirmed_by_player_id=opponent.player_id if opponent else None)
            else:
                entry = BoemEntry(table=table, sequence=sequence, kind=BoemEntry.Kind.STRAF, team=line.team,
                                  claimed_by=line.claimed_by, note=line.note, recorded_at=at, recorded_by=line_by,
                                  confirmed_at=at, confirmed_by=line_by)
                if line.points is not None:
                    claimed[len(entries)] = line.points
        entries.append(entry)
        sequence += 1
    # a reversal names its straf, which must be written first: write the lines in runs that end with a straf
    points_changed = False
    start = 0
    for index, straf_index in [*sorted(reversal_of.items()), (len(entries), None)]:
        first = start == 0
        write = _sheet_apply(match, table, new=entries[start:index], by=by, reason="boem sheet recorded",
                             claimed={i - start: p for i, p in claimed.items() if start <= i < index},
                             lines=lines_before if first else None, boems=boems if first else None, rows=rows)
        points_changed |= write.points_changed
        if straf_index is not None:
            rows.write()  # the straf gets its key, and the next run reads this one's lines and boems
            entries[index].reverses = entries[straf_index]
        start = index
    return entries, points_changed


# --- Lines brought from another installation (matches/nightfile/) -----------------------------------------------------

@transaction.atomic
def sheet_lines_restore(
    *, match: Match, table: MatchTable, lines: Sequence[BoemEntry], claimed: dict[int, int] | None = None, by: Any,
    reason: str,
) -> None:
    """Put lines written elsewhere on ``table``'s sheet as they stand there (unsaved, in sequence order, with their
    own ``sequence``, times, confirmations and people; ``reverses`` set to a line already here or among ``lines``),
    scored by the engine under this union's rules like every write here. The clock is not checked (the night was
    played where it was written); the caller holds the match's lock and compares the engine's score with the one
    that came with the lines.

    :param claimed: the points a straf's counter claimed, by position in ``lines`` (SAKBOC 6.5, 6.2).
    :raises ValidationError: the engine's refusal of a line (nothing is written).
    """
    claimed = claimed or {}
    start = 0
    for index, line in enumerate(lines):
        if line.reverses is not None and line.reverses.pk is None:  # reverses a line of this batch: write that first
            _sheet_apply(match, table, new=lines[start:index], by=by, reason=reason,
                         claimed={i - start: p for i, p in claimed.items() if start <= i < index})
            line.reverses = line.reverses  # its primary key is known now
            start = index
    _sheet_apply(match, table, new=lines[start:], by=by, reason=reason,
                 claimed={i - start: p for i, p in claimed.items() if i >= start})
