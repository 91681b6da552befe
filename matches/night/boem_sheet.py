"""One home for the boem sheet: every write to a table's sheet of a match night, scored by the rules engine.

A table's boem sheet (Notes §V) is a run of :class:`~matches.models.BoemEntry` lines. Every write here adds or
changes lines, then replays the table's whole sheet through ``engine.boem_sheet.score_sheet`` under the union's
ruleset (``matches.rules.competition_ruleset``), and saves the boems, each line's boem and points, and the match score
as the engine scored them. No arithmetic of SAKBOC 6.1, 6.2, 6.6 or 7.3 lives in the league: the engine's is
the only one, so the table's device, the referee's ruling and the match report always agree.

The writes, each atomic and keyword-only, each locking the match's row and then the table's (two devices at
one table, or a device and the referee, are served one after the other):

* :func:`going_on_record`: a side's telman went on 1 or 2 strokes: from the table's device (provisional until
  the opposing telman confirms), or by the referee on the table's behalf with a written reason (confirmed).
* :func:`entry_confirm`, :func:`entry_dispute`: the opposing telman confirms a going-on on the device, or
  disputes it (a query for the referee); the referee confirms too, which settles a dispute.
* :func:`entry_correct`: the referee corrects a going-on (strokes, side: SAKBOC 7.1) or strikes it off, with a
  written reason; history keeps who, when, why and the old value.
* :func:`straf_record`, :func:`straf_reverse`: the referee's ruling on an "af" (SAKBOC 6.2; Notes §VII, 6.6).
* :func:`time_call`: time is called or the table stopped (SAKBOC 2.2, 12.1): a boem in progress is unfinished.
* :func:`straf_claim_opened`, :func:`straf_claim_closed`: an "af" waits for the referee: the table takes no
  going-on meanwhile (SAKBOC 1.10).
* :func:`sheet_record`, :func:`sheets_record`: a finished run of lines at one table, or at every table of a
  stretch of play, at once, in a few queries (the demo season's bots).

Clock rules at entry (each refusal cites its clause): nothing before play starts (SAKBOC 1.9); during the
interval only the hand already cut when it was called is finished, one at a table (2.2); nothing once time is
called (2.2); a stopped or unplayed table takes nothing (12.1, 1.13). A write based on a sheet that has
changed since (``expected_version`` ≠ the table's ``sheet_version``) is refused with code ``stale`` (409).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.models import Player, Team
from engine.boem_sheet import SheetError, SheetLine, SheetScore, score_sheet
from matches.models import SHEET_ORDER, Boem, BoemEntry, Match, MatchTable, Seat, TableDevice
from matches.rules import competition_ruleset, plays_deals
from matches.selectors import clock_deadlines
from matches.writes import (
    field_check,
    hhmm,
    history_model,
    history_row,
    match_lock,
    now_or,
    score_and_save,
    team_in_match,
    version_check,
)

#: Phases in which a table's sheet takes lines (the interval only for hands already cut, SAKBOC 2.2).
RECORDING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)

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


# --- Reading the clock and the table -------------------------------------------------------------------

def table_lock(match: Match, table_number: int) -> MatchTable:
    """The match's table ``table_number`` under a row lock.

    :raises ValidationError: no such table (tables exist once play starts, SAKBOC 1.9).
    """
    table = MatchTable.objects.select_for_update().filter(match=match, number=table_number).first()
    if table is None:
        if match.phase == Match.Phase.SCHEDULED:
            raise ValidationError(_("SAKBOC 1.9: no cards may be played before the starting time is announced."))
        raise ValidationError(
            _("Table %(table_number)s is not a table of this match.") % {"table_number": table_number}
        )
    return table


def entry_phase(match: Match, now: datetime) -> tuple[str, datetime | None]:
    """The phase a line entered at ``now`` falls in, and when that phase began: the match's phase, read with the
    clock, so a deadline passed before its timer fired counts already (the first half's 75 minutes make the
    interval due, SAKBOC 1.2; the end of the second half or of extra time is time, 2.2, 1.12)."""
    deadlines = clock_deadlines(match)
    due = {Match.Phase.FIRST_HALF: ("first_half_ends_at", Match.Phase.INTERVAL),
           Match.Phase.SECOND_HALF: ("second_half_ends_at", Match.Phase.FINISHED),
           Match.Phase.EXTRA_TIME: ("extra_time_ends_at", Match.Phase.FINISHED)}.get(match.phase)
    if due is not None and due[0] in deadlines and now >= deadlines[due[0]]:
        return due[1], deadlines[due[0]]
    return match.phase, match.interval_started_at if match.phase == Match.Phase.INTERVAL else None


def entry_clock_check(
    match: Match, table: MatchTable, *, now: datetime, cut_before_interval: bool | None, ask_cut: bool = True
) -> None:
    """Whether a going-on may be entered at ``table`` at ``now``.

    :param cut_before_interval: during the interval, the table's answer to "was this hand cut before the
        interval was called?"; ``None`` is refused unless ``ask_cut`` is false (a finished run of the demo's bots,
        which finish only the hands already cut).
    :raises ValidationError: before play (SAKBOC 1.9); in the interval a hand not cut before it was called (not
        said: code ``interval_cut_unasked``), or a second hand at the table (2.2); after time (2.2); the table
        stopped or not played (12.1, 1.13); an "af" waiting for the referee's ruling (1.10).
    """
    phase, since = entry_phase(match, now)
    if phase == Match.Phase.SCHEDULED:
        raise ValidationError(_("SAKBOC 1.9: no cards may be played before the starting time is announced."))
    if phase not in RECORDING_PHASES:
        raise ValidationError(_("SAKBOC 2.2: when time is announced, all play stops; nothing more goes on the boem."))
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(
            _("SAKBOC 12.1: table %(table_number)s is not playing (%(value)s); nothing more is recorded there.")
            % {"table_number": table.number, "value": table.get_status_display()}
        )
    if phase == Match.Phase.INTERVAL:
        at = hhmm(since) if since else "the interval"
        if cut_before_interval is None and ask_cut:
            raise ValidationError(
                _(
                    "SAKBOC 2.2: the interval was called at %(at)s: say whether this hand was cut before it was called "
                    "(only such a hand is finished)."
                )
                % {"at": at},
                code="interval_cut_unasked",
            )
        if cut_before_interval is False:
            raise ValidationError(
                _(
                    "SAKBOC 2.2: at the interval (%(at)s) only a hand already cut is finished; a hand cut after the "
                    "call is not played."
                )
                % {"at": at}
            )
        if since is not None and BoemEntry.objects.filter(table=table, recorded_at__gte=since, struck=False).exclude(
                kind=BoemEntry.Kind.TIME).exists():
            raise ValidationError(
                _(
                    "SAKBOC 2.2: at the interval (%(at)s) each table finishes only the hand already cut, and this "
                    "table's is on the sheet."
                )
                % {"at": at}
            )
    if table.open_strafs:
        raise ValidationError(_("SAKBOC 1.10: 'af' was said at this table and waits for the referee's ruling; the "
                              "boem goes on after it."))


def _telmen(match: Match, table_number: int) -> dict[int, Seat]:
    """The two telmen seated at a table now (after substitutions): ``{team_id: seat}``."""
    return {s.sheet.team_id: s for s in Seat.objects.filter(
        sheet__match=match, table_number=table_number, role=Seat.Role.TELMAN).select_related("sheet", "player")}


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
        boem = wanted.get(number) if number is not None else None
        points = line_points.get(id(entry), entry.points)
        new_boem = boem is not None and boem.pk is None  # written by ``rows``: the line moves to it
        if entry.pk in changed_by_pk or new_boem or entry.boem_id != (boem.pk if boem else None) \
                or entry.points != points:
            entry.boem, entry.points = boem, points
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


# --- Goings-on ------------------------------------------------------------------------------------------

@transaction.atomic
def going_on_record(
    *, match: Match, table_number: int, team: Team, strokes: int, device: TableDevice | None = None,
    by: Any = None, reason: str = "", opponents_under_fifty: bool | None = None,
    cut_before_interval: bool | None = None, claimed_by: Player | None = None, now: datetime | None = None,
    expected_version: int | None = None,
) -> BoemEntry:
    """``team``'s telman goes on ``strokes`` at a table (Notes §V): a line on the sheet, scored by the engine
    (5 strokes win the boem: 2 points, 4 five strokes clear, SAKBOC 6.1).

    From the table's ``device`` the line is provisional until the opposing telman confirms it; entered by the
    referee (``by``, no device) on the table's behalf it needs a written ``reason`` and is confirmed at once.

    :param opponents_under_fifty: the table's answer to "do the opponents count under 50?" (roem and sturk
        included, Notes §VI): 2 strokes only with yes (SAKBOC 7.3 allows 1 or 2); ``None``: not asked.
    :param cut_before_interval: during the interval, "was the hand cut before the interval was called?" (2.2).
    :param claimed_by: the player who went on (default: the side's telman); must be that telman (SAKBOC 6.8).
    :param expected_version: the table's ``sheet_version`` the device or form showed.
    :raises ValidationError: 1 or 2 strokes only (7.3), 2 with the opponents at 50 or more (Notes §VI), not the
        telman (6.8), the clock rules of :func:`entry_clock_check`, no reason from the referee, a sheet changed
        since ``expected_version`` (code ``stale``).
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, team)
    if plays_deals(match.competition):
        raise ValidationError(f"{match.competition} is scored deal by deal: its tables enter deals, not goings-on.")
    if strokes not in (1, 2):
        raise ValidationError(
            _("SAKBOC 7.3: a telman goes on 1 or 2 strokes at a time, never %(strokes)s.") % {"strokes": strokes}
        )
    if strokes == 2 and opponents_under_fifty is False:
        raise ValidationError(_("Notes §VI: 2 strokes only when the opponents count under 50 (their roem and sturk "
                              "included); otherwise 1."))
    if device is None and not reason.strip():
        raise ValidationError(_("Say why you enter this going-on on the table's behalf."))
    table = table_lock(match, table_number)
    _sheet_version_check(table, expected_version)
    entry_clock_check(match, table, now=now, cut_before_interval=cut_before_interval)
    telman = _telmen(match, table_number).get(team.pk)
    if claimed_by is not None and (telman is None or telman.player_id != claimed_by.pk):
        raise ValidationError(
            _(
                "SAKBOC 6.8: going on the boem is the telman's (counter's) responsibility; %(full_name)s is not "
                "%(team)s's telman at table %(table_number)s."
            )
            % {"full_name": claimed_by.full_name, "team": team.name, "table_number": table_number}
        )
    lines = _sheet_lines(table)
    entry = BoemEntry(
        table=table, sequence=_next_sequence(table, lines), kind=BoemEntry.Kind.STROKE, team=team, strokes=strokes,
        claimed_by=telman.player if telman else None, recorded_at=now, recorded_by=by, device=device,
        referee_reason=reason.strip() if device is None else "",
        confirmed_at=now if device is None else None, confirmed_by=by if device is None else None,
    )
    who = "on the table's behalf" if device is None else "at the table"
    _sheet_apply(match, table, new=[entry], by=by, reason=f"{team.name} on {strokes} ({who})", lines=lines)
    return entry


