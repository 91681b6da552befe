"""The clock and the table, read before a line goes on a boem sheet: the table under its lock, the phase a line
falls in, and the clock rules at entry (SAKBOC 1.9, 1.10, 2.2, 12.1, 1.13).
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from matches.models import BoemEntry, Match, MatchTable, Seat
from matches.selectors import clock_deadlines
from matches.writes import hhmm

#: Phases in which a table's sheet takes lines (the interval only for hands already cut, SAKBOC 2.2).
RECORDING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)


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
    phase_ends: dict[str, tuple[str, str]] = {
        Match.Phase.FIRST_HALF: ("first_half_ends_at", Match.Phase.INTERVAL),
        Match.Phase.SECOND_HALF: ("second_half_ends_at", Match.Phase.FINISHED),
        Match.Phase.EXTRA_TIME: ("extra_time_ends_at", Match.Phase.FINISHED)}
    due = phase_ends.get(match.phase)
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
