"""Services for competitions, fixtures and match nights (writes).

Every service is keyword-only and atomic; it locks the match row (``select_for_update``), re-reads it, checks
the rules, writes, recomputes the match score, and schedules side effects with ``transaction.on_commit``.
A broken rule raises ``ValidationError`` whose message cites the clause; the role checks that are rules of
the workflow raise ``PermissionDenied``. Services that depend on time take ``now`` (default: the current
time) so tests and the demo season control the clock. ``by`` is recorded as the history user.

The boem sheet is league bookkeeping from plain values (a side went on 1 or 2 strokes; a side punished): the
engine is not needed here, so the demo season can feed engine-played hands into these services.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from clubs.models import GROUP_REFEREES, Player, Team, TeamMembership, Union, UnionOfficial
from clubs.services import save_with_history, user_group_add
from matches.models import (
    STROKES_PER_BOEM,
    TABLES_PER_MATCH,
    Award,
    Boem,
    BoemEntry,
    Competition,
    Match,
    MatchTable,
    Seat,
    StandingsSnapshot,
    Substitution,
    TeamSheet,
)
from matches.selectors import clock_deadlines, clock_next_deadline, match_score

logger = logging.getLogger(__name__)

MAX_SUBSTITUTIONS = 3  # SAKBOC 11.4
RECORDING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)
PLAYING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _hhmm(instant: datetime) -> str:
    return timezone.localtime(instant).strftime("%H:%M")


def _lock(match: Match | int) -> Match:
    """Re-read ``match`` under a row lock, with its competition and union."""
    pk = match if isinstance(match, int) else match.pk
    return Match.objects.select_for_update(of=("self",)).select_related("competition__union").get(pk=pk)


STALE_WRITE = "{what} was changed by someone else since you opened it: reload and try again."
"""The message of a write based on a state that has since changed (code ``stale``: HTTP 409 in the API)."""


def _check_version(*, expected: int | None, current: int, what: str) -> None:
    """Optimistic check: a form or API client that says which version it saw (``expected``) is refused when
    another device wrote in between. ``None`` skips the check (the row lock alone then serialises writes)."""
    if expected is not None and expected != current:
        raise ValidationError(STALE_WRITE.format(what=what), code="stale")


def _team_in_match(match: Match, team: Team) -> None:
    if team.pk not in (match.home_id, match.away_id):
        raise ValidationError(f"{team.name} does not play in {match.home.name} v {match.away.name}.")


def _notify(function_name: str, **kwargs: Any) -> None:
    """Call ``clubs.notifications.<function_name>`` after commit, if C's module provides it."""

    def send() -> None:
        try:
            from clubs import notifications
        except ImportError:
            return
        function = getattr(notifications, function_name, None)
        if function is not None:
            function(**kwargs)

    transaction.on_commit(send)


def _schedule_clock_timer(match: Match) -> None:
    """After commit, ETA a timer task at the match's next clock deadline (SAKBOC 1.2, 12.3).

    In-process mode (no broker: the Celery app's ``task_always_eager``) cannot honour an ETA, so no timer
    is sent: deadlines are then acted on by ``match_clock_advance`` when the clock is next read or re-armed.
    """
    from klawerjas_league.celery import app as celery_app

    deadline = clock_next_deadline(match)
    if deadline is None or celery_app.conf.task_always_eager:
        return
    match_id, eta = match.pk, deadline[1]

    def send() -> None:
        from matches.tasks import match_clock_deadline_task

        match_clock_deadline_task.apply_async(args=[match_id], eta=eta)

    transaction.on_commit(send)


# --- Competitions and fixtures --------------------------------------------------------------------------

@transaction.atomic
def competition_create(
    *, union: Union, name: str, season: str, kind: str = Competition.Kind.LEAGUE, starts_on: date | None = None
) -> Competition:
    """Create a league season or knock-out cup in ``union``."""
    competition = Competition(union=union, name=name, season=season, kind=kind, starts_on=starts_on)
    save_with_history(competition, reason="competition created")
    return competition


@transaction.atomic
def match_schedule(
    *, competition: Competition, home: Team, away: Team, scheduled_start: datetime, venue: str = "",
    round_number: int = 1, round_name: str = "", referee: Any = None, marker: Any = None, by: Any = None,
) -> Match:
    """Schedule a fixture between two teams of ``competition``; notifies after commit.

    :raises ValidationError: a team of another competition, or a team against itself.
    """
    if home.pk == away.pk:
        raise ValidationError("A team cannot play itself.")
    for team in (home, away):
        if team.competition_id != competition.pk:
            raise ValidationError(f"{team.name} is not entered in {competition}.")
    match = Match(
        competition=competition, home=home, away=away, scheduled_start=scheduled_start, venue=venue,
        round_number=round_number, round_name=round_name, referee=referee, marker=marker,
    )
    save_with_history(match, by=by, reason="fixture scheduled")
    for official in (referee, marker):
        if official is not None:
            user_group_add(user=official, group_name=GROUP_REFEREES)
    _notify("fixture_scheduled_notify", match_id=match.pk)
    return match


@transaction.atomic
def match_officials_assign(*, match: Match, referee: Any = None, marker: Any = None, by: Any = None) -> Match:
    """Assign the referee and the marker (who takes the referee's place at a final, SAKBOC 1.11)."""
    match = _lock(match)
    match.referee, match.marker = referee, marker
    save_with_history(match, by=by, reason="officials assigned")
    for official in (referee, marker):
        if official is not None:
            user_group_add(user=official, group_name=GROUP_REFEREES)
    return match


# --- Team sheets and the toss ---------------------------------------------------------------------------

