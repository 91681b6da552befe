"""The clock keeps time without a worker: every read and write of a match applies the deadlines already passed.

The clock's timers (``matches.tasks.match_clock_deadline_task``, ETA'd by the services, re-armed by beat) call
:func:`matches.night.clock.match_clock_advance` at each deadline. Without a worker (the embedded default has none,
or it is down) they never run, so every place that loads a match for a page, a phone, a confirmation or the API
first calls one of the two helpers here, which run the **same** idempotent service when, and only when, a
deadline is due (SAKBOC 1.2: the interval and time; 1.12: the end of extra time; 12.3: the grace):

* :func:`match_clock_catch_up` for a match already loaded with ``competition__union`` (the access helpers of
  ``matches.permissions``, :func:`matches.night.live.match_live`): no query when nothing is due;
* :func:`match_version_caught_up` for the hot paths that read only the match's live version (the public page's
  and the phones' ETags, the polls): it keeps the next deadline in the cache with that version, so a poll costs
  its one version query and a cache read when nothing is due (every write of a match night changes the version).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery import current_app as celery_app
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import (
    Team,
)
from clubs.services import save_with_history
from matches.models import (
    TABLES_PER_MATCH,
    Award,
    Match,
    MatchTable,
    Seat,
)
from matches.night import boem_sheet
from matches.selectors import clock_deadlines, clock_next_deadline, match_clock_lengths, match_score
from matches.writes import (
    award_once,
    hhmm,
    match_lock,
    not_before_check,
    now_or,
    score_and_save,
    team_in_match,
)

logger = logging.getLogger(__name__)
#: The name of the clock's timer task (``matches.tasks.match_clock_deadline_task``).
CLOCK_DEADLINE_TASK = "matches.match_clock_deadline"
PLAYING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)


def _schedule_clock_timer(match: Match) -> None:
    """After commit, ETA a timer task at the match's next clock deadline (SAKBOC 1.2, 12.3).

    The task (``matches.tasks.match_clock_deadline_task``) is sent by its name, :data:`CLOCK_DEADLINE_TASK`
    (Celery's ``send_task``): the tasks call the services, so the services do not import the tasks.
    In-process mode (no broker: the Celery app's ``task_always_eager``) cannot honour an ETA, so no timer
    is sent: deadlines are then acted on by ``match_clock_advance`` when the clock is next read or re-armed.
    """
    deadline = clock_next_deadline(match)
    if deadline is None or celery_app.conf.task_always_eager:
        return
    match_id, eta = match.pk, deadline[1]

    def send() -> None:
        try:
            celery_app.send_task(CLOCK_DEADLINE_TASK, args=[match_id], eta=eta)
        except Exception as error:  # noqa: BLE001 - the clock lives in the database: beat re-arms it
            logger.warning("clock timer for match %s not sent (broker unreachable): %s", match_id, error)

    transaction.on_commit(send)


# --- Competitions and fixtures --------------------------------------------------------------------------
# --- The match clock ------------------------------------------------------------------------------------

@transaction.atomic
def match_start(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Start play: the first half (SAKBOC 1.2). Sets up the tables; a team fielding 3 tables gives the
    opponents 20 points (SAKBOC 1.13), and a table missing a side is not played.

    :raises ValidationError: no toss (SAKBOC 1.3); before the scheduled start (SAKBOC 1.9); not scheduled.
    """
    now = now_or(now)
    match = match_lock(match)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError(_("Play has already started."))
    if match.tossed_at is None:
        raise ValidationError(_("SAKBOC 1.3: the captains toss before play; record the toss first."))
    not_before_check(now, match.scheduled_start,
                _("SAKBOC 1.9: no cards may be played before the starting time (%(value)s)."))
    tables_by_team: dict[int, set[int]] = {match.home_id: set(), match.away_id: set()}
    for team_id, number in Seat.objects.filter(sheet__match=match).values_list("sheet__team_id", "table_number"):
        tables_by_team[team_id].add(number)
    for number in range(1, TABLES_PER_MATCH + 1):
        both = number in tables_by_team[match.home_id] and number in tables_by_team[match.away_id]
        table = MatchTable(
            match=match, number=number, status=MatchTable.Status.PLAYING if both else MatchTable.Status.NOT_PLAYED
        )
        save_with_history(table, by=by, reason="play started")
    for team_id, numbers in tables_by_team.items():
        if len(numbers) < TABLES_PER_MATCH:
            award_once(match, team_id=match.opponent_id(team_id), kind=Award.Kind.THREE_TABLES, by=by, now=now,
                   note=f"Opponents fielded {len(numbers)} tables.")
    match.phase, match.first_half_started_at = Match.Phase.FIRST_HALF, now
    score_and_save(match, by=by, reason="first half started (SAKBOC 1.2)")
    _schedule_clock_timer(match)
    return match


@transaction.atomic
def match_interval_call(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Call the interval after the first half (SAKBOC 1.2: 75 minutes, then 10; the match's clock lengths,
    ``matches.selectors.match_clock_lengths``); hands already cut are completed (SAKBOC 2.2), so entries may still
    be recorded in the interval.

    :raises ValidationError: not in the first half, or before its minutes are up (SAKBOC 1.2).
    """
    return _interval_call(match_lock(match), by=by, now=now_or(now))


def _interval_call(match: Match, *, by: Any, now: datetime) -> Match:
    if match.phase != Match.Phase.FIRST_HALF:
        raise ValidationError(_("SAKBOC 1.2: the interval follows the first half."))
    not_before_check(now, clock_deadlines(match)["first_half_ends_at"],
                _("SAKBOC 1.2: the first half lasts %(minutes)s minutes; the interval is due at %(value)s."),
                minutes=match_clock_lengths(match).half_minutes)
    match.phase, match.interval_started_at = Match.Phase.INTERVAL, now
    save_with_history(match, by=by, reason="interval called (SAKBOC 1.2)")
    return match


@transaction.atomic
def match_resume(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Announce the starting time after half-time: the second half (SAKBOC 1.2). A player called away in the
    first half and still not replaced gives the opponents another 20 (SAKBOC 11.2). The 3 minutes' grace
    for unseated players starts now (SAKBOC 12.3).

    :raises ValidationError: not in the interval, or before its minutes are up (SAKBOC 1.2).
    """
    now = now_or(now)
    match = match_lock(match)
    if match.phase != Match.Phase.INTERVAL:
        raise ValidationError(_("SAKBOC 1.2: the second half follows the interval."))
    not_before_check(now, clock_deadlines(match)["interval_ends_at"],
                _("SAKBOC 1.2: the interval is %(minutes)s minutes; play resumes at %(value)s."),
                minutes=match_clock_lengths(match).interval_minutes)
    match.phase, match.second_half_started_at = Match.Phase.SECOND_HALF, now
    for seat in Seat.objects.filter(sheet__match=match, called_away_at__isnull=False).select_related("sheet"):
        award_once(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=2,
               player_id=seat.player_id, table_number=seat.table_number, by=by, now=now)
    score_and_save(match, by=by, reason="second half started (SAKBOC 1.2)")
    _schedule_clock_timer(match)
    return match


@transaction.atomic
def match_end(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Call time: all play stops (SAKBOC 2.2). Boems in progress are unfinished and score nothing, their
    strokes kept (interpretation 3). A knock-out draw awaits a toss and extra time (SAKBOC 1.12); otherwise
    the match is finished and its result provisional.

    :raises ValidationError: not in the second half or extra time, or before its end (SAKBOC 1.2, 1.12).
    """
    return _end(match_lock(match), by=by, now=now_or(now))


def _end(match: Match, *, by: Any, now: datetime) -> Match:
    deadlines = clock_deadlines(match)
    if match.phase == Match.Phase.SECOND_HALF:
        not_before_check(now, deadlines["second_half_ends_at"],
                    _("SAKBOC 1.2: play lasts two halves of %(minutes)s minutes; time is at %(value)s."),
                    minutes=match_clock_lengths(match).half_minutes)
    elif match.phase == Match.Phase.EXTRA_TIME:
        not_before_check(now, deadlines["extra_time_ends_at"], _("SAKBOC 1.12: extra time ends at %(value)s."))
    else:
        raise ValidationError(_("SAKBOC 1.2: time is called at the end of the second half or of extra time."))
    playing = list(MatchTable.objects.select_for_update().filter(match=match, status=MatchTable.Status.PLAYING))
    read = boem_sheet.sheets_read(playing)
    for table in playing:
        boem_sheet.time_call(match, table, now=now, by=by, reason="time called (SAKBOC 2.2, interpretation 3)",
                             read=read[table.pk])
    score = match_score(match=match)
    if match.competition.is_knockout and score.home == score.away:
        match.phase = Match.Phase.AWAITING_EXTRA_TIME
        score_and_save(match, by=by, reason="knock-out draw: toss and extra time (SAKBOC 1.12)")
        return match
    match.phase, match.finished_at = Match.Phase.FINISHED, now
    match.result_status = Match.ResultStatus.PROVISIONAL
    score_and_save(match, by=by, reason="time called (SAKBOC 2.2); result provisional")
    return match


@transaction.atomic
def match_extra_time_start(
    *, match: Match, toss_winner: Team, by: Any = None, now: datetime | None = None
) -> Match:
    """After a knock-out draw the captains toss for the cards and extra time is played (SAKBOC 1.12; the
    length is the union's ``knockout_extra_time_minutes``, interpretation 4).

    :raises ValidationError: the match is not a knock-out draw awaiting extra time.
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, toss_winner)
    if match.phase != Match.Phase.AWAITING_EXTRA_TIME:
        raise ValidationError(_("SAKBOC 1.12: extra time is played only after a knock-out draw."))
    match.toss_winner, match.tossed_at = toss_winner, now
    match.phase, match.extra_time_started_at = Match.Phase.EXTRA_TIME, now
    match.extra_time_periods += 1
    save_with_history(match, by=by, reason=f"extra time started; toss won by {toss_winner.name} (SAKBOC 1.12)")
    _schedule_clock_timer(match)
    return match


@transaction.atomic
def match_clock_advance(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Act on every clock deadline of the match that is due at ``now``, in order, and ETA the next one.

    Idempotent (each action re-checks the phase under the row lock), so timers delivered twice, late, or
    re-armed after a worker restart are harmless. Each action is dated at its deadline, not at ``now``, so a
    late timer keeps the clock right. Deadlines: ``interval_due`` (first half over, SAKBOC 1.2),
    ``grace_expiry`` (12.3: tables still reported unseated are stopped, 10 points to the other table),
    ``full_time`` / ``extra_time_end`` (SAKBOC 1.2, 1.12).

    :returns: the names of the deadlines acted on (empty when none was due).
    """
    now = now_or(now)
    try:
        match = match_lock(match_id)
    except Match.DoesNotExist:
        return []
    done: list[str] = []
    while (deadline := clock_next_deadline(match)) is not None and deadline[1] <= now:
        name, at = deadline
        if name == "interval_due":
            _interval_call(match, by=None, now=at)
        elif name == "grace_expiry":
            _grace_expire(match, now=at)
        else:
            _end(match, by=None, now=at)
        done.append(name)
    if done:
        logger.info("match %s clock: %s", match.pk, ", ".join(done))
    _schedule_clock_timer(match)
    return done


def _grace_expire(match: Match, *, now: datetime) -> None:
    """SAKBOC 12.3: after the grace, a table still reported unseated is stopped; 10 points to the other table."""
    for table in MatchTable.objects.filter(
        match=match, status=MatchTable.Status.PLAYING, unseated_team__isnull=False
    ):
        assert table.unseated_team_id is not None  # filtered on unseated_team__isnull=False
        _stop_table(match, table, defaulting_team_id=table.unseated_team_id, reason=MatchTable.StopReason.UNSEATED,
                    kind=Award.Kind.UNSEATED, note="players not seated after the grace", by=None, now=now)
    match.grace_handled_at = now
    score_and_save(match, by=None, reason="grace after the interval over (SAKBOC 12.3)")


# --- Tables ---------------------------------------------------------------------------------------------

def _table(match: Match, table_number: int) -> MatchTable:
    table = MatchTable.objects.select_for_update().filter(match=match, number=table_number).first()
    if table is None:
        raise ValidationError(
            _("Table %(table_number)s is not in play in this match.") % {"table_number": table_number}
        )
    return table


def _stop_table(
    match: Match, table: MatchTable, *, defaulting_team_id: int, reason: str, kind: Award.Kind, note: str, by: Any,
    now: datetime,
) -> None:
    table.status, table.stop_reason, table.stop_note = MatchTable.Status.STOPPED, reason, note
    table.defaulting_team_id, table.stopped_at, table.stopped_by = defaulting_team_id, now, by
    save_with_history(table, by=by, reason=f"table stopped ({Award.CLAUSE[kind]})")
    boem_sheet.time_call(match, table, now=now, by=by, reason=f"table stopped ({Award.CLAUSE[kind]})")
    award_once(match, team_id=match.opponent_id(defaulting_team_id), kind=kind, table_number=table.number, by=by,
           now=now, note=note)


@transaction.atomic
def table_stop(
    *, match: Match, table_number: int, defaulting_team: Team, note: str = "", by: Any = None,
    now: datetime | None = None,
) -> MatchTable:
    """The referee stops a table during play: the defaulting side forfeits all its points at that table and the
    opponents get 20 more (SAKBOC 12.1); the other tables complete the match (SAKBOC 12.2).

    :raises ValidationError: not during play, or the table is not playing (SAKBOC 12.1).
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, defaulting_team)
    if match.phase not in PLAYING_PHASES:
        raise ValidationError(_("SAKBOC 12.1: the referee stops a table during play."))
    table = _table(match, table_number)
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(
            _("SAKBOC 12.1: table %(table_number)s is not playing (%(value)s).")
            % {"table_number": table_number, "value": table.get_status_display()}
        )
    _stop_table(match, table, defaulting_team_id=defaulting_team.pk, reason=MatchTable.StopReason.REFEREE,
                kind=Award.Kind.TABLE_STOPPED, note=note, by=by, now=now)
    score_and_save(match, by=by, reason=f"table {table_number} stopped (SAKBOC 12.1)")
    return table


@transaction.atomic
def table_unseated_report(
    *, match: Match, table_number: int, team: Team, by: Any = None, now: datetime | None = None
) -> MatchTable:
    """The referee is told that ``team``'s players at a table are not seated after half-time. Unless cleared
    within the 3 minutes' grace, the table is stopped and the other table gets 10 points (SAKBOC 12.3).

    :raises ValidationError: not within the grace after the interval (SAKBOC 12.3); table not playing.
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, team)
    _require_in_grace(match, now)
    table = _table(match, table_number)
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(_("SAKBOC 12.3: table %(table_number)s is not playing.") % {"table_number": table_number})
    table.unseated_team, table.unseated_reported_at = team, now
    save_with_history(table, by=by, reason="players not seated reported (SAKBOC 12.3)")
    return table


@transaction.atomic
def table_unseated_clear(
    *, match: Match, table_number: int, by: Any = None, now: datetime | None = None
) -> MatchTable:
    """The unseated players took their seats within the grace (SAKBOC 12.3): nothing is stopped.

    :raises ValidationError: the grace is over (SAKBOC 12.3).
    """
    now = now_or(now)
    match = match_lock(match)
    _require_in_grace(match, now)
    table = _table(match, table_number)
    table.unseated_team, table.unseated_reported_at = None, None
    save_with_history(table, by=by, reason="players seated within the grace (SAKBOC 12.3)")
    return table


def _require_in_grace(match: Match, now: datetime) -> None:
    if match.phase != Match.Phase.SECOND_HALF or match.grace_handled_at is not None:
        raise ValidationError(_("SAKBOC 12.3: unseated players are dealt with in the grace after the interval."))
    grace_until = clock_deadlines(match)["grace_until"]
    if now >= grace_until:
        raise ValidationError(_("SAKBOC 12.3: the %(minutes)s minutes' grace ended at %(value)s.")
                              % {"minutes": match_clock_lengths(match).grace_minutes, "value": hhmm(grace_until)})



#: Seconds a kept "next deadline" may be reused under the same live version: bounds how long a change of the
#: union's clock lengths (which does not change the match's version) can go unseen by a poll.
NEXT_DEADLINE_TIMEOUT = 300
_NO_DEADLINE = -1.0
_UNREAD: Any = object()  # match_version_caught_up's kept, when the caller did not read it


def _deadline_due(match: Match, now: datetime) -> bool:
    deadline = clock_next_deadline(match)
    return deadline is not None and deadline[1] <= now


def match_clock_catch_up(*, match: Match, now: datetime | None = None) -> Match:
    """Act on the match's clock deadlines that have passed (``match_clock_advance``, the timers' service) and
    return ``match`` with its columns as they now are (the same object; its loaded relations are kept).

    ``match`` must have ``competition.union`` loaded (``select_related("competition__union")``): then nothing
    is queried when no deadline is due. When one is, the service locks the row, acts (dated at each deadline,
    not at ``now``) and the match's columns are read again. Idempotent: a concurrent timer or request that acted
    first leaves nothing to do (SAKBOC 1.2, 1.12, 12.3).
    """
    now = now or timezone.now()
    if not _deadline_due(match, now):
        return match
    match_clock_advance(match_id=match.pk, now=now)
    fresh = Match.objects.filter(pk=match.pk).first()
    if fresh is not None:
        for field in Match._meta.concrete_fields:
            if not field.is_relation:
                setattr(match, field.attname, getattr(fresh, field.attname))
    return match


_VERSION_SQL = f"SELECT live_version, competition_id FROM {Match._meta.db_table} WHERE id = %s"


def next_deadline_key(match_id: int) -> str:
    return f"clock:next-deadline:{match_id}"


def match_version_caught_up(
    *, match_id: int, now: datetime | None = None, kept: Any = _UNREAD,
) -> tuple[int, int] | None:
    """``(live_version, competition_id)`` of match ``match_id`` once its passed clock deadlines are acted on
    (``match_clock_advance``), or ``None`` when there is no such match: what the public match page, its live
    part, the table phones and the API's live state are kept and polled under.

    Cost: the cache keeps ``(live_version, competition_id, next deadline)`` per match (for
    :data:`NEXT_DEADLINE_TIMEOUT` seconds). Kept and not due: one indexed query (the version, written out: every
    phone's poll makes it). Nothing kept: one ORM query instead, which reads the deadline too. The version
    changed since it was kept (a write): both, once. A deadline due: the service's write, and the version read
    again. ``kept``: what the cache holds under :func:`next_deadline_key` when the caller has just read it with
    other keys in one round trip (``matches.night.live.live_version_named``); read here otherwise.
    """
    now = now or timezone.now()
    key = next_deadline_key(match_id)
    kept = cache.get(key) if kept is _UNREAD else kept
    version: int  # each way below reads both, or returns None
    competition_id: int
    due_at = _NO_DEADLINE
    if kept is not None:
        with connection.cursor() as cursor:
            cursor.execute(_VERSION_SQL, [match_id])
            row = cursor.fetchone()
        if row is None:
            return None
        version, competition_id = int(row[0]), int(row[1])
        if kept[0] == version:
            due_at = kept[2]
        else:
            kept = None
    if kept is None:
        match = Match.objects.select_related("competition__union").filter(pk=match_id).first()
        if match is None:
            return None
        version, competition_id = match.live_version, match.competition_id
        deadline = clock_next_deadline(match)
        due_at = deadline[1].timestamp() if deadline is not None else _NO_DEADLINE
        cache.set(key, (version, competition_id, due_at), timeout=NEXT_DEADLINE_TIMEOUT)
    if due_at == _NO_DEADLINE or due_at > now.timestamp():
        return version, competition_id
    match_clock_advance(match_id=match_id, now=now)
    fresh = Match.objects.filter(pk=match_id).values_list("live_version", "competition_id").first()
    return None if fresh is None else (int(fresh[0]), int(fresh[1]))
