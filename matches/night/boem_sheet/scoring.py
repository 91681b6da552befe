"""The writer of a boem sheet: replay the table's whole sheet through ``engine.boem_sheet.score_sheet`` under the
union's ruleset, save the boems, lines and match score as the engine scored them, with their history rows;
and read a sheet as the engine scores it. No arithmetic of SAKBOC 6.1, 6.2, 6.6 or 7.3 lives here: the
engine's is the only one. Every write of :mod:`matches.night.boem_sheet` goes through :func:`_sheet_apply`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils.translation import gettext as _

from engine.boem_sheet import SheetError, SheetLine, SheetScore, score_sheet
from matches.models import SHEET_ORDER, Boem, BoemEntry, Match, MatchTable
from matches.rules import competition_ruleset
from matches.writes import field_check, history_model, history_row, match_lock, score_and_save, version_check

_ENDED_STATUS = {
    None: Boem.Status.IN_PROGRESS,
    "strokes": Boem.Status.COMPLETED,
    "straf": Boem.Status.STRAFFED,
    "wrong-straf": Boem.Status.STRAFFED,
    "time": Boem.Status.UNFINISHED,
}
_BOEM_FIELDS = ["number", "status", "home_strokes", "away_strokes", "winner", "points", "ended_at"]
_ENTRY_FIELDS = ["boem", "points", "kind", "team", "strokes", "claimed_by", "struck", "confirmed_at", "confirmed_by",
                 "confirmed_by_player", "disputed_at", "disputed_by_player", "dispute_reason", "corrected_at",
                 "corrected_by", "referee_reason"]
_ENTRY_FOREIGN_KEYS = ("table", "boem", "team", "claimed_by", "reverses", "recorded_by", "device", "confirmed_by",
                       "confirmed_by_player", "disputed_by_player", "corrected_by")


# --- The writer: replay the sheet through the engine, save what changed --------------------------------

def _line(entry: BoemEntry, match: Match, *, claimed: int | None = None) -> SheetLine:
    side = None if entry.team_id is None else (0 if entry.team_id == match.home_id else 1)
    if entry.kind == BoemEntry.Kind.STROKE:
        return SheetLine("stroke", side, entry.strokes)
    if entry.kind == BoemEntry.Kind.STRAF:
        return SheetLine("straf", side, claimed=claimed)
    if entry.kind == BoemEntry.Kind.STRAF_REVERSED:
        return SheetLine("wrong-straf", side, points_claimed=entry.points_claimed)
    return SheetLine("time")


@dataclass
class SheetWrite:
    """What one write did to a table's sheet: the engine's score and the table's new ``sheet_version``."""

    score: SheetScore
    version: int
    points_changed: bool