@transaction.atomic
def team_sheet_submit(
    *, match: Match, team: Team, partnerships: Mapping[int, tuple[Player, Player]], by: Any = None,
    now: datetime | None = None, expected_version: int | None = None,
) -> TeamSheet:
    """Name a team's partnerships: ``{table_number: (telman, byspeler)}`` for tables 1-4 (3 allowed).

    Replaces an earlier sheet until play starts. The match row is locked for the whole transaction, so two
    submits run one after the other; each bumps ``TeamSheet.version``.

    :param expected_version: the sheet's ``version`` the submitter saw (0: no sheet yet); when given and the
        sheet has changed since, the submit is refused and nothing is written.
    :raises ValidationError: the sheet changed since ``expected_version`` (code ``stale``); play has started
        (SAKBOC 11.3: seats are fixed for the night); fewer than 3 tables or a table outside 1-4 (SAKBOC 1.5,
        1.13); a player not in the team's registered squad or inactive (SAKBOC 1.5); a player named twice.
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, team)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError("SAKBOC 11.3: seats are fixed for the night once play has started; "
                              "changes now are half-time substitutions (SAKBOC 11.1).")
    sheet = TeamSheet.objects.filter(match=match, team=team).first()
    current = sheet.version if sheet is not None else 0
    _check_version(expected=expected_version, current=current, what=f"{team.name}'s team sheet")
    tables = sorted(partnerships)
    if any(not 1 <= n <= TABLES_PER_MATCH for n in tables):
        raise ValidationError("SAKBOC 1.5: a team sheet names tables 1 to 4 only.")
    if len(tables) < TABLES_PER_MATCH - 1:
        raise ValidationError(
            "SAKBOC 1.5, 1.13: a team fields 4 tables (8 players), or 3 tables conceding 20 points; "
            f"{len(tables)} is not enough."
        )
    squad = {
        m.player_id: m.player
        for m in TeamMembership.objects.filter(team=team).select_related("player")
    }
    seen: set[int] = set()
    for number in tables:
        telman, byspeler = partnerships[number]
        for player in (telman, byspeler):
            if player.pk not in squad or not squad[player.pk].active:
                raise ValidationError(
                    f"SAKBOC 1.5: {player.full_name} is not an active registered player of {team.name}."
                )
            if player.pk in seen:
                raise ValidationError(f"{player.full_name} is named twice: each player sits at one seat.")
            seen.add(player.pk)
    if sheet is None:
        sheet = TeamSheet(match=match, team=team)
    sheet.submitted_at, sheet.submitted_by, sheet.version = now, by, current + 1
    save_with_history(sheet, by=by, reason="team sheet submitted")
    sheet.seats.all().delete()
    for number in tables:
        telman, byspeler = partnerships[number]
        for role, player in ((Seat.Role.TELMAN, telman), (Seat.Role.BYSPELER, byspeler)):
            seat = Seat(sheet=sheet, table_number=number, role=role, player=player)
            save_with_history(seat, by=by, reason="team sheet submitted")
    return sheet


@transaction.atomic
def match_toss_record(*, match: Match, winner: Team, by: Any = None, now: datetime | None = None) -> Match:
    """Record the captains' toss; the winner gets the cards (SAKBOC 1.3).

    :raises ValidationError: earlier than 5 minutes before play or a team sheet missing (SAKBOC 1.3: captains
        say before tossing time if they cannot field a full team); play already started.
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, winner)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError("SAKBOC 1.3: the toss is before play; play has started.")
    toss_at = clock_deadlines(match)["toss_at"]
    if now < toss_at:
        raise ValidationError(f"SAKBOC 1.3: captains toss 5 minutes before play, not before {_hhmm(toss_at)}.")
    if match.team_sheets.count() < 2:
        raise ValidationError("SAKBOC 1.3: both team sheets must be in before the toss.")
    match.toss_winner, match.tossed_at = winner, now
    save_with_history(match, by=by, reason=f"toss won by {winner.name} (SAKBOC 1.3)")
    return match


# --- The match clock ------------------------------------------------------------------------------------

