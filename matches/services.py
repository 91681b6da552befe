"""Services for competitions, fixtures and match nights (writes).

Every service is keyword-only and atomic; it locks the match row (``select_for_update``), re-reads it, checks
the rules, writes, recomputes the match score, and schedules side effects with ``transaction.on_commit``.
A broken rule raises ``ValidationError`` whose message cites the clause; the role checks that are rules of
the workflow raise ``PermissionDenied``. Services that depend on time take ``now`` (default: the current
time) so tests and the demo season control the clock. ``by`` is recorded as the history user.

Every write to a table's boem sheet lives in :mod:`matches.night.boem_sheet` (scored by the rules engine); the clock
services here call its :func:`~matches.night.boem_sheet.time_call` when time is called or a table stopped. The write
primitives both share (the match lock, version checks, the score) are :mod:`matches.writes`.

A competition's fixture list (:func:`competition_fixtures_create`, skipping blackout dates) and a cup's next rounds
(:func:`knockout_advance`) are scheduled here from the pure generators of :mod:`matches.competitions.fixtures`; a fixture is
postponed or moved by :func:`fixture_reschedule` (:mod:`matches.competitions.fixture_changes`, re-exported here).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Collection, Mapping
from datetime import date, datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import (
    GROUP_REFEREES,
    ClubSecretary,
    Player,
    Team,
    TeamMembership,
    Union,
    UnionOfficial,
    UnionReferee,
)
from clubs.selectors import person_name
from clubs.services import create_all_with_history, save_with_history, user_group_add
from klawerjas_league.celery import app as celery_app
from matches.competitions.fixture_changes import fixture_reschedule  # noqa: F401 (a fixture moved: re-exported)
from matches.competitions.fixtures import FixtureError, knockout_bracket, league_round_robin, round_date_next
from matches.models import (
    DEFAULT_RULESET,
    TABLES_PER_MATCH,
    Award,
    BoemEntry,
    Competition,
    Match,
    MatchTable,
    ResultDispute,
    Season,
    Seat,
    StandingsSnapshot,
    Substitution,
    TeamSheet,
)
from matches.night import boem_sheet
from matches.night.suspensions import players_with_suspensions, suspension_check
from matches.notifications import fixture_scheduled_notify, result_disputed_notify, standings_published_notify
from matches.selectors import (
    clock_deadlines,
    clock_next_deadline,
    match_clock_lengths,
    match_score,
    standings_snapshot_latest,
)
from matches.writes import (
    hhmm,
    match_lock,
    match_night_come_check,
    now_or,
    score_and_save,
    team_in_match,
    version_check,
)

logger = logging.getLogger(__name__)

MAX_SUBSTITUTIONS = 3  # SAKBOC 11.4
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

def season_open_check(*, union_id: int, name: str) -> None:
    """Refuse a write that would add to a closed season (a competition, a fixture). One query.

    :raises ValidationError: season ``name`` of the union is closed: its archive is frozen.
    """
    closed = Season.objects.filter(union_id=union_id, name=name, status=Season.Status.CLOSED).first()
    if closed is not None:
        raise ValidationError(
            _(
                "Season %(name)s was closed on %(value)s: its archive is frozen, so nothing is added to it. Use the "
                "next season."
            )
            % {"name": name, "value": date_format(timezone.localtime(closed.closed_at), "d F Y")}
        )


@transaction.atomic
def competition_create(
    *, union: Union, name: str, season: str, kind: str = Competition.Kind.LEAGUE, starts_on: date | None = None,
    ruleset: str = DEFAULT_RULESET, deals_per_table: int = 0,
) -> Competition:
    """Create a league season or knock-out cup in ``union``, played under ``ruleset`` (a name of the engine's
    registry: ``"sakboc-2004"``, ``"rotterdam"``, ``"amsterdam"``, ``"wikipedia-klaverjas"``, ``"klammern"``);
    ``deals_per_table``: deals a table plays in a makers game (0: the ruleset's own end).

    :raises ValidationError: ``season`` is a closed season of the union (``season_open_check``); an unknown
        ruleset or a deals count out of range (field errors).
    """
    season_open_check(union_id=union.pk, name=season)
    competition = Competition(union=union, name=name, season=season, kind=kind, starts_on=starts_on,
                              ruleset=ruleset, deals_per_table=deals_per_table)
    competition.full_clean(exclude=["union"], validate_unique=False, validate_constraints=False)
    save_with_history(competition, reason="competition created")
    return competition


@transaction.atomic
def match_schedule(
    *, competition: Competition, home: Team, away: Team, scheduled_start: datetime, venue: str = "",
    round_number: int = 1, round_name: str = "", tie_number: int | None = None, referee: Any = None,
    marker: Any = None, by: Any = None, half_minutes: int | None = None, interval_minutes: int | None = None,
) -> Match:
    """Schedule a fixture between two teams of ``competition``; notifies after commit.

    :param tie_number: a cup's tie, its place in the round's bracket (``matches.competitions.fixtures``).
    :param half_minutes: shorter halves for this match only (a practice night; SAKBOC 1.2), ``None``: the
        union's; :param interval_minutes: likewise the interval (``matches.selectors.match_clock_lengths``).
    :raises ValidationError: a team of another competition, or a team against itself; a referee or marker
        not on the union's list or conflicted, or the same person for both (:func:`match_officials_check`); the
        competition's season is closed (``season_open_check``).
    """
    season_open_check(union_id=competition.union_id, name=competition.season)
    if home.pk == away.pk:
        raise ValidationError(_("A team cannot play itself."))
    for team in (home, away):
        if team.competition_id != competition.pk:
            raise ValidationError(
                _("%(team)s is not entered in %(competition)s.") % {"team": team.name, "competition": competition}
            )
    match = Match(
        competition=competition, home=home, away=away, scheduled_start=scheduled_start, venue=venue,
        round_number=round_number, round_name=round_name, tie_number=tie_number, referee=referee, marker=marker,
        half_minutes=half_minutes, interval_minutes=interval_minutes,
    )
    match.full_clean(validate_unique=False, validate_constraints=False,
                     exclude=[f.name for f in Match._meta.fields if f.name not in ("half_minutes", "interval_minutes")])
    match_officials_check(match=match, referee=referee, marker=marker)
    save_with_history(match, by=by, reason="fixture scheduled")
    for official in (referee, marker):
        if official is not None:
            user_group_add(user=official, group_name=GROUP_REFEREES)
    fixture_scheduled_notify(match_id=match.pk)
    return match


def official_conflicts(*, match: Match, user: Any) -> list[str]:
    """Why ``user`` may not referee (or mark) ``match``: the reasons, in plain words; empty when none.

    A referee must be impartial (SAKBOC 1.10: the referee's decision is final, so no side may have its own
    person in the chair). Refused: a player registered with a club in the match, the captain of any team of
    either club, a secretary of either club.
    """
    clubs = {match.home.club_id: match.home.club, match.away.club_id: match.away.club}
    reasons = []
    player = Player.objects.filter(user=user, club_id__in=clubs).select_related("club").first()
    if player is not None:
        reasons.append(f"{player.full_name} plays for {player.club.name}")
    for team in Team.objects.filter(club_id__in=clubs, captain__user=user).select_related("club"):
        reasons.append(f"{person_name(user)} captains {team.name} of {team.club.name}")
    for link in ClubSecretary.objects.filter(user=user, club_id__in=clubs).select_related("club"):
        reasons.append(f"{person_name(user)} is secretary of {link.club.name}")
    return reasons


def _official_check(match: Match, user: Any, role: str) -> None:
    """:raises ValidationError: ``{role: reason}`` when ``user`` is not on the union's list of referees or is
    conflicted (:func:`official_conflicts`)."""
    if user is None:
        return
    if not UnionReferee.objects.filter(union_id=match.competition.union_id, user=user).exists():
        raise ValidationError(
            {
                role: _(
                    "%(value)s is not on %(union)s's list of referees; an official adds referees to the list first."
                )
                % {"value": person_name(user), "union": match.competition.union}
            }
        )
    reasons = official_conflicts(match=match, user=user)
    if reasons:
        raise ValidationError({role: f"{person_name(user)} cannot be the {role} of {match.home} v {match.away}: "
                                     + "; ".join(reasons) + "."})


def match_officials_check(*, match: Match, referee: Any = None, marker: Any = None) -> None:
    """Whether ``referee`` and ``marker`` (either may be ``None``) may be ``match``'s officials: the one rule for
    every way a match gets them (the officials' pages and API, scheduling, a night file from another
    installation, ``matches.nightfile.transfer``). Each is on the union's list of referees
    (:class:`clubs.models.UnionReferee`) and impartial (:func:`official_conflicts`, SAKBOC 1.10), and the marker,
    who takes the referee's place at a final, is someone else (SAKBOC 1.11). ``match`` may be unsaved.

    :raises ValidationError: keyed ``referee`` / ``marker``, naming the person and why.
    """
    if referee is not None and marker is not None and referee.pk == marker.pk:
        raise ValidationError({"marker": _("The marker takes the referee's place (SAKBOC 1.11): choose someone else.")})
    _official_check(match, referee, "referee")
    _official_check(match, marker, "marker")


@transaction.atomic
def match_officials_assign(*, match: Match, referee: Any = None, marker: Any = None, by: Any = None) -> Match:
    """Assign the referee and the marker (who takes the referee's place at a final, SAKBOC 1.11), both from
    the union's list of referees (:class:`clubs.models.UnionReferee`).

    The referee is not changed while the match is in play (from the start of play until time is called): the
    night's rulings are the referee's, and final (SAKBOC 1.10); pass the match's referee to change only the marker
    then (a night begun with no referee may get one).

    :raises ValidationError: keyed ``referee`` / ``marker``: not on the union's list; a player, captain or
        secretary of a club in the match (:func:`official_conflicts`); the same person for both
        (:func:`match_officials_check`); another referee (or none) in the referee's place while the match is in
        play.
    """
    match = match_lock(match)
    if referee is not None and marker is not None and referee.pk == marker.pk:
        raise ValidationError({"marker": _("The marker takes the referee's place (SAKBOC 1.11): choose someone else.")})
    referee_changed = (referee.pk if referee is not None else None) != match.referee_id
    in_play = match.phase not in (Match.Phase.SCHEDULED, Match.Phase.FINISHED)
    if in_play and referee_changed and match.referee_id is not None:
        raise ValidationError({"referee": _(
            "The match is in play: the referee of %(home)s v %(away)s cannot be changed until time is called "
            "(%(name)s referees it; the referee's decisions are final, SAKBOC 1.10).") % {
                "home": match.home, "away": match.away, "name": person_name(match.referee)}})
    # The referee in the chair is not checked again during play (only a change is).
    match_officials_check(match=match, referee=referee if referee_changed or not in_play else None, marker=marker)
    match.referee, match.marker = referee, marker
    names = ", ".join(f"{role} {person_name(u)}" for role, u in (("referee", referee), ("marker", marker)) if u)
    save_with_history(match, by=by, reason=f"officials assigned: {names or 'none'}")
    for official in (referee, marker):
        if official is not None:
            user_group_add(user=official, group_name=GROUP_REFEREES)
    return match


# --- Team sheets and the toss ---------------------------------------------------------------------------

def team_sheet_check(
    *, match: Match, team: Team, partnerships: Mapping[int, tuple[Player, Player]],
) -> dict[int, Player]:
    """Whether ``partnerships`` (``{table_number: (telman, byspeler)}``) may be ``team``'s sheet for ``match``: the
    one rule for the team-sheet pages and API (:func:`team_sheet_submit`) and a night file from another
    installation (``matches.nightfile.transfer``). Returns the team's squad, ``{player id: player}``.

    :raises ValidationError: fewer than 3 tables or a table outside 1-4 (SAKBOC 1.5, 1.13); a player not in the
        team's registered squad or inactive (SAKBOC 1.5); a player named twice; a player suspended by the union
        (code ``suspended``, ``matches.night.suspensions``).
    """
    tables = sorted(partnerships)
    if any(not 1 <= n <= TABLES_PER_MATCH for n in tables):
        raise ValidationError(_("SAKBOC 1.5: a team sheet names tables 1 to 4 only."))
    if len(tables) < TABLES_PER_MATCH - 1:
        raise ValidationError(
            _("SAKBOC 1.5, 1.13: a team fields 4 tables (8 players), or 3 tables conceding 20 points; %(value)s is "
              "not enough.") % {"value": len(tables)}
        )
    squad = {
        m.player_id: m.player
        for m in TeamMembership.objects.filter(team=team).select_related("player")
    }
    seen: set[int] = set()
    with_record = players_with_suspensions(player_ids=[p.pk for n in tables for p in partnerships[n]])
    for number in tables:
        telman, byspeler = partnerships[number]
        for player in (telman, byspeler):
            if player.pk not in squad or not squad[player.pk].active:
                raise ValidationError(
                    _("SAKBOC 1.5: %(full_name)s is not an active registered player of %(team)s.")
                    % {"full_name": player.full_name, "team": team.name}
                )
            if player.pk in seen:
                raise ValidationError(
                    _("%(full_name)s is named twice: each player sits at one seat.") % {"full_name": player.full_name}
                )
            if player.pk in with_record:
                suspension_check(player=player, match=match)
            seen.add(player.pk)
    return squad


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
        1.13); a player not in the team's registered squad or inactive (SAKBOC 1.5); a player named twice; a
        player suspended by the union (code ``suspended``, ``matches.night.suspensions``): :func:`team_sheet_check`.
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, team)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError(_("SAKBOC 11.3: seats are fixed for the night once play has started; "
                              "changes now are half-time substitutions (SAKBOC 11.1)."))
    sheet = TeamSheet.objects.filter(match=match, team=team).first()
    current = sheet.version if sheet is not None else 0
    version_check(expected=expected_version, current=current, what=f"{team.name}'s team sheet")
    squad = team_sheet_check(match=match, team=team, partnerships=partnerships)
    tables = sorted(partnerships)
    replaced = sheet is not None
    if sheet is None:
        sheet = TeamSheet(match=match, team=team)
    sheet.submitted_at, sheet.submitted_by, sheet.version = now, by, current + 1
    save_with_history(sheet, by=by, reason="team sheet submitted")
    if replaced:
        sheet.seats.all().delete()
    # the eight seats in one statement, their history rows in another
    create_all_with_history([
        Seat(sheet=sheet, table_number=number, role=role, player=squad[player.pk])
        for number in tables
        for role, player in zip((Seat.Role.TELMAN, Seat.Role.BYSPELER), partnerships[number], strict=True)
    ], by=by, reason="team sheet submitted")
    return sheet


@transaction.atomic
def match_toss_record(*, match: Match, winner: Team, by: Any = None, now: datetime | None = None) -> Match:
    """Record the captains' toss; the winner gets the cards (SAKBOC 1.3).

    :raises ValidationError: earlier than the union's toss time before play (SAKBOC 1.3: 5 minutes) or a team
        sheet missing (SAKBOC 1.3: captains say before tossing time if they cannot field a full team); play already
        started.
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, winner)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError(_("SAKBOC 1.3: the toss is before play; play has started."))
    _not_before(now, clock_deadlines(match)["toss_at"],
                _("SAKBOC 1.3: captains toss %(minutes)s minutes before play, not before %(value)s."),
                minutes=match_clock_lengths(match).toss_minutes_before)
    if match.team_sheets.count() < 2:
        raise ValidationError(_("SAKBOC 1.3: both team sheets must be in before the toss."))
    match.toss_winner, match.tossed_at = winner, now
    save_with_history(match, by=by, reason=f"toss won by {winner.name} (SAKBOC 1.3)")
    return match


# --- The match clock ------------------------------------------------------------------------------------

def _not_before(now: datetime, due: datetime, refusal: str, **values: Any) -> None:
    """Refuse a step of the match night taken before its time ``due``.

    :param refusal: the translated refusal, citing its clause, with ``%(value)s`` for the time due (``19:30``)
        and the match's clock length it names (``%(minutes)s``, given in ``values``: the union's, or the match's
        own, ``matches.selectors.match_clock_lengths``; never SAKBOC's default written in).
    :raises ValidationError: ``now`` is before ``due``.
    """
    if now < due:
        raise ValidationError(refusal % {**values, "value": hhmm(due)})


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
    _not_before(now, match.scheduled_start,
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
            _award(match, team_id=match.opponent_id(team_id), kind=Award.Kind.THREE_TABLES, by=by, now=now,
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
    _not_before(now, clock_deadlines(match)["first_half_ends_at"],
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
    _not_before(now, clock_deadlines(match)["interval_ends_at"],
                _("SAKBOC 1.2: the interval is %(minutes)s minutes; play resumes at %(value)s."),
                minutes=match_clock_lengths(match).interval_minutes)
    match.phase, match.second_half_started_at = Match.Phase.SECOND_HALF, now
    for seat in Seat.objects.filter(sheet__match=match, called_away_at__isnull=False).select_related("sheet"):
        _award(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=2,
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
        _not_before(now, deadlines["second_half_ends_at"],
                    _("SAKBOC 1.2: play lasts two halves of %(minutes)s minutes; time is at %(value)s."),
                    minutes=match_clock_lengths(match).half_minutes)
    elif match.phase == Match.Phase.EXTRA_TIME:
        _not_before(now, deadlines["extra_time_ends_at"], _("SAKBOC 1.12: extra time ends at %(value)s."))
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
    match: Match, table: MatchTable, *, defaulting_team_id: int, reason: str, kind: str, note: str, by: Any,
    now: datetime,
) -> None:
    table.status, table.stop_reason, table.stop_note = MatchTable.Status.STOPPED, reason, note
    table.defaulting_team_id, table.stopped_at, table.stopped_by = defaulting_team_id, now, by
    save_with_history(table, by=by, reason=f"table stopped ({Award.CLAUSE[kind]})")
    boem_sheet.time_call(match, table, now=now, by=by, reason=f"table stopped ({Award.CLAUSE[kind]})")
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


# --- Substitutions and players called away --------------------------------------------------------------

def substitute_check(*, match: Match, team: Team, player_in: Player) -> None:
    """Whether ``player_in`` may come on for ``team`` at half-time: the one rule for the substitution pages and
    API (:func:`substitution_make`) and a night file from another installation (``matches.nightfile.transfer``).

    :raises ValidationError: not an active player of the team's registered squad (SAKBOC 11.1, 1.5); suspended
        by the union (code ``suspended``, ``matches.night.suspensions``).
    """
    if not TeamMembership.objects.filter(team=team, player=player_in, player__active=True).exists():
        raise ValidationError(
            _("SAKBOC 11.1, 1.5: a substitute comes from %(team)s's registered squad; %(full_name)s is not in it.")
            % {"team": team.name, "full_name": player_in.full_name}
        )
    suspension_check(player=player_in, match=match)


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
        squad player (1.5, 11.1), already seated or suspended by the union (``matches.night.suspensions``);
        ``player_out`` not seated for the team; a role change that would swap a seated partnership (11.3).
    """
    now = now_or(now)
    match = match_lock(match)
    team_in_match(match, team)
    if match.phase != Match.Phase.INTERVAL:
        raise ValidationError(_("SAKBOC 11.1: substitutions are made during half-time only."))
    if Substitution.objects.filter(match=match, team=team).count() >= MAX_SUBSTITUTIONS:
        raise ValidationError(_("SAKBOC 11.4: at most 3 substitutions per team at half-time."))
    sheet = TeamSheet.objects.get(match=match, team=team)
    seats = {s.player_id: s for s in Seat.objects.select_for_update().filter(sheet=sheet)}
    seat = seats.get(player_out.pk)
    if seat is None:
        raise ValidationError(
            _("%(full_name)s is not seated for %(team)s.") % {"full_name": player_out.full_name, "team": team.name}
        )
    if player_in.pk in seats:
        other = seats[player_in.pk]
        raise ValidationError(
            _("%(full_name)s is already seated (table %(table_number)s, %(role)s).")
            % {"full_name": player_in.full_name, "table_number": other.table_number, "role": other.role}
        )
    substitute_check(match=match, team=team, player_in=player_in)
    role = role or seat.role
    target = seat
    if role != seat.role:
        partner = next(s for s in seats.values() if s.table_number == seat.table_number and s.pk != seat.pk)
        partner_is_substitute = Substitution.objects.filter(
            match=match, team=team, player_in_id=partner.player_id
        ).exists()
        if not partner_is_substitute:
            raise ValidationError(
                _(
                    "SAKBOC 11.3: the partnership at table %(table_number)s keeps its seats after half-time; the "
                    "substitute takes the %(value)s seat."
                )
                % {"table_number": seat.table_number, "value": seat.get_role_display().split(" ")[0].lower()}
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
    :raises ValidationError: in the last minutes of the game (SAKBOC 1.15: 15, the union's
        ``last_period_minutes``); not during the match; not seated.
    """
    now = now_or(now)
    match = match_lock(match)
    if match.phase not in boem_sheet.RECORDING_PHASES:
        raise ValidationError(_("SAKBOC 11.2: a player is called away during the match."))
    if match.phase == Match.Phase.EXTRA_TIME or (
        match.phase == Match.Phase.SECOND_HALF and now >= clock_deadlines(match)["last_period_from"]
    ):
        raise ValidationError(_("SAKBOC 1.15: no player may leave the table in the last %(minutes)s minutes of the "
                                "game.") % {"minutes": match_clock_lengths(match).last_period_minutes})
    seat = Seat.objects.select_for_update().select_related("sheet").filter(sheet__match=match, player=player).first()
    if seat is None:
        raise ValidationError(_("%(full_name)s is not seated in this match.") % {"full_name": player.full_name})
    if seat.called_away_at is not None:
        raise ValidationError(_("%(full_name)s has already been called away.") % {"full_name": player.full_name})
    seat.called_away_at = now
    save_with_history(seat, by=by, reason="called away with no substitute (SAKBOC 11.2)")
    if match.phase == Match.Phase.INTERVAL:
        return None
    half = 1 if match.phase == Match.Phase.FIRST_HALF else 2
    award = _award(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=half,
                   player_id=player.pk, table_number=seat.table_number, by=by, now=now)
    score_and_save(match, by=by, reason="player called away (SAKBOC 11.2)")
    return award


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


@transaction.atomic
def match_score_recompute(*, match: Match, by: Any = None) -> Match:
    """Recompute ``home_score``/``away_score`` from tables, boems and awards (SAKBOC 12.1 forfeits included)."""
    match = match_lock(match)
    score_and_save(match, by=by, reason="score recomputed")
    return match


# --- Results --------------------------------------------------------------------------------------------

@transaction.atomic
def result_enter(
    *, match: Match, home_score: int, away_score: int, reason: str, by: Any = None,
    confirmed_at: datetime | None = None, now: datetime | None = None,
) -> Match:
    """Enter or correct a match score by hand (a paper result, or a correction): provisional again, the
    captains' confirmations cleared; history keeps the old value and ``reason``.

    :param confirmed_at: the entry stands as confirmed from then (an official's entry, :func:`result_correct`).
    :param now: the time of the entry (default: now), for ``matches.writes.match_night_come_check``.

    :raises ValidationError: no reason; the match night is still to come (``records.match_night_come_check``,
        SAKBOC 1.9); a match night still in play; a knock-out draw (SAKBOC 1.12).
    """
    if not reason.strip():
        raise ValidationError(_("Say why the result is entered or changed."))
    match = match_lock(match)
    match_night_come_check(match=match, now=now)
    if match.phase not in (Match.Phase.SCHEDULED, Match.Phase.FINISHED):
        raise ValidationError(_("The match night is still in play; its score comes from the boem sheets."))
    if home_score < 0 or away_score < 0:
        raise ValidationError(_("Match scores are not negative."))
    if match.competition.is_knockout and home_score == away_score:
        raise ValidationError(_("SAKBOC 1.12: a knock-out match is not left drawn; enter the score after extra time."))
    was_approved = match.result_status == Match.ResultStatus.APPROVED
    match.home_score, match.away_score = home_score, away_score
    match.winner_id = match.home_id if home_score > away_score else match.away_id if away_score > home_score else None
    match.phase = Match.Phase.FINISHED
    match.finished_at = match.finished_at or timezone.now()
    match.result_status = Match.ResultStatus.CONFIRMED if confirmed_at else Match.ResultStatus.PROVISIONAL
    match.home_confirmed_by = match.away_confirmed_by = match.approved_by = None
    match.confirmed_at, match.approved_at = confirmed_at, None
    save_with_history(match, by=by, reason=reason.strip())
    if was_approved:
        _queue_standings(match.competition_id)
    return match


def _sheets_settled_check(match: Match) -> None:
    """A result rests on settled boem sheets: no "af" waiting for a ruling (SAKBOC 1.10), no line disputed or
    still waiting for the opposing telman.

    :raises ValidationError: naming what is open at which table, for the referee to settle first.
    """
    open_items = []
    for number, strafs in MatchTable.objects.filter(match=match, open_strafs__gt=0).values_list("number",
                                                                                             "open_strafs"):
        open_items.append(f"table {number}: {strafs} 'af' to rule on")
    lines = BoemEntry.objects.filter(table__match=match, struck=False, confirmed_at__isnull=True).exclude(
        kind=BoemEntry.Kind.TIME).values_list("table__number", "disputed_at")
    by_table: dict[int, list[str]] = {}
    for number, disputed in lines:
        by_table.setdefault(number, []).append("disputed" if disputed else "unconfirmed")
    for number, states in sorted(by_table.items()):
        disputed = states.count("disputed")
        unconfirmed = len(states) - disputed
        parts = [f"{n} {word}" for n, word in ((disputed, "disputed"), (unconfirmed, "not confirmed")) if n]
        open_items.append(f"table {number}: {' and '.join(parts)} going-on{'s' if len(states) > 1 else ''}")
    if open_items:
        raise ValidationError("The boem sheets are not settled: " + "; ".join(open_items)
                              + ". The referee settles them first (SAKBOC 1.10).")


@transaction.atomic
def result_confirm(*, match: Match, user: Any, now: datetime | None = None) -> Match:
    """Confirm a provisional result: the referee (or marker) alone, or both captains (each for their side).

    :raises ValidationError: no provisional result; boem sheets not settled (an "af" to rule on, a going-on
        disputed or not confirmed); a dispute of the result still open (SAKBOC 1.10: the union's official
        settles it). :raises PermissionDenied: not a captain or the referee.
    """
    now = now_or(now)
    match = match_lock(match)
    if match.result_status in (Match.ResultStatus.CONFIRMED, Match.ResultStatus.APPROVED):
        return match
    if match.result_status != Match.ResultStatus.PROVISIONAL:
        raise ValidationError(_("There is no result to confirm yet."))
    _sheets_settled_check(match)
    _no_open_dispute_check(match, "confirmed")
    side = result_confirmer_side(match=match, user=user)
    if side == "referee":
        match.confirmed_at = now
    elif side == "home":
        match.home_confirmed_by = user
    else:
        match.away_confirmed_by = user
    if match.confirmed_at is None and match.home_confirmed_by_id and match.away_confirmed_by_id:
        match.confirmed_at = now
    if match.confirmed_at is not None:
        match.result_status = Match.ResultStatus.CONFIRMED
    save_with_history(match, by=user, reason="result confirmed")
    return match



def result_confirmer_side(*, match: Match, user: Any) -> str:
    """Who ``user`` confirms ``match``'s result as: ``"referee"`` (its referee or marker, alone), ``"home"`` or
    ``"away"`` (that side's captain; both captains together confirm it). The one rule for the result pages and
    API (:func:`result_confirm`) and a night file from another installation (``matches.nightfile.transfer``).

    :raises PermissionDenied: ``user`` is none of those (SAKBOC 1.10: the referee's word, or both sides').
    """
    if user is not None and user.pk is not None and user.pk in (match.referee_id, match.marker_id):
        return "referee"
    captains = dict(
        Team.objects.filter(pk__in=[match.home_id, match.away_id]).values_list("pk", "captain__user_id")
    )
    if user is not None and user.pk is not None:
        if user.pk == captains.get(match.home_id):
            return "home"
        if user.pk == captains.get(match.away_id):
            return "away"
    raise PermissionDenied(_("A result is confirmed by both captains or by the referee."))


def _no_open_dispute_check(match: Match, what: str) -> None:
    """:raises ValidationError: a captain's dispute of the result is open (the official settles it first)."""
    dispute = match.disputes.filter(settled_at__isnull=True).select_related("team").first()
    if dispute is not None:
        raise ValidationError(
            _("%(team)s's captain disputes this result; it cannot be %(what)s until a union official settles the "
              "dispute by entering or correcting the score with a reason.") % {"team": dispute.team.name, "what": what}
        )


def _is_official(match: Match, user: Any) -> bool:
    return UnionOfficial.objects.filter(union_id=match.competition.union_id, user=user).exists()


@transaction.atomic
def result_dispute(*, match: Match, user: Any, reason: str, now: datetime | None = None) -> ResultDispute:
    """A captain disputes the match's result, saying why (SAKBOC 1.10: queries are noted; the union's official
    decides). The side's confirmation is withdrawn and a confirmed result is provisional again; the union's
    officials and the match's referee and marker are e-mailed after commit.

    :param reason: what is wrong, in the captain's words (1 to 1000 characters).
    :raises ValidationError: no reason or one too long; no result yet; the result already approved (ask the
        union's official); the side already has a dispute open. :raises PermissionDenied: not a captain of
        either side.
    """
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say what is wrong with the result.")})
    if len(reason) > 1000:
        raise ValidationError({"reason": _("Keep the reason to 1000 characters.")})
    match = match_lock(match)
    captains = dict(Team.objects.filter(pk__in=[match.home_id, match.away_id]).values_list("pk", "captain__user_id"))
    team_id = next((t for t in (match.home_id, match.away_id) if captains.get(t) == user.pk), None)
    if team_id is None:
        raise PermissionDenied(_("A result is disputed by a captain of either side."))
    if match.result_status == Match.ResultStatus.NONE:
        raise ValidationError(_("There is no result to dispute yet."))
    if match.result_status == Match.ResultStatus.APPROVED:
        raise ValidationError(_("The result is approved; ask the union's official to correct it."))
    if match.disputes.filter(team_id=team_id, settled_at__isnull=True).exists():
        raise ValidationError(_("Your side's dispute of this result is already with the union's official."))
    dispute = ResultDispute(match=match, team_id=team_id, reason=reason, raised_by=user, raised_at=now)
    save_with_history(dispute, by=user, reason="result disputed")
    if team_id == match.home_id:
        match.home_confirmed_by = None
    else:
        match.away_confirmed_by = None
    if match.result_status == Match.ResultStatus.CONFIRMED:
        match.result_status, match.confirmed_at = Match.ResultStatus.PROVISIONAL, None
    save_with_history(match, by=user, reason="result disputed by a captain")
    result_disputed_notify(dispute_id=dispute.pk)
    return dispute


@transaction.atomic
def result_correct(
    *, match: Match, user: Any, home_score: int, away_score: int, reason: str, now: datetime | None = None,
) -> Match:
    """A union official enters or corrects the score with a written reason: the official's entry stands as
    confirmed (ready to approve), every open dispute is settled with ``reason``, and history keeps who, when,
    why and the old score (:func:`result_enter`).

    In a cup, a correction that changes the winner puts the new winner into the next round's tie when that
    is scheduled and not begun.

    :raises ValidationError: as :func:`result_enter` (no reason, a match night still to come, a night still in
        play, a knock-out draw, negative scores); a cup correction changing a winner whose next tie has begun.
    :raises PermissionDenied: not an official of the competition's union.
    """
    now = now_or(now)
    match = match_lock(match)
    if not _is_official(match, user):
        raise PermissionDenied(_("A result is entered or corrected by an official of the union."))
    old = f"{match.home_score}-{match.away_score}"
    old_winner_id = match.winner_id
    match = result_enter(match=match, home_score=home_score, away_score=away_score, by=user, reason=reason,
                         confirmed_at=now, now=now)
    if match.competition.is_knockout and match.tie_number and old_winner_id and match.winner_id != old_winner_id:
        _cup_winner_replace(match, user)
    for dispute in match.disputes.filter(settled_at__isnull=True):
        dispute.settled_at, dispute.settled_by = now, user
        dispute.settlement = f"Score set to {home_score}-{away_score} (was {old}): {reason.strip()}"
        save_with_history(dispute, by=user, reason="dispute settled")
    return match


def _cup_winner_replace(match: Match, user: Any) -> None:
    """A corrected cup result changed the winner: the next-round tie, if scheduled and not yet begun, gets the
    new winner in the old one's place.

    :raises ValidationError: the next-round tie has begun (its night cannot be replayed by a correction).
    """
    following, side = knockout_next_tie(match)
    if following is None:
        return
    following = match_lock(following)
    if following.phase != Match.Phase.SCHEDULED:
        raise ValidationError(
            _(
                "%(home)s v %(away)s, the next round's tie, has already been played; a correction cannot change who "
                "was in it."
            )
            % {"home": following.home, "away": following.away}
        )
    setattr(following, side, match.winner)
    save_with_history(following, by=user, reason=f"winner of {match.round_name or 'the tie'} corrected")


@transaction.atomic
def result_approve(*, match: Match, user: Any, reason: str = "", now: datetime | None = None) -> Match:
    """A union official approves a confirmed result; the standings are recomputed after commit by a task. In a
    knock-out cup the winner goes into the next round by itself (:func:`knockout_advance`).

    :raises ValidationError: the result is not confirmed; a dispute of it is open.
    :raises PermissionDenied: not an official of the competition's union.
    """
    now = now_or(now)
    match = match_lock(match)
    if not UnionOfficial.objects.filter(union_id=match.competition.union_id, user=user).exists():
        raise PermissionDenied(_("Results are approved by an official of the union."))
    if match.result_status == Match.ResultStatus.APPROVED:
        return match
    _no_open_dispute_check(match, "approved")
    if match.result_status != Match.ResultStatus.CONFIRMED:
        raise ValidationError(_("A result is approved once both captains or the referee have confirmed it, or once "
                              "an official has entered or corrected it."))
    match.result_status, match.approved_by, match.approved_at = Match.ResultStatus.APPROVED, user, now
    save_with_history(match, by=user, reason=reason or "result approved")
    _queue_standings(match.competition_id)
    if match.competition.is_knockout:
        knockout_advance(competition=match.competition, by=user)
    return match


@transaction.atomic
def result_reopen(*, match: Match, user: Any, reason: str) -> Match:
    """A union official reopens an approved result so its boem sheets can be amended (an appeal upheld against a
    ruling, issue 22): confirmed again, out of the standings until approved once more; history keeps ``reason``.

    :raises ValidationError: no reason; the result is not approved. :raises PermissionDenied: not an official of
        the competition's union.
    """
    if not reason.strip():
        raise ValidationError(_("Say why the approved result is reopened."))
    match = match_lock(match)
    if not _is_official(match, user):
        raise PermissionDenied(_("An approved result is reopened by an official of the union."))
    if match.result_status != Match.ResultStatus.APPROVED:
        raise ValidationError(_("Only an approved result is reopened."))
    match.result_status, match.approved_by, match.approved_at = Match.ResultStatus.CONFIRMED, None, None
    save_with_history(match, by=user, reason=reason.strip())
    _queue_standings(match.competition_id)
    return match


def _queue_standings(competition_id: int) -> None:
    """Recompute the competition's standings once this transaction commits: the task goes to the outbox in the
    same transaction as the approval, so a broker that is down cannot lose it (issue 16); the public standings
    run it themselves at their next read if no worker has yet."""
    from klawerjas_league.outbox import outbox_enqueue
    from matches.results.standings import STANDINGS_RECOMPUTE_TASK, standings_cache_clear, standings_outbox_key

    transaction.on_commit(lambda: standings_cache_clear(competition_id=competition_id))
    outbox_enqueue(task=STANDINGS_RECOMPUTE_TASK, args=[competition_id],
                   key=standings_outbox_key(competition_id=competition_id))


def standings_publish_title(*, competition: Competition, title: str = "") -> str:
    """The title standings of ``competition`` would be published under now, or why they cannot be: what
    :func:`standings_publish` checks, for a page to ask for confirmation first.

    :raises ValidationError: no approved result; none approved since the last publication; keyed ``title``: a
        title already used in the competition.
    """
    from django.db.models import Max

    approved = Match.objects.filter(competition=competition, result_status=Match.ResultStatus.APPROVED)
    last = standings_snapshot_latest(competition=competition)
    latest_approval = approved.aggregate(at=Max("approved_at"))["at"]
    if latest_approval is None:
        raise ValidationError(_("No result is approved yet: there are no standings to publish."))
    if last is not None and latest_approval <= last.published_at:
        raise ValidationError(
            _(
                "No result has been approved since “%(title)s” was published on %(value)s: these standings are "
                "already out."
            )
            % {
                "title": last.title,
                "value": _("%(date)s at %(time)s")
                % {
                    "date": date_format(timezone.localtime(last.published_at), "d F Y"),
                    "time": date_format(timezone.localtime(last.published_at), "H:i"),
                },
            }
        )
    title = title.strip()
    if not title:
        count = approved.count()
        # The page puts the competition's name and "Published standings" around a title, in the reader's
        # language: the default names only what is particular to this publication.
        title = ngettext("After %(count)s approved result", "After %(count)s approved results", count) % {
            "count": count}
    if competition.standings_snapshots.filter(title=title).exists():
        raise ValidationError(
            {"title": _("“%(title)s” is already published; give these standings another title.") % {"title": title}}
        )
    return title


@transaction.atomic
def standings_publish(
    *, competition: Competition, by: Any = None, title: str = "", as_of: date | None = None,
    now: datetime | None = None,
) -> StandingsSnapshot:
    """Publish the competition's standings as a frozen, dated snapshot (computed afresh from the approved
    results); notifies the captains after commit.

    :param title: defaults to "After <n> approved results", in the publisher's language.
    :raises ValidationError: keyed ``title``: a title already used in the competition; no approved result, or
        none approved since the last publication (the same standings would go out twice).
    """
    from matches.results.standings import standings_page_token_renew, standings_recompute

    now = now_or(now)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    title = standings_publish_title(competition=competition, title=title)
    lines = standings_recompute(competition_id=competition.pk)
    as_of = as_of or timezone.localdate(now)
    snapshot = StandingsSnapshot(
        competition=competition, title=title, as_of=as_of,
        rows=[line.row() for line in lines], published_at=now, published_by=by,
    )
    snapshot.full_clean()
    snapshot.save()
    standings_page_token_renew(competition_id=competition.pk)
    standings_published_notify(snapshot_id=snapshot.pk)
    return snapshot


# --- Fixture lists: a generated fixture list (matches/competitions/fixtures.py) made into scheduled matches ------------


def competition_fixtures_create(
    *,
    competition,
    start: dt.date,
    kickoff: dt.time = dt.time(19, 30),
    days_between_rounds: int = 7,
    home_and_away: bool = True,
    blackout_dates: Collection[dt.date] = (),
    by=None,
) -> list:
    """Schedule a competition's fixture list from its entered teams; return the new ``Match`` rows.

    A league gets :func:`~matches.competitions.fixtures.league_round_robin` (home and away unless ``home_and_away`` is
    False), one match night per round at ``kickoff`` local time. No round is played on one of the
    ``blackout_dates`` (public holidays, say): a round that would fall on one moves to the next free match night,
    ``days_between_rounds`` later (again while that is a blackout date too), and later rounds keep their spacing
    from it (:func:`~matches.competitions.fixtures.round_date_next`); :func:`~matches.competitions.fixtures.blackout_dates_hit` says which
    dates were skipped. A cup's round 1 moves the same way. A knock-out cup gets round 1 of
    :func:`~matches.competitions.fixtures.knockout_bracket` (teams seeded by ``Team.seed``, unseeded teams after them in the
    order they were entered): byes are not matches, and later rounds are scheduled by :func:`knockout_advance`
    once their winners are known (at once for a round-2 tie between two byes). Each match goes through
    :func:`match_schedule` (which validates it) and tells both captains by e-mail after commit. The venue is
    the home club's name.

    :raises django.core.exceptions.ValidationError: entries still open (``matches.competitions.entries``); the competition
        already has fixtures, a team carried over from last season is still a draft (``matches.seasons.services``), or it
        has fewer than 2 teams, or a generated match fails ``match_schedule``'s rules.
        Nothing is saved then.
    """
    competition.refresh_from_db(fields=["entries_open"])
    teams = cup_teams(competition)
    if competition.entries_open:
        raise ValidationError(
            _("%(competition)s is still open for entries: close the entries first, then make the fixtures.")
            % {"competition": competition}
        )
    if competition.matches.exists():
        raise ValidationError(_("This competition already has fixtures; schedule further matches one by one."))
    fixtures_draft_check(competition=competition)
    tz = timezone.get_current_timezone()
    blackout = frozenset(blackout_dates)
    start = round_date_next(start, days_between_rounds=max(days_between_rounds, 1), skip_dates=blackout)

    def at(day: dt.date) -> dt.datetime:
        return dt.datetime.combine(day, kickoff, tzinfo=tz)

    created = []
    try:
        with transaction.atomic():
            if competition.is_knockout:
                first = knockout_bracket(teams, start=start, days_between_rounds=days_between_rounds)[0]
                for tie in first.ties:
                    if tie.is_bye:
                        continue
                    created.append(match_schedule(
                        competition=competition, home=tie.home, away=tie.away, scheduled_start=at(start),
                        venue=tie.home.club.name, round_number=1, round_name=f"{first.name}, tie {tie.number}",
                        tie_number=tie.number, by=by,
                    ))
                created += knockout_advance(competition=competition, by=by)
            else:
                for league_round in league_round_robin(teams, start=start, days_between_rounds=days_between_rounds,
                                                       home_and_away=home_and_away, skip_dates=blackout):
                    for pairing in league_round.pairings:
                        created.append(match_schedule(
                            competition=competition, home=pairing.home, away=pairing.away,
                            scheduled_start=at(league_round.date), venue=pairing.home.club.name,
                            round_number=league_round.number, by=by,
                        ))
    except FixtureError as error:
        raise ValidationError(str(error)) from error
    return created


def fixtures_draft_check(*, competition: Competition) -> None:
    """Refuse the fixtures while a team of ``competition`` is still a draft. One query.

    :raises ValidationError: naming the drafts and their clubs.
    """
    drafts = list(Team.objects.filter(competition=competition, draft=True).select_related("club").order_by("name"))
    if drafts:
        names = ", ".join(f"{t.name} ({t.club.name})" for t in drafts)
        raise ValidationError(
            ngettext(
                "%(count)s carried-over team is still a draft: %(names)s. Their clubs' secretaries confirm or "
                "withdraw them first.",
                "%(count)s carried-over teams are still a draft: %(names)s. Their clubs' secretaries confirm or "
                "withdraw them first.",
                len(drafts),
            )
            % {"count": len(drafts), "names": names}
        )


def cup_teams(competition) -> list:
    """A competition's entered teams in seeding order (``Team.seed``, then the order they were entered)."""
    return list(Team.objects.filter(competition=competition).select_related("club")
                .order_by(F("seed").asc(nulls_last=True), "id"))


def knockout_advance(*, competition, by=None) -> list:
    """Schedule every next-round tie of a knock-out cup whose two feeders are decided; return the new matches.

    Tie ``k`` of round ``r`` is played between the winners of ties ``2k - 1`` (at home) and ``2k`` of round
    ``r - 1``. A tie is decided by a bye (round 1, :func:`~matches.competitions.fixtures.knockout_bracket`) or by an
    *approved* result with a winner: a draw has no winner until the toss and extra time (SAKBOC 1.12), so its
    next tie waits. The new match is a week (``days_between_rounds`` of 7) after the later feeder, at the same
    local time, at the home club. Idempotent: a tie already scheduled is left alone, so calling it after every
    approval is safe.

    :param competition: a knock-out :class:`~matches.models.Competition` with round 1 scheduled.
    :returns: the matches created, possibly none.
    """
    if not competition.is_knockout:
        return []
    teams = cup_teams(competition)
    if len(teams) < 2:
        return []
    rounds = knockout_bracket(teams)
    by_team = {team.pk: team for team in teams}
    played = {(m.round_number, m.tie_number): m for m in competition.matches.filter(tie_number__isnull=False)}
    if not played:
        return []
    first_start = min(m.scheduled_start for (r, _), m in played.items() if r == 1)

    def decided(round_number: int, position: int):
        """(winner team, the time its tie was played) or None while undecided."""
        if round_number == 1:
            tie = rounds[0].ties[position - 1]
            if tie.is_bye:
                return tie.home, first_start
        match = played.get((round_number, position))
        if match is None or match.result_status != Match.ResultStatus.APPROVED or match.winner_id is None:
            return None
        return by_team[match.winner_id], match.scheduled_start

    created = []
    with transaction.atomic():
        for cup_round in rounds[1:]:
            for position in range(1, len(cup_round.ties) + 1):
                if (cup_round.number, position) in played:
                    continue
                home = decided(cup_round.number - 1, 2 * position - 1)
                away = decided(cup_round.number - 1, 2 * position)
                if home is None or away is None:
                    continue
                previous = timezone.localtime(max(home[1], away[1]))
                match = match_schedule(
                    competition=competition, home=home[0], away=away[0],
                    scheduled_start=previous + dt.timedelta(days=7), venue=home[0].club.name,
                    round_number=cup_round.number, round_name=f"{cup_round.name}, tie {position}",
                    tie_number=position, by=by,
                )
                played[(cup_round.number, position)] = match
                created.append(match)
    return created


def knockout_next_tie(match):
    """The next-round tie ``match``'s winner goes into, if it is scheduled yet, and which side (``"home"`` for an
    odd tie, ``"away"`` for an even one); ``(None, side)`` when it is not. Only for a cup's numbered ties."""
    side = "home" if match.tie_number % 2 else "away"
    following = Match.objects.filter(competition_id=match.competition_id, round_number=match.round_number + 1,
                                     tie_number=(match.tie_number + 1) // 2).first()
    return following, side