# --- Confirmations, disputes and corrections ------------------------------------------------------------

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


def _opposing_telman(match: Match, entry: BoemEntry, table_number: int) -> Seat | None:
    return _telmen(match, table_number).get(match.opponent_id(entry.team_id)) if entry.team_id else None


@transaction.atomic
def entry_confirm(
    *, entry: BoemEntry, device: TableDevice | None = None, user: Any = None, now: datetime | None = None,
    expected_version: int | None = None,
) -> BoemEntry:
    """Confirm a going-on: by the opposing telman on the table's ``device`` (SAKBOC 6.8: the boem is the
    counters' business), or by ``user``: the referee or marker (SAKBOC 1.10, 1.11; this settles a dispute) or
    the opposing telman signed in with an account. Confirming twice changes nothing.

    :raises PermissionDenied: a user who is none of those; a device of another table.
    :raises ValidationError: a line struck off; a disputed line confirmed from the device (the referee settles
        it); a sheet changed since ``expected_version`` (code ``stale``).
    """
    now = now_or(now)
    match, table, entry, lines = _entry_lock(entry)
    if entry.confirmed_at is not None:
        return entry
    if entry.struck:
        raise ValidationError(_("This line was struck off the sheet."))
    if device is not None:
        if device.link.match_id != match.pk or device.link.table_number != table.number:
            raise PermissionDenied(_("This device is signed in at another table."))
        if entry.disputed_at is not None:
            raise ValidationError(_("This going-on is disputed: the referee settles it."))
        _sheet_version_check(table, expected_version)
        telman = _opposing_telman(match, entry, table.number)
        entry.confirmed_by_player = telman.player if telman else None
        who = telman.player.full_name if telman else "the opposing telman"
    else:
        is_official = user is not None and user.pk is not None and user.pk in (match.referee_id, match.marker_id)
        telman = _opposing_telman(match, entry, table.number)
        is_telman = telman is not None and user is not None and user.pk is not None and \
            telman.player.user_id == user.pk
        if not (is_official or is_telman):
            raise PermissionDenied(_("Only the opposing telman or the referee confirms a boem-sheet entry."))
        _sheet_version_check(table, expected_version)
        entry.confirmed_by = user
        who = "the referee" if is_official else telman.player.full_name  # type: ignore[union-attr]
    entry.confirmed_at = now
    settled = " (dispute settled)" if entry.disputed_at is not None else ""
    _sheet_apply(match, table, changed=[entry], by=user, reason=f"confirmed by {who}{settled}", lines=lines)
    return entry