def _sheet_apply(
    match: Match, table: MatchTable, *, new: Sequence[BoemEntry] = (), changed: Sequence[BoemEntry] = (),
    by: Any, reason: str, claimed: dict[int, int] | None = None, lines: list[BoemEntry] | None = None,
    boems: list[Boem] | None = None, rows: _SheetRows | None = None,
) -> SheetWrite:
    """Add the ``new`` lines (unsaved, with ``sequence`` and ``recorded_at`` set) and save the ``changed`` ones,
    replay the table's sheet through the engine, and write every boem and line whose score changed, with their
    history rows: a new line's by its ``recorded_by`` and :func:`line_reason`, the rest by ``by`` and
    ``reason``; then the table's version, and the match score when points moved.

    :param claimed: the points a new straf line's counter claimed, by its position in ``new`` (SAKBOC 6.5, 6.2).
    :param lines: the table's lines as the caller read them under the match's lock (:func:`_sheet_lines`), so
        they are not read again; default: read here.
    :param boems: the table's boems as the caller read them under the lock; default: read here.
    :param rows: the caller writes several tables' sheets at once (:func:`sheets_record`): the new boems and
        lines, the lines scored again, their history rows and the table's version are added to ``rows``, which
        the caller writes (:meth:`_SheetRows.write`), then scores the match once when
        :attr:`SheetWrite.points_changed` says points moved. Default: written and scored here.
    :raises ValidationError: the engine's refusal of a line, naming its clause (nothing is written).
    """
    changed_by_pk = {e.pk: e for e in changed}
    existing = [changed_by_pk.get(e.pk, e) for e in (_sheet_lines(table) if lines is None else lines)]
    claimed_by_entry = {id(new[i]): points for i, points in (claimed or {}).items()}
    sheet = sorted([e for e in (*existing, *new) if not e.struck],
                   key=lambda e: (e.recorded_at, e.sequence))
    try:
        score = score_sheet([_line(e, match, claimed=claimed_by_entry.get(id(e))) for e in sheet],
                            competition_ruleset(match.competition))
    except SheetError as error:
        raise ValidationError(str(error)) from None

    side_team = (match.home_id, match.away_id)
    boems_by_number = {b.number: b for b in (
        Boem.objects.select_for_update().filter(table=table) if boems is None else boems)}
    before = {n: _boem_values(b) for n, b in boems_by_number.items()}
    wanted: dict[int, Boem] = {}
    for boem_score in score.boems:
        boem = boems_by_number.get(boem_score.number) or Boem(table=table, number=boem_score.number)
        boem.status = _ENDED_STATUS[boem_score.ended_by]
        boem.home_strokes, boem.away_strokes = boem_score.strokes
        boem.winner_id = side_team[boem_score.winner] if boem_score.winner is not None else None
        boem.points = boem_score.points
        boem.ended_at = sheet[boem_score.lines[-1]].recorded_at if boem_score.ended_by else None
        wanted[boem_score.number] = boem
    line_boem = {id(e): score.line_boem[i] for i, e in enumerate(sheet)}
    line_points = {id(e): score.line_points[i] for i, e in enumerate(sheet)}

    # Boems changed or gone are saved one by one, so django-simple-history writes their row (with who and why);
    # new ones in bulk (by ``rows``), with their history rows written there.
    for boem in [b for n, b in boems_by_number.items() if n not in wanted]:
        boem._history_user, boem._change_reason = by, reason  # type: ignore[attr-defined]
        boem.delete()
    to_update = [b for n, b in wanted.items() if n in before and _boem_values(b) != before[n]]
    # a boem that stops being in progress is saved before one that becomes so (one in progress per table)
    to_update.sort(key=lambda b: b.status == Boem.Status.IN_PROGRESS)
    for boem in to_update:
        boem._history_user, boem._change_reason = by, reason  # type: ignore[attr-defined]
        boem.save(update_fields=_BOEM_FIELDS[1:])

    own_rows = rows is None
    rows = _SheetRows() if rows is None else rows
    rows.boems += [(b, by, reason) for n, b in wanted.items() if n not in boems_by_number]
    entry_updates: list[BoemEntry] = []
    for entry in existing:
        number = line_boem.get(id(entry))
        line_boem_row = wanted.get(number) if number is not None else None
        points = line_points.get(id(entry), entry.points)
        new_boem = line_boem_row is not None and line_boem_row.pk is None  # written by ``rows``: the line moves to it
        if entry.pk in changed_by_pk or new_boem or entry.boem_id != (line_boem_row.pk if line_boem_row else None) \
                or entry.points != points:
            entry.boem, entry.points = line_boem_row, points
            entry_updates.append(entry)
    for entry in new:
        number = line_boem.get(id(entry))
        entry.boem = wanted.get(number) if number is not None else None
        entry.points = line_points.get(id(entry), 0)
    for entry in (*new, *entry_updates):
        field_check(entry, _ENTRY_FOREIGN_KEYS)
    rows.entries += [(e, e.recorded_by, line_reason(e, match)) for e in new]
    rows.entry_updates += [(e, by, reason if e.pk in changed_by_pk else f"scored again: {reason}")
                           for e in entry_updates]
    rows.tables.append(table)
    table.sheet_version += 1
    awarded_before = {n: v[3:5] for n, v in before.items() if v[3] is not None}
    awarded_after = {n: (b.winner_id, b.points) for n, b in wanted.items() if b.winner_id is not None}
    points_changed = awarded_before != awarded_after
    if own_rows:
        rows.write()
        if points_changed:
            score_and_save(match, by=by, reason=f"table {table.number}: {reason}")
    return SheetWrite(score=score, version=table.sheet_version, points_changed=points_changed)


