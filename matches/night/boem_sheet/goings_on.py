"""Goings-on and time on a boem sheet: a telman going on 1 or 2 strokes (Notes §V; SAKBOC 6.1, 7.3), the opposing
telman's or the referee's confirmation, a dispute for the referee (1.10), the referee's correction (7.1),
and time called at a table (2.2, 12.1).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player, Team
from matches.models import Boem, BoemEntry, Match, MatchTable, Seat, TableDevice
from matches.night.boem_sheet.checks import _telmen, entry_clock_check, table_lock
from matches.night.boem_sheet.scoring import (
    _entry_lock,
    _next_sequence,
    _not_after_approval,
    _sheet_apply,
    _sheet_lines,
    _sheet_version_check,
    _side_name,
)
from matches.rules import plays_deals
from matches.writes import match_lock, now_or, team_in_match

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