@transaction.atomic
def match_start(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Start play: the first half (SAKBOC 1.2). Sets up the tables; a team fielding 3 tables gives the
    opponents 20 points (SAKBOC 1.13), and a table missing a side is not played.

    :raises ValidationError: no toss (SAKBOC 1.3); before the scheduled start (SAKBOC 1.9); not scheduled.
    """
    now = _now(now)
    match = _lock(match)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError("Play has already started.")
    if match.tossed_at is None:
        raise ValidationError("SAKBOC 1.3: the captains toss before play; record the toss first.")
    if now < match.scheduled_start:
        raise ValidationError(
            f"SAKBOC 1.9: no cards may be played before the starting time ({_hhmm(match.scheduled_start)})."
        )
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
            _award(match, team_id=match.opponent_id(team_id), kind=Award.Kind.THREE_TABLES, by=by, now=now,
                   note=f"Opponents fielded {len(numbers)} tables.")
    match.phase, match.first_half_started_at = Match.Phase.FIRST_HALF, now
    _score_and_save(match, by=by, reason="first half started (SAKBOC 1.2)")
    _schedule_clock_timer(match)
    return match


@transaction.atomic
def match_interval_call(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Call the 10-minute interval after the first half's 75 minutes (SAKBOC 1.2); hands already cut are
    completed (SAKBOC 2.2), so entries may still be recorded in the interval.

    :raises ValidationError: not in the first half, or before its 75 minutes are up (SAKBOC 1.2).
    """
    return _interval_call(_lock(match), by=by, now=_now(now))


def _interval_call(match: Match, *, by: Any, now: datetime) -> Match:
    if match.phase != Match.Phase.FIRST_HALF:
        raise ValidationError("SAKBOC 1.2: the interval follows the first half.")
    due = clock_deadlines(match)["first_half_ends_at"]
    if now < due:
        raise ValidationError(f"SAKBOC 1.2: the first half lasts 75 minutes; the interval is due at {_hhmm(due)}.")
    match.phase, match.interval_started_at = Match.Phase.INTERVAL, now
    save_with_history(match, by=by, reason="interval called (SAKBOC 1.2)")
    return match


@transaction.atomic
def match_resume(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Announce the starting time after half-time: the second half (SAKBOC 1.2). A player called away in the
    first half and still not replaced gives the opponents another 20 (SAKBOC 11.2). The 3 minutes' grace
    for unseated players starts now (SAKBOC 12.3).

    :raises ValidationError: not in the interval, or before its 10 minutes are up (SAKBOC 1.2).
    """
    now = _now(now)
    match = _lock(match)
    if match.phase != Match.Phase.INTERVAL:
        raise ValidationError("SAKBOC 1.2: the second half follows the interval.")
    due = clock_deadlines(match)["interval_ends_at"]
    if now < due:
        raise ValidationError(f"SAKBOC 1.2: the interval is 10 minutes; play resumes at {_hhmm(due)}.")
    match.phase, match.second_half_started_at = Match.Phase.SECOND_HALF, now
    for seat in Seat.objects.filter(sheet__match=match, called_away_at__isnull=False).select_related("sheet"):
        _award(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=2,
               player_id=seat.player_id, table_number=seat.table_number, by=by, now=now)
    _score_and_save(match, by=by, reason="second half started (SAKBOC 1.2)")
    _schedule_clock_timer(match)
    return match


@transaction.atomic
def match_end(*, match: Match, by: Any = None, now: datetime | None = None) -> Match:
    """Call time: all play stops (SAKBOC 2.2). Boems in progress are unfinished and score nothing, their
    strokes kept (interpretation 3). A knock-out draw awaits a toss and extra time (SAKBOC 1.12); otherwise
    the match is finished and its result provisional.

    :raises ValidationError: not in the second half or extra time, or before its end (SAKBOC 1.2, 1.12).
    """
    return _end(_lock(match), by=by, now=_now(now))


def _end(match: Match, *, by: Any, now: datetime) -> Match:
    deadlines = clock_deadlines(match)
    if match.phase == Match.Phase.SECOND_HALF:
        due = deadlines["second_half_ends_at"]
        if now < due:
            raise ValidationError(f"SAKBOC 1.2: play lasts 2 h 30 min; time is at {_hhmm(due)}.")
    elif match.phase == Match.Phase.EXTRA_TIME:
        due = deadlines["extra_time_ends_at"]
        if now < due:
            raise ValidationError(f"SAKBOC 1.12: extra time ends at {_hhmm(due)}.")
    else:
        raise ValidationError("SAKBOC 1.2: time is called at the end of the second half or of extra time.")
    union = match.competition.union
    for boem in Boem.objects.filter(table__match=match, status=Boem.Status.IN_PROGRESS):
        boem.status, boem.ended_at = Boem.Status.UNFINISHED, now
        if union.unfinished_boem == Union.UnfinishedBoem.LEADER_TWO and boem.home_strokes != boem.away_strokes:
            boem.winner_id = match.home_id if boem.home_strokes > boem.away_strokes else match.away_id
            boem.points = 2
        save_with_history(boem, by=by, reason="unfinished at time (interpretation 3)")
    score = match_score(match=match)
    if match.competition.is_knockout and score.home == score.away:
        match.phase = Match.Phase.AWAITING_EXTRA_TIME
        _score_and_save(match, by=by, reason="knock-out draw: toss and extra time (SAKBOC 1.12)")
        return match
    match.phase, match.finished_at = Match.Phase.FINISHED, now
    match.result_status = Match.ResultStatus.PROVISIONAL
    _score_and_save(match, by=by, reason="time called (SAKBOC 2.2); result provisional")
    return match


@transaction.atomic
def match_extra_time_start(
    *, match: Match, toss_winner: Team, by: Any = None, now: datetime | None = None
) -> Match:
    """After a knock-out draw the captains toss for the cards and extra time is played (SAKBOC 1.12; the
    length is the union's ``knockout_extra_time_minutes``, interpretation 4).

    :raises ValidationError: the match is not a knock-out draw awaiting extra time.
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, toss_winner)
    if match.phase != Match.Phase.AWAITING_EXTRA_TIME:
        raise ValidationError("SAKBOC 1.12: extra time is played only after a knock-out draw.")
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
    now = _now(now)
    try:
        match = _lock(match_id)
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
        _stop_table(match, table, defaulting_team_id=table.unseated_team_id, reason=MatchTable.StopReason.UNSEATED,
                    kind=Award.Kind.UNSEATED, note="players not seated after the grace", by=None, now=now)
    match.grace_handled_at = now
    _score_and_save(match, by=None, reason="grace after the interval over (SAKBOC 12.3)")


# --- Tables ---------------------------------------------------------------------------------------------

def _table(match: Match, table_number: int) -> MatchTable:
    table = MatchTable.objects.select_for_update().filter(match=match, number=table_number).first()
    if table is None:
        raise ValidationError(f"Table {table_number} is not in play in this match.")
    return table


def _stop_table(
    match: Match, table: MatchTable, *, defaulting_team_id: int, reason: str, kind: str, note: str, by: Any,
    now: datetime,
) -> None:
    table.status, table.stop_reason, table.stop_note = MatchTable.Status.STOPPED, reason, note
    table.defaulting_team_id, table.stopped_at, table.stopped_by = defaulting_team_id, now, by
    save_with_history(table, by=by, reason=f"table stopped ({Award.CLAUSE[kind]})")
    for boem in table.boems.filter(status=Boem.Status.IN_PROGRESS):
        boem.status, boem.ended_at = Boem.Status.UNFINISHED, now
        save_with_history(boem, by=by, reason="table stopped")
    _award(match, team_id=match.opponent_id(defaulting_team_id), kind=kind, table_number=table.number, by=by,
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
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, defaulting_team)
    if match.phase not in PLAYING_PHASES:
        raise ValidationError("SAKBOC 12.1: the referee stops a table during play.")
    table = _table(match, table_number)
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(f"SAKBOC 12.1: table {table_number} is not playing ({table.get_status_display()}).")
    _stop_table(match, table, defaulting_team_id=defaulting_team.pk, reason=MatchTable.StopReason.REFEREE,
                kind=Award.Kind.TABLE_STOPPED, note=note, by=by, now=now)
    _score_and_save(match, by=by, reason=f"table {table_number} stopped (SAKBOC 12.1)")
    return table


@transaction.atomic
def table_unseated_report(
    *, match: Match, table_number: int, team: Team, by: Any = None, now: datetime | None = None
) -> MatchTable:
    """The referee is told that ``team``'s players at a table are not seated after half-time. Unless cleared
    within the 3 minutes' grace, the table is stopped and the other table gets 10 points (SAKBOC 12.3).

    :raises ValidationError: not within the grace after the interval (SAKBOC 12.3); table not playing.
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, team)
    _require_in_grace(match, now)
    table = _table(match, table_number)
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(f"SAKBOC 12.3: table {table_number} is not playing.")
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
    now = _now(now)
    match = _lock(match)
    _require_in_grace(match, now)
    table = _table(match, table_number)
    table.unseated_team, table.unseated_reported_at = None, None
    save_with_history(table, by=by, reason="players seated within the grace (SAKBOC 12.3)")
    return table


def _require_in_grace(match: Match, now: datetime) -> None:
    if match.phase != Match.Phase.SECOND_HALF or match.grace_handled_at is not None:
        raise ValidationError("SAKBOC 12.3: unseated players are dealt with in the grace after the interval.")
    grace_until = clock_deadlines(match)["grace_until"]
    if now >= grace_until:
        raise ValidationError(f"SAKBOC 12.3: the 3 minutes' grace ended at {_hhmm(grace_until)}.")


# --- Substitutions and players called away --------------------------------------------------------------

@transaction.atomic
def substitution_make(
    *, match: Match, team: Team, player_out: Player, player_in: Player, role: str | None = None, by: Any = None,
    now: datetime | None = None,
) -> Substitution:
    """A half-time substitution (SAKBOC 11.1): ``player_in`` from the registered squad, not already seated,
    takes ``player_out``'s seat. ``role`` (the captain's choice, 11.1) defaults to the vacated role; another
    role is possible only when the partner at that table is also a substitute, who then takes the vacated
    role (SAKBOC 11.3: a partnership never swaps telman and byspeler).

    :raises ValidationError: not at half-time (11.1); a 4th substitution (11.4); ``player_in`` not an active
        squad player (1.5, 11.1) or already seated; ``player_out`` not seated for the team; a role change
        that would swap a seated partnership (11.3).
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, team)
    if match.phase != Match.Phase.INTERVAL:
        raise ValidationError("SAKBOC 11.1: substitutions are made during half-time only.")
    if Substitution.objects.filter(match=match, team=team).count() >= MAX_SUBSTITUTIONS:
        raise ValidationError("SAKBOC 11.4: at most 3 substitutions per team at half-time.")
    sheet = TeamSheet.objects.get(match=match, team=team)
    seats = {s.player_id: s for s in Seat.objects.select_for_update().filter(sheet=sheet)}
    seat = seats.get(player_out.pk)
    if seat is None:
        raise ValidationError(f"{player_out.full_name} is not seated for {team.name}.")
    if player_in.pk in seats:
        other = seats[player_in.pk]
        raise ValidationError(f"{player_in.full_name} is already seated (table {other.table_number}, {other.role}).")
    if not TeamMembership.objects.filter(team=team, player=player_in, player__active=True).exists():
        raise ValidationError(
            f"SAKBOC 11.1, 1.5: a substitute comes from {team.name}'s registered squad; {player_in.full_name} "
            "is not in it."
        )
    role = role or seat.role
    target = seat
    if role != seat.role:
        partner = next(s for s in seats.values() if s.table_number == seat.table_number and s.pk != seat.pk)
        partner_is_substitute = Substitution.objects.filter(
            match=match, team=team, player_in_id=partner.player_id
        ).exists()
        if not partner_is_substitute:
            raise ValidationError(
                f"SAKBOC 11.3: the partnership at table {seat.table_number} keeps its seats after half-time; "
                f"the substitute takes the {seat.get_role_display().split(' ')[0].lower()} seat."
            )
        # The partner (a substitute too) moves to the vacated role; the new player takes the chosen one.
        moved_player_id = partner.player_id
        partner.player, partner.called_away_at = player_in, None
        save_with_history(partner, by=by, reason="substitution (SAKBOC 11.1)")
        seat.player_id, seat.called_away_at = moved_player_id, None
        save_with_history(seat, by=by, reason="substitution: partner keeps the vacated role (SAKBOC 11.1)")
        target = partner
    else:
        seat.player, seat.called_away_at = player_in, None
        save_with_history(seat, by=by, reason="substitution (SAKBOC 11.1)")
    substitution = Substitution(
        match=match, team=team, table_number=target.table_number, role=target.role, player_out=player_out,
        player_in=player_in, made_at=now, made_by=by,
    )
    substitution.full_clean()
    substitution.save()
    return substitution