@dataclass
class _SheetRows:
    """The rows that writes to one or more tables' sheets add: new boems and lines, lines scored again (each
    with the history row's user and reason) and the tables whose version moves; :meth:`write` puts them in one
    statement a kind, whatever the number of tables."""

    boems: list[tuple[Boem, Any, str]] = field(default_factory=list)
    entries: list[tuple[BoemEntry, Any, str]] = field(default_factory=list)
    entry_updates: list[tuple[BoemEntry, Any, str]] = field(default_factory=list)
    tables: list[MatchTable] = field(default_factory=list)

    def write(self) -> None:
        """Write the rows (the boems first: the lines name them), their history rows and the tables' versions;
        then start empty. The caller holds the match's lock."""
        if self.boems:
            Boem.objects.bulk_create([b for b, _, _ in self.boems])
        if self.entry_updates:
            BoemEntry.objects.bulk_update([e for e, _, _ in self.entry_updates], _ENTRY_FIELDS)
        if self.entries:
            BoemEntry.objects.bulk_create([e for e, _, _ in self.entries])
        if self.boems:
            history_model(Boem).objects.bulk_create(
                [_history_with_id(b, "+", by=by, reason=reason) for b, by, reason in self.boems])
        if self.entries or self.entry_updates:
            history_model(BoemEntry).objects.bulk_create(
                [history_row(e, history_type="+", by=by, reason=reason) for e, by, reason in self.entries]
                + [history_row(e, history_type="~", by=by, reason=reason) for e, by, reason in self.entry_updates])
        moves = Counter(t.pk for t in self.tables)
        for step in sorted(set(moves.values())):
            MatchTable.objects.filter(pk__in=[pk for pk, n in moves.items() if n == step]).update(
                sheet_version=F("sheet_version") + step)
        self.boems, self.entries, self.entry_updates, self.tables = [], [], [], []


def line_reason(entry: BoemEntry, match: Match) -> str:
    """What a new line says in the history (``"Athlone Aces on 2 (at the table)"``), the same however written."""
    team = _side_name(match, entry.team_id) if entry.team_id else ""
    if entry.kind == BoemEntry.Kind.STROKE:
        where = "at the table" if entry.device_id else "entered by the referee" if entry.referee_reason else "recorded"
        return f"{team} on {entry.strokes} ({where})"
    if entry.kind == BoemEntry.Kind.STRAF:
        return f"straf by {team}: {entry.points} points (SAKBOC 6.2)"
    if entry.kind == BoemEntry.Kind.STRAF_REVERSED:
        extra = " + 2 for points claimed before (SAKBOC 6.6)" if entry.points_claimed else ""
        return f"wrong straf reversed (Notes §VII): {entry.points} points to {team}{extra}"
    return "time: a boem in progress is unfinished (SAKBOC 2.2, interpretation 3)"


def _boem_values(boem: Boem) -> tuple[Any, ...]:
    """What a boem row says, in the order of ``_BOEM_FIELDS[1:]`` (winner and points at 3 and 4)."""
    return (boem.status, boem.home_strokes, boem.away_strokes, boem.winner_id, boem.points, boem.ended_at)


def _history_with_id(boem: Boem, history_type: str, *, by: Any, reason: str) -> Any:
    row = history_row(boem, history_type=history_type, by=by, reason=reason)
    row.id = boem.pk
    return row


def _sheet_lines(table: MatchTable) -> list[BoemEntry]:
    """Every line of the table's sheet, struck ones too, in ``SHEET_ORDER`` (one query; the caller holds the
    match's lock, so they stay as read until the write commits)."""
    return list(BoemEntry.objects.filter(table=table).order_by(*SHEET_ORDER))


def _next_sequence(table: MatchTable, lines: list[BoemEntry] | None = None) -> int:
    """The ``sequence`` of the table's next line: of the ``lines`` read already, or one query."""
    if lines is not None:
        return max((e.sequence for e in lines), default=0) + 1
    last = BoemEntry.objects.filter(table=table).order_by("-sequence").values_list("sequence", flat=True).first()
    return (last or 0) + 1