@transaction.atomic
def entry_dispute(
    *, entry: BoemEntry, device: TableDevice, reason: str, now: datetime | None = None,
    expected_version: int | None = None,
) -> BoemEntry:
    """The opposing telman disputes a going-on on the table's device: a query for the referee, who settles it
    by confirming or correcting the line (SAKBOC 1.10). The line stays on the sheet, marked disputed.

    :raises ValidationError: no reason; the line is not a provisional going-on; a sheet changed since
        ``expected_version`` (code ``stale``). :raises PermissionDenied: a device of another table.
    """
    now = now_or(now)
    match, table, entry, lines = _entry_lock(entry)
    if device.link.match_id != match.pk or device.link.table_number != table.number:
        raise PermissionDenied(_("This device is signed in at another table."))
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Say what is wrong with this going-on: the referee reads it."))
    if entry.kind != BoemEntry.Kind.STROKE or entry.state != "provisional":
        raise ValidationError(_("Only a going-on that is not yet confirmed can be disputed at the table."))
    _sheet_version_check(table, expected_version)
    telman = _opposing_telman(match, entry, table.number)
    entry.disputed_at, entry.dispute_reason = now, reason
    entry.disputed_by_player = telman.player if telman else None
    _sheet_apply(match, table, changed=[entry], by=None, reason=f"disputed: {reason}", lines=lines)
    return entry