@transaction.atomic
def player_called_away(
    *, match: Match, player: Player, by: Any = None, now: datetime | None = None
) -> Award | None:
    """The referee lets a seated player go (SAKBOC 1.14) with no substitute: the opponents get 20 points for
    this half (SAKBOC 11.2), and 20 for the second half too unless the player is replaced at half-time.

    :returns: the award for the current half, or ``None`` when called away during the interval (the
        second-half award is made when play resumes).
    :raises ValidationError: in the last 15 minutes (SAKBOC 1.15); not during the match; not seated.
    """
    now = _now(now)
    match = _lock(match)
    if match.phase not in RECORDING_PHASES:
        raise ValidationError("SAKBOC 11.2: a player is called away during the match.")
    if match.phase == Match.Phase.EXTRA_TIME or (
        match.phase == Match.Phase.SECOND_HALF and now >= clock_deadlines(match)["last_period_from"]
    ):
        raise ValidationError("SAKBOC 1.15: no player may leave the table in the last 15 minutes of the game.")
    seat = Seat.objects.select_for_update().select_related("sheet").filter(sheet__match=match, player=player).first()
    if seat is None:
        raise ValidationError(f"{player.full_name} is not seated in this match.")
    if seat.called_away_at is not None:
        raise ValidationError(f"{player.full_name} has already been called away.")
    seat.called_away_at = now
    save_with_history(seat, by=by, reason="called away with no substitute (SAKBOC 11.2)")
    if match.phase == Match.Phase.INTERVAL:
        return None
    half = 1 if match.phase == Match.Phase.FIRST_HALF else 2
    award = _award(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=half,
                   player_id=player.pk, table_number=seat.table_number, by=by, now=now)
    _score_and_save(match, by=by, reason="player called away (SAKBOC 11.2)")
    return award


# --- Boem sheets ----------------------------------------------------------------------------------------

def straf_points(*, union: Union, punisher_strokes: int, opponent_strokes: int) -> int:
    """Points a straf earns (SAKBOC 6.2 as read by interpretation 2): 4 when the punisher has at least
    ``union.straf_four_points_min_strokes`` (3) strokes and the opponents none; 2 otherwise."""
    if opponent_strokes == 0 and punisher_strokes >= union.straf_four_points_min_strokes:
        return 4
    return 2


def _playing_table(match: Match, table_number: int) -> MatchTable:
    if match.phase == Match.Phase.SCHEDULED:
        raise ValidationError("SAKBOC 1.9: no cards may be played before the starting time is announced.")
    if match.phase not in RECORDING_PHASES:
        raise ValidationError("SAKBOC 2.2: when time is announced, all play stops.")
    table = _table(match, table_number)
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(
            f"SAKBOC 12.1: table {table_number} is not playing ({table.get_status_display()}); nothing more is "
            "recorded there."
        )
    return table


def _current_boem(table: MatchTable, *, by: Any) -> Boem:
    boem = table.boems.select_for_update().filter(status=Boem.Status.IN_PROGRESS).first()
    if boem is None:
        last = table.boems.order_by("-number").values_list("number", flat=True).first() or 0
        boem = Boem(table=table, number=last + 1)
        save_with_history(boem, by=by, reason="boem started")
    return boem


def _last_sequence(table: MatchTable) -> int:
    """The sequence of the table's last boem-sheet entry (0 for an empty sheet): the sheet's version."""
    last = BoemEntry.objects.filter(boem__table=table).order_by("-sequence").values_list("sequence", flat=True)
    return last.first() or 0


def _next_sequence(table: MatchTable) -> int:
    return _last_sequence(table) + 1


def _check_sheet_version(table: MatchTable, expected_sequence: int | None) -> None:
    _check_version(expected=expected_sequence, current=_last_sequence(table),
                   what=f"The boem sheet of table {table.number}")


def _seat_at(match: Match, team_id: int, table_number: int, player: Player) -> Seat:
    seat = Seat.objects.filter(sheet__match=match, sheet__team_id=team_id, table_number=table_number,
                               player=player).first()
    return _seated_check(seat, player=player, table_number=table_number)