def _sheet_version_check(table: MatchTable, expected_version: int | None) -> None:
    version_check(expected=expected_version, current=table.sheet_version,
                  what=f"The boem sheet of table {table.number}")


def _side_name(match: Match, team_id: int | None) -> str:
    return match.home.name if team_id == match.home_id else match.away.name


def _not_after_approval(match: Match) -> None:
    if match.result_status == Match.ResultStatus.APPROVED:
        raise ValidationError(_("The result is approved; a union official must reopen it before the sheet changes."))


def _entry_lock(entry: BoemEntry) -> tuple[Match, MatchTable, BoemEntry, list[BoemEntry]]:
    """The line's match locked (:func:`matches.writes.match_lock`), its table, and the table's lines read afresh
    under that lock (the line among them): one read of the sheet serves the checks and the writer.

    :raises BoemEntry.DoesNotExist: the line is gone.
    """
    match = match_lock(entry.table.match_id if hasattr(entry, "table") else entry.table_id)
    table = MatchTable.objects.select_for_update().get(pk=entry.table_id)
    lines = _sheet_lines(table)
    fresh = next((line for line in lines if line.pk == entry.pk), None)
    if fresh is None:
        raise BoemEntry.DoesNotExist(f"line {entry.pk} is not on the sheet")
    return match, table, fresh, lines


def sheets_read(tables: Sequence[MatchTable]) -> dict[int, tuple[list[BoemEntry], list[Boem]]]:
    """Every line (struck ones too, in ``SHEET_ORDER``) and boem of ``tables``, by table id, in two queries for
    all the tables; the boems under a row lock. The caller holds the match's lock, so they stay as read until
    its write commits (:func:`sheets_record`, the clock's time call at every table)."""
    read: dict[int, tuple[list[BoemEntry], list[Boem]]] = {t.pk: ([], []) for t in tables}
    for entry in BoemEntry.objects.filter(table__in=read).order_by(*SHEET_ORDER):
        read[entry.table_id][0].append(entry)
    for boem in Boem.objects.select_for_update().filter(table__in=read):
        read[boem.table_id][1].append(boem)
    return read


# --- Reading the sheet as the engine scores it ----------------------------------------------------------

def sheet_score(*, table: MatchTable, match: Match, until: datetime | None = None) -> SheetScore:
    """The engine's score of a table's sheet (lines struck off left out), of the lines that happened up to
    ``until`` when given. Two queries; read-only."""
    entries = BoemEntry.objects.filter(table=table, struck=False).order_by(*SHEET_ORDER)
    if until is not None:
        entries = entries.filter(recorded_at__lte=until)
    return score_sheet([_line(e, match) for e in entries], competition_ruleset(match.competition))


def strokes_at(*, table: MatchTable, match: Match, at: datetime) -> tuple[int, int]:
    """The strokes (home, away) of the boem in progress at ``table`` at the moment ``at`` (0-0 when none was)."""
    return hand_start(table=table, match=match, at=at)[0]


def hand_start(
    *, table: MatchTable, match: Match, at: datetime, going_on: tuple[str, int] | None = None
) -> tuple[tuple[int, int], bool]:
    """The strokes (home, away) the hand in play at ``at`` started from, and whether the going-on made in that
    hand (``(side, strokes)``, from its hand record) is on the sheet already: then it is the boem's last line,
    and the hand started from the strokes before it. What a disputed hand's ``state_before.strokes`` must say
    for the engine's verdict and the sheet to count alike (its going-on is an event of the record)."""
    entries = list(BoemEntry.objects.filter(table=table, struck=False, recorded_at__lte=at).order_by(*SHEET_ORDER))
    score = score_sheet([_line(e, match) for e in entries], competition_ruleset(match.competition))
    if going_on is not None and entries:
        last, side, strokes = entries[-1], going_on[0], going_on[1]
        if last.kind == BoemEntry.Kind.STROKE and last.strokes == strokes and \
                last.team_id == (match.home_id if side == "home" else match.away_id):
            home, away = next(b for b in score.boems if b.number == score.line_boem[-1]).strokes
            return ((home - strokes, away) if side == "home" else (home, away - strokes)), True
    current = score.current
    return (current.strokes if current is not None else (0, 0)), False