@transaction.atomic
def entry_correct(
    *, entry: BoemEntry, by: Any, reason: str, strokes: int | None = None, team: Team | None = None,
    strike: bool = False, now: datetime | None = None, expected_version: int | None = None,
) -> BoemEntry:
    """The referee corrects a going-on on the table's behalf: its ``strokes`` (1 or 2), its side (a stroke on
    the wrong side goes to the opponents, SAKBOC 7.1), or strikes it off the sheet (``strike``). The line is
    confirmed by the referee (a dispute is settled); the sheet is scored again from that line on, and the
    history keeps who, when, why (``reason``) and the old values.

    :raises ValidationError: no reason; nothing changed; not a going-on (a ruling's straf is final, SAKBOC
        1.10); the result approved; a sheet changed since ``expected_version`` (code ``stale``); whatever the
        engine refuses once corrected (its clause).
    """
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Say why you correct this line: the history keeps it."))
    match, table, entry, lines = _entry_lock(entry)
    _not_after_approval(match)
    if entry.kind != BoemEntry.Kind.STROKE:
        raise ValidationError(_("SAKBOC 1.10: a ruling is final; only a going-on is corrected here."))
    if entry.struck:
        raise ValidationError(_("This line was struck off already."))
    if entry.boem_id is not None and any(
            line.boem_id == entry.boem_id and line.kind in (BoemEntry.Kind.STRAF, BoemEntry.Kind.STRAF_REVERSED)
            for line in lines):
        raise ValidationError(_("SAKBOC 1.10: a ruling ended this boem, and the referee's decision is final: its "
                              "goings-on are not corrected here (the ruling's points rest on them)."))
    _sheet_version_check(table, expected_version)
    if team is not None:
        team_in_match(match, team)
    changes = []
    if strike:
        entry.struck, entry.boem = True, None
        changes.append("struck off")
    if strokes is not None and strokes != entry.strokes:
        if strokes not in (1, 2):
            raise ValidationError(
                _("SAKBOC 7.3: a telman goes on 1 or 2 strokes at a time, never %(strokes)s.") % {"strokes": strokes}
            )
        changes.append(f"{entry.strokes} → {strokes} strokes")
        entry.strokes = strokes
    if team is not None and team.pk != entry.team_id:
        changes.append(f"{_side_name(match, entry.team_id)} → {team.name} (SAKBOC 7.1)")
        entry.team = team
        telman = _telmen(match, table.number).get(team.pk)
        entry.claimed_by = telman.player if telman else None
    if not changes:
        raise ValidationError(_("Nothing to correct: change the strokes or the side, or strike the line off."))
    entry.corrected_at, entry.corrected_by, entry.referee_reason = now, by, reason
    if entry.confirmed_at is None:
        entry.confirmed_at, entry.confirmed_by = now, by
    _sheet_apply(match, table, changed=[entry], by=by, reason=f"corrected by the referee ({', '.join(changes)}): "
                 f"{reason}", lines=lines)
    return entry