@transaction.atomic
def boem_stroke_record(
    *, match: Match, table_number: int, team: Team, strokes: int, claimed_by: Player | None = None,
    by: Any = None, now: datetime | None = None, expected_sequence: int | None = None,
) -> BoemEntry:
    """``team``'s telman goes on ``strokes`` (1 or 2) at a table. The first side to 5 strokes wins the boem:
    2 points, 4 when the opponents have none ("five strokes clear", SAKBOC 6.1).

    The match row, then the table row, are locked for the whole transaction: two devices recording at the
    same table at once are serialised, and each entry gets its own sequence.

    :param expected_sequence: the sequence of the last entry the recorder saw on the table's sheet (0: an
        empty sheet); when given and another entry has been added since, nothing is written.
    :raises ValidationError: 3 or more strokes at once (SAKBOC 7.3); ``claimed_by`` not the side's telman
        (SAKBOC 6.8); before play (1.9) or after time (2.2); the table stopped (12.1); the sheet changed
        since ``expected_sequence`` (code ``stale``).
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, team)
    _stroke_count_check(strokes)
    table = _playing_table(match, table_number)
    _check_sheet_version(table, expected_sequence)
    if claimed_by is not None:
        _telman_check(_seat_at(match, team.pk, table_number, claimed_by))
    boem = _current_boem(table, by=by)
    reason = _stroke_apply(boem, team=team, home=team.pk == match.home_id, strokes=strokes, now=now)
    save_with_history(boem, by=by, reason=reason)
    entry = BoemEntry(
        boem=boem, sequence=_next_sequence(table), kind=BoemEntry.Kind.STROKE, team=team, strokes=strokes,
        claimed_by=claimed_by, recorded_at=now, recorded_by=by,
    )
    save_with_history(entry, by=by, reason=reason)
    if boem.status == Boem.Status.COMPLETED:  # only a boem's end changes the match score (SAKBOC 6.1)
        _score_and_save(match, by=by, reason=f"table {table_number}: {reason}")
    return entry


@transaction.atomic
def boem_straf_record(
    *, match: Match, table_number: int, team: Team, points: int | None = None, claimed_by: Player | None = None,
    note: str = "", by: Any = None, now: datetime | None = None, expected_sequence: int | None = None,
) -> BoemEntry:
    """``team`` punishes ("af"): the boem ends in its favour with 2 or 4 points (SAKBOC 6.2, interpretation 2:
    4 only with 3 or 4 strokes and the opponents on none).

    :param points: the points claimed, if the sheet says; checked against the rule.
    :param expected_sequence: as for :func:`boem_stroke_record`: the last entry the recorder saw.
    :raises ValidationError: a claim other than 2 or 4 (SAKBOC 6.5) or not what 6.2 allows; ``claimed_by`` not
        seated at the table for ``team``; before play (1.9), after time (2.2), table stopped (12.1); the sheet
        changed since ``expected_sequence`` (code ``stale``).
    """
    now = _now(now)
    match = _lock(match)
    _team_in_match(match, team)
    _straf_claim_check(points)
    table = _playing_table(match, table_number)
    _check_sheet_version(table, expected_sequence)
    if claimed_by is not None:
        _seat_at(match, team.pk, table_number, claimed_by)
    boem = _current_boem(table, by=by)
    earned, reason = _straf_apply(boem, union=match.competition.union, team=team, home=team.pk == match.home_id,
                                  points=points, now=now)
    save_with_history(boem, by=by, reason=reason)
    entry = BoemEntry(
        boem=boem, sequence=_next_sequence(table), kind=BoemEntry.Kind.STRAF, team=team, points=earned,
        claimed_by=claimed_by, note=note, recorded_at=now, recorded_by=by,
    )
    save_with_history(entry, by=by, reason=reason)
    _score_and_save(match, by=by, reason=f"table {table_number}: {reason}")
    return entry


@transaction.atomic
def boem_straf_reverse(
    *, entry: BoemEntry, claimed_points: bool, note: str = "", by: Any = None, now: datetime | None = None
) -> BoemEntry:
    """The referee rules a straf wrong: the punisher is punished instead (Notes §VII). The boem goes to the
    side wrongly punished, with the straf points its own position earns (SAKBOC 6.2), plus another 2 when its
    telman had claimed points before being punished (SAKBOC 6.6).

    :raises ValidationError: the entry is not a straf, is already reversed, or the result is approved.
    """
    now = _now(now)
    match = _lock(entry.boem.table.match_id)
    entry = BoemEntry.objects.select_for_update().select_related("boem__table").get(pk=entry.pk)
    if entry.kind != BoemEntry.Kind.STRAF:
        raise ValidationError("Only a straf can be reversed (Notes §VII).")
    if BoemEntry.objects.filter(reverses=entry).exists():
        raise ValidationError("This straf has already been reversed.")
    if match.result_status == Match.ResultStatus.APPROVED:
        raise ValidationError("The result is approved; a union official must reopen it first.")
    boem = entry.boem
    victim_id = match.opponent_id(entry.team_id)
    points, reason = _reversal_apply(boem, union=match.competition.union, victim_id=victim_id,
                                     home=victim_id == match.home_id, claimed_points=claimed_points)
    save_with_history(boem, by=by, reason=reason)
    reversal = BoemEntry(
        boem=boem, sequence=_next_sequence(boem.table), kind=BoemEntry.Kind.STRAF_REVERSED, team_id=victim_id,
        points=points, reverses=entry, note=note, recorded_at=now, recorded_by=by,
    )
    save_with_history(reversal, by=by, reason=reason)
    _score_and_save(match, by=by, reason=f"table {boem.table.number}: {reason}")
    return reversal


@transaction.atomic
def boem_entry_confirm(*, entry: BoemEntry, user: Any, now: datetime | None = None) -> BoemEntry:
    """Confirm a boem-sheet entry: by the opposing telman at that table (SAKBOC 6.8: the boem is the counters'
    business) or by the referee or marker (SAKBOC 1.10, 1.11). Confirming twice changes nothing.

    :raises PermissionDenied: any other user.
    """
    now = _now(now)
    entry = BoemEntry.objects.select_for_update().select_related("boem__table__match").get(pk=entry.pk)
    if entry.confirmed_at is not None:
        return entry
    match = entry.boem.table.match
    is_official = user.pk is not None and user.pk in (match.referee_id, match.marker_id)
    opposing_telman = Seat.objects.filter(
        sheet__match=match, sheet__team_id=match.opponent_id(entry.team_id),
        table_number=entry.boem.table.number, role=Seat.Role.TELMAN, player__user=user,
    ).exists()
    if not (is_official or opposing_telman):
        raise PermissionDenied("Only the opposing telman or the referee confirms a boem-sheet entry.")
    entry.confirmed_at, entry.confirmed_by = now, user
    save_with_history(entry, by=user, reason="entry confirmed")
    return entry


# --- Awards and the match score -------------------------------------------------------------------------

def _award(
    match: Match, *, team_id: int, kind: str, by: Any, now: datetime, half: int | None = None,
    table_number: int | None = None, player_id: int | None = None, note: str = "",
) -> Award:
    """Write an award once (its DB constraint makes a repeat a no-op returning the existing one)."""
    lookup: dict[str, Any] = {"match": match, "kind": kind}
    if kind == Award.Kind.THREE_TABLES:
        lookup["team_id"] = team_id
    elif kind == Award.Kind.CALLED_AWAY:
        lookup.update(player_id=player_id, half=half)
    else:
        lookup["table_number"] = table_number
    existing = Award.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    award = Award(
        match=match, team_id=team_id, kind=kind, points=Award.POINTS[kind], clause=Award.CLAUSE[kind], half=half,
        table_number=table_number, player_id=player_id, note=note, created_at=now, created_by=by,
    )
    save_with_history(award, by=by, reason=f"{award.points} points ({award.clause})")
    return award


def _score_and_save(match: Match, *, by: Any, reason: str) -> None:
    score = match_score(match=match)
    match.home_score, match.away_score = score.home, score.away
    if match.phase == Match.Phase.FINISHED:
        match.winner_id = (
            match.home_id if score.home > score.away else match.away_id if score.away > score.home else None
        )
    save_with_history(match, by=by, reason=reason)


@transaction.atomic
def match_score_recompute(*, match: Match, by: Any = None) -> Match:
    """Recompute ``home_score``/``away_score`` from tables, boems and awards (SAKBOC 12.1 forfeits included)."""
    match = _lock(match)
    _score_and_save(match, by=by, reason="score recomputed")
    return match


# --- Results --------------------------------------------------------------------------------------------

@transaction.atomic
def result_enter(*, match: Match, home_score: int, away_score: int, reason: str, by: Any = None) -> Match:
    """Enter or correct a match score by hand (a paper result, or a correction): provisional again, the
    confirmations cleared; history keeps the old value and ``reason``.

    :raises ValidationError: no reason; a match night still in play; a knock-out draw (SAKBOC 1.12).
    """
    if not reason.strip():
        raise ValidationError("Say why the result is entered or changed.")
    match = _lock(match)
    if match.phase not in (Match.Phase.SCHEDULED, Match.Phase.FINISHED):
        raise ValidationError("The match night is still in play; its score comes from the boem sheets.")
    if home_score < 0 or away_score < 0:
        raise ValidationError("Match scores are not negative.")
    if match.competition.is_knockout and home_score == away_score:
        raise ValidationError("SAKBOC 1.12: a knock-out match is not left drawn; enter the score after extra time.")
    was_approved = match.result_status == Match.ResultStatus.APPROVED
    match.home_score, match.away_score = home_score, away_score
    match.winner_id = match.home_id if home_score > away_score else match.away_id if away_score > home_score else None
    match.phase = Match.Phase.FINISHED
    match.finished_at = match.finished_at or timezone.now()
    match.result_status = Match.ResultStatus.PROVISIONAL
    match.home_confirmed_by = match.away_confirmed_by = match.approved_by = None
    match.confirmed_at = match.approved_at = None
    save_with_history(match, by=by, reason=reason)
    if was_approved:
        _queue_standings(match.competition_id)
    return match


@transaction.atomic
def result_confirm(*, match: Match, user: Any, now: datetime | None = None) -> Match:
    """Confirm a provisional result: the referee (or marker) alone, or both captains (each for their side).

    :raises ValidationError: no provisional result. :raises PermissionDenied: not a captain or the referee.
    """
    now = _now(now)
    match = _lock(match)
    if match.result_status in (Match.ResultStatus.CONFIRMED, Match.ResultStatus.APPROVED):
        return match
    if match.result_status != Match.ResultStatus.PROVISIONAL:
        raise ValidationError("There is no result to confirm yet.")
    captains = dict(
        Team.objects.filter(pk__in=[match.home_id, match.away_id]).values_list("pk", "captain__user_id")
    )
    if user.pk in (match.referee_id, match.marker_id):
        match.confirmed_at = now
    elif user.pk == captains.get(match.home_id):
        match.home_confirmed_by = user
    elif user.pk == captains.get(match.away_id):
        match.away_confirmed_by = user
    else:
        raise PermissionDenied("A result is confirmed by both captains or by the referee.")
    if match.confirmed_at is None and match.home_confirmed_by_id and match.away_confirmed_by_id:
        match.confirmed_at = now
    if match.confirmed_at is not None:
        match.result_status = Match.ResultStatus.CONFIRMED
    save_with_history(match, by=user, reason="result confirmed")
    return match


@transaction.atomic
def result_approve(*, match: Match, user: Any, reason: str = "", now: datetime | None = None) -> Match:
    """A union official approves a confirmed result; the standings are recomputed after commit by a task.

    :raises ValidationError: the result is not confirmed. :raises PermissionDenied: not an official of the
        competition's union.
    """
    now = _now(now)
    match = _lock(match)
    if not UnionOfficial.objects.filter(union_id=match.competition.union_id, user=user).exists():
        raise PermissionDenied("Results are approved by an official of the union.")
    if match.result_status == Match.ResultStatus.APPROVED:
        return match
    if match.result_status != Match.ResultStatus.CONFIRMED:
        raise ValidationError("A result is approved once both captains or the referee have confirmed it.")
    match.result_status, match.approved_by, match.approved_at = Match.ResultStatus.APPROVED, user, now
    save_with_history(match, by=user, reason=reason or "result approved")
    _queue_standings(match.competition_id)
    return match


def _queue_standings(competition_id: int) -> None:
    def send() -> None:
        from matches.standings import standings_cache_clear
        from matches.tasks import standings_recompute_task

        standings_cache_clear(competition_id=competition_id)
        standings_recompute_task.delay(competition_id)

    transaction.on_commit(send)


@transaction.atomic
def standings_publish(
    *, competition: Competition, by: Any = None, title: str = "", as_of: date | None = None,
    now: datetime | None = None,
) -> StandingsSnapshot:
    """Publish the competition's standings as a frozen, dated snapshot (computed afresh from the approved
    results); notifies after commit."""
    from matches.standings import standings_page_token_renew, standings_recompute

    now = _now(now)
    lines = standings_recompute(competition_id=competition.pk)
    as_of = as_of or timezone.localdate(now)
    snapshot = StandingsSnapshot(
        competition=competition, title=title or f"{competition} standings, {as_of.isoformat()}", as_of=as_of,
        rows=[vars(line).copy() for line in lines], published_at=now, published_by=by,
    )
    snapshot.full_clean()
    snapshot.save()
    standings_page_token_renew(competition_id=competition.pk)
    _notify("standings_published_notify", snapshot_id=snapshot.pk)
    return snapshot


# --- Boem sheets in bulk --------------------------------------------------------------------------------
# Pure rule checks and boem arithmetic (no queries), shared by the single-entry services above and
# boem_sheet_record, which validates a table's run of goings-on in memory and writes it in bulk.

def _seated_check(seat: Seat | None, *, player: Player, table_number: int) -> Seat:
    if seat is None:
        raise ValidationError(f"{player.full_name} is not seated at table {table_number} for that side.")
    return seat


def _stroke_count_check(strokes: int) -> None:
    """SAKBOC 7.3: a counter goes on 1 or 2 strokes at a time."""
    if strokes not in (1, 2):
        raise ValidationError("SAKBOC 7.3: a counter goes on 1 or 2 strokes at a time, never more.")


def _telman_check(seat: Seat) -> None:
    """SAKBOC 6.8: going on is the telman's (counter's) job."""
    if seat.role != Seat.Role.TELMAN:
        raise ValidationError("SAKBOC 6.8: going on the boem is the telman's (counter's) responsibility.")


def _straf_claim_check(points: int | None) -> None:
    """SAKBOC 6.5: a counter claims 2 or 4 points."""
    if points is not None and points not in (2, 4):
        raise ValidationError("SAKBOC 6.5: a counter may claim only 2 or 4 points.")


def _stroke_apply(boem: Boem, *, team: Team, home: bool, strokes: int, now: datetime) -> str:
    """Put ``strokes`` on ``boem`` for ``team``: the first side to 5 wins 2 points, 4 five strokes clear
    (SAKBOC 6.1). :returns: the history reason."""
    if home:
        boem.home_strokes = min(STROKES_PER_BOEM, boem.home_strokes + strokes)
    else:
        boem.away_strokes = min(STROKES_PER_BOEM, boem.away_strokes + strokes)
    mine, theirs = (boem.home_strokes, boem.away_strokes) if home else (boem.away_strokes, boem.home_strokes)
    reason = f"{team.name} on {strokes}"
    if mine >= STROKES_PER_BOEM:
        boem.status, boem.winner, boem.ended_at = Boem.Status.COMPLETED, team, now
        boem.points = 4 if theirs == 0 else 2
        reason = f"boem won {mine}-{theirs}: {boem.points} points (SAKBOC 6.1)"
    return reason


def _straf_apply(
    boem: Boem, *, union: Union, team: Team, home: bool, points: int | None, now: datetime
) -> tuple[int, str]:
    """``team`` punishes: the boem ends in its favour with the points SAKBOC 6.2 gives (interpretation 2); a
    claim of other points is refused. :returns: the points earned and the history reason."""
    mine, theirs = (boem.home_strokes, boem.away_strokes) if home else (boem.away_strokes, boem.home_strokes)
    earned = straf_points(union=union, punisher_strokes=mine, opponent_strokes=theirs)
    if points is not None and points != earned:
        raise ValidationError(
            f"SAKBOC 6.2: with {mine} strokes against {theirs} a straf earns {earned} points, not {points} "
            "(4 only with 3 or 4 strokes and the opponents on none)."
        )
    boem.status, boem.winner, boem.points, boem.ended_at = Boem.Status.STRAFFED, team, earned, now
    return earned, f"straf by {team.name} at {mine}-{theirs}: {earned} points (SAKBOC 6.2)"


def _reversal_apply(boem: Boem, *, union: Union, victim_id: int, home: bool, claimed_points: bool) -> tuple[int, str]:
    """A wrong straf (Notes §VII): the boem goes to the side wrongly punished with the straf points its own
    position earns (SAKBOC 6.2), plus 2 when it had claimed points (6.6). :returns: the points and the reason."""
    mine, theirs = (boem.home_strokes, boem.away_strokes) if home else (boem.away_strokes, boem.home_strokes)
    earned = straf_points(union=union, punisher_strokes=mine, opponent_strokes=theirs)
    extra = 2 if claimed_points else 0
    boem.winner_id, boem.points = victim_id, earned + extra
    reason = (f"wrong straf reversed (Notes §VII): {earned} points"
              + (" + 2 for points claimed before (SAKBOC 6.6)" if extra else ""))
    return earned + extra, reason


@dataclass(frozen=True)
class StrokeLine:
    """A going on for :func:`boem_sheet_record`: as :func:`boem_stroke_record`'s arguments."""

    team: Team
    strokes: int
    claimed_by: Player | None = None
    now: datetime | None = None
    by: Any = None  # the history user; ``None``: the batch's ``by``


