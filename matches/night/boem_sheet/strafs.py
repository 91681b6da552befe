"""Strafs on a boem sheet, the referee's rulings on an "af": an upheld straf (SAKBOC 6.2, 6.5), a wrong straf
reversed (Notes §VII, 6.6) and its reversal struck off on appeal, and an "af" waiting for the referee
(1.10).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.models import Player, Team
from matches.models import BoemEntry, Match, MatchTable, Seat
from matches.night.boem_sheet.checks import _telmen, table_lock
from matches.night.boem_sheet.scoring import (
    _entry_lock,
    _next_sequence,
    _not_after_approval,
    _sheet_apply,
    _sheet_version_check,
)
from matches.writes import match_lock, now_or, team_in_match

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
    assert straf.team_id is not None  # a straf always names the side punished (SAKBOC 6.2)
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