# --- Strafs (the referee's rulings) ---------------------------------------------------------------------

def _ruling_phase_check(match: Match) -> None:
    if match.phase == Match.Phase.SCHEDULED:
        raise ValidationError(_("SAKBOC 1.9: no cards may be played before the starting time is announced."))
    _not_after_approval(match)


@transaction.atomic
def straf_record(
    *, match: Match, table_number: int, team: Team, points: int | None = None, claimed_by: Player | None = None,
    note: str = "", by: Any = None, at: datetime | None = None, now: datetime | None = None,
    expected_version: int | None = None, going_on: tuple[Team, int] | None = None,
    going_on_reason: str = "gone on in the disputed hand",
) -> BoemEntry:
    """``team`` punished ("af") and the referee upheld it: the boem in progress when "af" was said (``at``)
    ends in its favour with the points of SAKBOC 6.2 as the union reads it (the engine's
    ``straf_points``). A ruling may come after time for an "af" said before it, until the result is approved.

    :param points: the points the counter claimed, if the sheet says (checked: SAKBOC 6.5, 6.2).
    :param at: when "af" was said (default ``now``): the line's place on the sheet (just before time, when the
        "af" was logged after time for play before it).
    :param going_on: ``(team, strokes)`` gone on in the same hand before "af" and not yet on the sheet (the table
        takes no going-on after "af"): written just before the straf, so its strokes count for 6.2 as in the
        engine's verdict.
    :raises ValidationError: 2 or 4 only (6.5) and what 6.2 allows; ``claimed_by`` not seated at the table for
        ``team``; before play (1.9); the table not played (1.13); the result approved; a sheet changed since
        ``expected_version`` (code ``stale``).
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, team)
    _ruling_phase_check(match)
    table = table_lock(match, table_number)
    if table.status == MatchTable.Status.NOT_PLAYED:
        raise ValidationError(_("SAKBOC 1.13: table %(table_number)s is not played.") % {"table_number": table_number})
    _sheet_version_check(table, expected_version)
    if claimed_by is not None and not Seat.objects.filter(sheet__match=match, sheet__team=team,
                                                          table_number=table_number, player=claimed_by).exists():
        raise ValidationError(
            _("%(full_name)s is not seated at table %(table_number)s for %(team)s.")
            % {"full_name": claimed_by.full_name, "table_number": table_number, "team": team.name}
        )
    at = _before_time(match, table, at or now)
    new = []
    if going_on is not None:  # gone on in the hand "af" was said in, not yet on the sheet: its strokes count
        gone_team, gone_strokes = going_on
        team_in_match(match, gone_team)
        telman = _telmen(match, table_number).get(gone_team.pk)
        new.append(BoemEntry(
            table=table, sequence=_next_sequence(table), kind=BoemEntry.Kind.STROKE, team=gone_team,
            strokes=gone_strokes, claimed_by=telman.player if telman else None,
            recorded_at=at - timedelta(microseconds=1), recorded_by=by, referee_reason=going_on_reason,
            confirmed_at=now, confirmed_by=by,
        ))
    entry = BoemEntry(
        table=table, sequence=_next_sequence(table) + len(new), kind=BoemEntry.Kind.STRAF, team=team,
        claimed_by=claimed_by, note=note, recorded_at=at, recorded_by=by, confirmed_at=now, confirmed_by=by,
    )
    _sheet_apply(match, table, new=[*new, entry], by=by, reason=f"straf by {team.name} (SAKBOC 6.2)",
                 claimed={len(new): points} if points is not None else None)
    return entry


def _before_time(match: Match, table: MatchTable, at: datetime) -> datetime:
    """Where a ruling's straf goes on the sheet: at ``at``, when "af" was said, unless the table's last line by
    then is time called (the "af" was logged after time for play before it, SAKBOC 2.2): then just before that
    line, in the boem time ended, never in a boem of its own after time. An "af" in extra time (1.12) stays."""
    last = BoemEntry.objects.filter(table=table, struck=False, recorded_at__lte=at).order_by(
        "-recorded_at", "-sequence").first()
    if last is None or last.kind != BoemEntry.Kind.TIME:
        return at
    if match.extra_time_started_at is not None and last.recorded_at <= match.extra_time_started_at <= at:
        return at
    return last.recorded_at - timedelta(microseconds=1)


@transaction.atomic
def straf_reverse(
    *, entry: BoemEntry, claimed_points: bool, note: str = "", by: Any = None, now: datetime | None = None
) -> BoemEntry:
    """The referee rules a straf wrong: the punisher is punished instead (Notes §VII). The boem goes to the side
    wrongly punished with what a straf from its own position earns (SAKBOC 6.2), and another 2 when its telman
    had already claimed points (6.6): the engine's ``wrong_straf_points``.

    :raises ValidationError: the line is not a straf, is already reversed, or the result is approved.
    """
    now = now_or(now)
    match, table, straf, lines = _entry_lock(entry)
    if straf.kind != BoemEntry.Kind.STRAF:
        raise ValidationError(_("Only a straf can be reversed (Notes §VII)."))
    if any(line.reverses_id == straf.pk for line in lines):
        raise ValidationError(_("This straf has already been reversed."))
    _not_after_approval(match)
    victim_id = match.opponent_id(straf.team_id)
    reversal = BoemEntry(
        table=table, sequence=_next_sequence(table, lines), kind=BoemEntry.Kind.STRAF_REVERSED, team_id=victim_id,
        points_claimed=claimed_points, reverses=straf, note=note, recorded_at=straf.recorded_at, recorded_by=by,
        confirmed_at=now, confirmed_by=by,
    )
    extra = " + 2 for points claimed before (SAKBOC 6.6)" if claimed_points else ""
    _sheet_apply(match, table, new=[reversal], by=by, reason=f"wrong straf reversed (Notes §VII){extra}",
                 lines=lines)
    return reversal


@transaction.atomic
def straf_reversal_strike(*, entry: BoemEntry, reason: str, by: Any = None, now: datetime | None = None) -> BoemEntry:
    """Strike off a wrong-straf reversal (:func:`straf_reverse`) so its straf stands after all: the union's appeals
    committee upheld an appeal against a ruling of a wrong straf (issue 22; SAKBOC 1.10 makes the referee's
    decision final only on the night). The sheet is scored again; history keeps who, when and ``reason``.

    :raises ValidationError: no reason; the line is not a reversal or is struck already; the result approved
        (reopen it first, ``matches.results.services.result_reopen``).
    """
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Say why the reversal is struck off: the history keeps it."))
    match, table, line, lines = _entry_lock(entry)
    if line.kind != BoemEntry.Kind.STRAF_REVERSED:
        raise ValidationError(_("Only a wrong-straf reversal is struck off here (Notes §VII)."))
    if line.struck:
        raise ValidationError(_("This line was struck off already."))
    _not_after_approval(match)
    line.struck, line.boem = True, None
    line.corrected_at, line.corrected_by, line.referee_reason = now, by, reason[:300]
    _sheet_apply(match, table, changed=[line], by=by, reason=f"wrong-straf reversal struck off: {reason}",
                 lines=lines)
    return line


def straf_claim_opened(*, match: Match, table_number: int) -> None:
    """An "af" was said at the table and waits for the referee (called by the referee's services inside their
    transaction, the match locked): the table takes no going-on until it is ruled (SAKBOC 1.10)."""
    MatchTable.objects.filter(match=match, number=table_number).update(open_strafs=F("open_strafs") + 1)


def straf_claim_closed(*, match: Match, table_number: int) -> None:
    """The referee ruled on an "af" at the table (the counterpart of :func:`straf_claim_opened`)."""
    MatchTable.objects.filter(match=match, number=table_number, open_strafs__gt=0).update(
        open_strafs=F("open_strafs") - 1)


# --- Time -----------------------------------------------------------------------------------------------

def time_call(
    match: Match, table: MatchTable, *, now: datetime, by: Any, reason: str,
    read: tuple[list[BoemEntry], list[Boem]] | None = None,
) -> None:
    """Time is called at ``table`` (full time, the end of extra time, or the table stopped; SAKBOC 2.2, 12.1):
    a time line ends a boem in progress as unfinished (DOMAIN.md interpretation 3; its strokes stay). The caller
    holds the match's lock (the clock services); a table with no boem in progress gets no line.

    :param read: the table's lines and boems as the caller read them under the lock (:func:`sheets_read`, for
        every table at once); default: read here.
    """
    lines, boems = read if read is not None else (None, None)
    if boems is None:
        in_progress = Boem.objects.filter(table=table, status=Boem.Status.IN_PROGRESS).exists()
    else:
        in_progress = any(b.status == Boem.Status.IN_PROGRESS for b in boems)
    if not in_progress:
        return
    entry = BoemEntry(table=table, sequence=_next_sequence(table, lines), kind=BoemEntry.Kind.TIME, recorded_at=now,
                      recorded_by=by, confirmed_at=now, confirmed_by=by)
    _sheet_apply(match, table, new=[entry], by=by, reason=reason, lines=lines, boems=boems)


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