@dataclass(frozen=True)
class StrafLine:
    """A straf ("af") for :func:`boem_sheet_record`: as :func:`boem_straf_record`'s arguments."""

    team: Team
    points: int | None = None
    claimed_by: Player | None = None
    note: str = ""
    now: datetime | None = None
    by: Any = None


@dataclass(frozen=True)
class StrafReversalLine:
    """The referee rules the straf on the line just before wrong (as :func:`boem_straf_reverse`)."""

    claimed_points: bool = False
    note: str = ""
    now: datetime | None = None
    by: Any = None


BoemLine = StrokeLine | StrafLine | StrafReversalLine


_HISTORY_MODELS: dict[type, Any] = {}


def _history_model(model: type) -> Any:
    """The model's historical model (cached: the ``history`` descriptor builds a manager class per access)."""
    if model not in _HISTORY_MODELS:
        _HISTORY_MODELS[model] = model.history.model  # type: ignore[attr-defined]
    return _HISTORY_MODELS[model]


def _history_row(instance: Any, *, history_type: str, by: Any, reason: str) -> Any:
    """A django-simple-history row for ``instance`` as it is now (what ``save_with_history`` would write)."""
    history_model = _history_model(type(instance))
    return history_model(
        history_date=timezone.now(), history_user=by, history_change_reason=reason, history_type=history_type,
        **{f.attname: getattr(instance, f.attname) for f in history_model.tracked_fields},
    )


def _field_check(instance: Any, foreign_keys: tuple[str, ...]) -> None:
    """``full_clean`` without the per-row queries: field values (choices, lengths, ranges) are checked; the
    foreign keys are objects the caller checked already, and uniqueness follows from the numbering (the
    database constraints stay as the backstop)."""
    instance.full_clean(exclude=list(foreign_keys), validate_unique=False, validate_constraints=False)


@transaction.atomic
def boem_sheet_record(
    *, match: Match, table_number: int, lines: Sequence[BoemLine], by: Any = None, now: datetime | None = None,
) -> list[BoemEntry]:
    """Record a run of a table's boem-sheet lines at once: what calling :func:`boem_stroke_record`,
    :func:`boem_straf_record` and :func:`boem_straf_reverse` line by line records, with the same checks and the
    same rows (boems, entries, and the history rows of boems, entries and the match score), in a few queries.

    All lines are checked before anything is written, in order, against the boem sheet as it stands:
    SAKBOC 7.3 (1 or 2 strokes), 6.8 (the telman goes on), 6.5 and 6.2 (the straf's points; interpretation
    2), 6.1 (5 strokes win 2 points, 4 clear), Notes §VII and 6.6 (a reversal follows its straf), and as for
    each single line, 1.9 / 2.2 (only during play) and 12.1 (the table playing). A line's ``now`` defaults
    to the batch's; its ``by`` to the batch's.

    :returns: the entries written, one for each line, in order.
    :raises ValidationError: as the single-entry services; nothing is written.
    """
    now = _now(now)
    match = _lock(match)
    if not lines:
        return []
    union = match.competition.union
    table = _playing_table(match, table_number)
    seats = {(s.sheet.team_id, s.player_id): s
             for s in Seat.objects.filter(sheet__match=match, table_number=table_number).select_related("sheet")}
    boem = table.boems.select_for_update().filter(status=Boem.Status.IN_PROGRESS).first()
    last_number = table.boems.order_by("-number").values_list("number", flat=True).first() or 0
    sequence = BoemEntry.objects.filter(boem__table=table).order_by("-sequence").values_list(
        "sequence", flat=True).first() or 0
    existing_boem = boem
    new_boems: list[Boem] = []
    boem_history: list[tuple[Boem, str, Any, str, Any]] = []  # boem, type, by, reason, its values then
    entries: list[BoemEntry] = []
    entry_reasons: list[tuple[Any, str]] = []
    score_reasons: list[tuple[Boem, Any, str, int, int]] = []  # a boem ended: by, reason, winner, points

    def snapshot(b: Boem, history_type: str, line_by: Any, reason: str) -> None:
        boem_history.append((b, history_type, line_by, reason, _history_row(b, history_type=history_type,
                                                                              by=line_by, reason=reason)))

    for line in lines:
        line_by = line.by if line.by is not None else by
        at = line.now or now
        if isinstance(line, StrafReversalLine):
            straf = entries[-1] if entries else None
            if straf is None or straf.kind != BoemEntry.Kind.STRAF:
                raise ValidationError("Only a straf can be reversed (Notes §VII).")
            if match.result_status == Match.ResultStatus.APPROVED:
                raise ValidationError("The result is approved; a union official must reopen it first.")
            reversed_boem = straf.boem
            victim_id = match.opponent_id(straf.team_id)
            points, reason = _reversal_apply(reversed_boem, union=union, victim_id=victim_id,
                                             home=victim_id == match.home_id, claimed_points=line.claimed_points)
            snapshot(reversed_boem, "~", line_by, reason)
            sequence += 1
            entries.append(BoemEntry(
                boem=reversed_boem, sequence=sequence, kind=BoemEntry.Kind.STRAF_REVERSED, team_id=victim_id,
                points=points, reverses=straf, note=line.note, recorded_at=at, recorded_by=line_by,
            ))
            entry_reasons.append((line_by, reason))
            score_reasons.append((reversed_boem, line_by, f"table {table_number}: {reason}", victim_id, points))
            continue
        team = line.team
        _team_in_match(match, team)
        if isinstance(line, StrokeLine):
            _stroke_count_check(line.strokes)
        else:
            _straf_claim_check(line.points)
        if line.claimed_by is not None:
            seat = _seated_check(seats.get((team.pk, line.claimed_by.pk)), player=line.claimed_by,
                                 table_number=table_number)
            if isinstance(line, StrokeLine):
                _telman_check(seat)
        if boem is None:
            last_number += 1
            boem = Boem(table=table, number=last_number)
            new_boems.append(boem)
            snapshot(boem, "+", line_by, "boem started")
        home = team.pk == match.home_id
        if isinstance(line, StrokeLine):
            reason = _stroke_apply(boem, team=team, home=home, strokes=line.strokes, now=at)
            entry = BoemEntry(boem=boem, sequence=sequence + 1, kind=BoemEntry.Kind.STROKE, team=team,
                              strokes=line.strokes, claimed_by=line.claimed_by, recorded_at=at, recorded_by=line_by)
        else:
            earned, reason = _straf_apply(boem, union=union, team=team, home=home, points=line.points, now=at)
            entry = BoemEntry(boem=boem, sequence=sequence + 1, kind=BoemEntry.Kind.STRAF, team=team, points=earned,
                              claimed_by=line.claimed_by, note=line.note, recorded_at=at, recorded_by=line_by)
        sequence += 1
        snapshot(boem, "~", line_by, reason)
        entries.append(entry)
        entry_reasons.append((line_by, reason))
        if boem.status != Boem.Status.IN_PROGRESS:
            score_reasons.append((boem, line_by, f"table {table_number}: {reason}", boem.winner_id, boem.points))
            boem = None
    for b in [*new_boems, *([existing_boem] if existing_boem else [])]:
        _field_check(b, ("table", "winner"))
    for e in entries:
        _field_check(e, ("boem", "team", "claimed_by", "reverses", "recorded_by", "confirmed_by"))

    # Write: the boem that was in progress first (it may end here), then the new boems, the entries (a
    # reversal after its straf has an id), and the history rows, in the order the single services write them.
    boem_fields = ["status", "home_strokes", "away_strokes", "winner", "points", "ended_at"]
    if existing_boem is not None:
        Boem.objects.bulk_update([existing_boem], boem_fields)
    Boem.objects.bulk_create(new_boems)
    start = 0
    for index, entry in enumerate(entries):
        if entry.reverses is not None and entry.reverses.pk is None:
            BoemEntry.objects.bulk_create(entries[start:index])
            start = index
    BoemEntry.objects.bulk_create(entries[start:])
    for entry in entries:
        if entry.reverses is not None:
            entry.reverses_id = entry.reverses.pk
    boem_rows = []
    for b, _type, _by, _reason, row in boem_history:
        row.id = b.pk
        boem_rows.append(row)
    _history_model(Boem).objects.bulk_create(boem_rows)
    _history_model(BoemEntry).objects.bulk_create([
        _history_row(e, history_type="+", by=e_by, reason=reason) for e, (e_by, reason) in zip(
            entries, entry_reasons, strict=True)
    ])
    if score_reasons:  # only a boem's end changes the match score (SAKBOC 6.1): one history row per end
        score = match_score(match=match)  # counts every boem of the batch as it ends up
        final = {b.pk: (b.winner_id, b.points) for b, *_ in score_reasons}
        # each boem ended here was in progress before (no points): start from the score without them
        running = {match.home_id: score.home, match.away_id: score.away}
        for winner_id, points in final.values():
            running[winner_id] -= points
        counted: dict[int, tuple[int, int]] = {}
        match_rows = []
        for b, s_by, reason, winner_id, points in score_reasons:
            old_winner, old_points = counted.get(b.pk, (winner_id, 0))
            running[old_winner] -= old_points
            running[winner_id] += points
            counted[b.pk] = (winner_id, points)
            match.home_score, match.away_score = running[match.home_id], running[match.away_id]
            match_rows.append(_history_row(match, history_type="~", by=s_by, reason=reason))
        Match.objects.filter(pk=match.pk).update(home_score=match.home_score, away_score=match.away_score)
        _history_model(Match).objects.bulk_create(match_rows)
    return entries
