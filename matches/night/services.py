"""Services for the match night (writes): team sheets and the toss, substitutions and players called away, awards
and the match score.

Keyword-only and atomic, like every service of :mod:`matches`: the match locked (``select_for_update``), re-read,
the rules checked, written, the match score recomputed and side effects scheduled with ``transaction.on_commit``.
A broken rule raises ``ValidationError`` whose message cites the clause; the role checks that are rules of the
workflow raise ``PermissionDenied``. ``now`` (default: the current time) for services that depend on time, ``by``
recorded as the history user. Every write to a table's boem sheet lives in :mod:`matches.night.boem_sheet`; the
clock's services in :mod:`matches.night.clock`; the write primitives (the match lock, version checks, the score)
are :mod:`matches.writes`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import (
    Player,
    Team,
    TeamMembership,
)
from clubs.services import create_all_with_history, save_with_history
from matches.models import (
    TABLES_PER_MATCH,
    Award,
    Match,
    Seat,
    Substitution,
    TeamSheet,
)
from matches.night import boem_sheet
from matches.night.suspensions import players_with_suspensions, suspension_check
from matches.selectors import clock_deadlines, match_clock_lengths
from matches.writes import (
    award_once,
    match_lock,
    not_before_check,
    now_or,
    score_and_save,
    team_in_match,
    version_check,
)

logger = logging.getLogger(__name__)

MAX_SUBSTITUTIONS = 3  # SAKBOC 11.4

# --- Team sheets and the toss ---------------------------------------------------------------------------

def team_sheet_check(
    *, match: Match, team: Team, partnerships: Mapping[int, tuple[Player, Player]],
) -> dict[int, Player]:
    """Whether ``partnerships`` (``{table_number: (telman, byspeler)}``) may be ``team``'s sheet for ``match``: the
    one rule for the team-sheet pages and API (:func:`team_sheet_submit`) and a night file from another
    installation (``matches.nightfile``). Returns the team's squad, ``{player id: player}``.

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
    not_before_check(now, clock_deadlines(match)["toss_at"],
                _("SAKBOC 1.3: captains toss %(minutes)s minutes before play, not before %(value)s."),
                minutes=match_clock_lengths(match).toss_minutes_before)
    if match.team_sheets.count() < 2:
        raise ValidationError(_("SAKBOC 1.3: both team sheets must be in before the toss."))
    match.toss_winner, match.tossed_at = winner, now
    save_with_history(match, by=by, reason=f"toss won by {winner.name} (SAKBOC 1.3)")
    return match


# --- Substitutions and players called away --------------------------------------------------------------

def substitute_check(*, match: Match, team: Team, player_in: Player) -> None:
    """Whether ``player_in`` may come on for ``team`` at half-time: the one rule for the substitution pages and
    API (:func:`substitution_make`) and a night file from another installation (``matches.nightfile``).

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
    award = award_once(match, team_id=match.opponent_id(seat.sheet.team_id), kind=Award.Kind.CALLED_AWAY, half=half,
                   player_id=player.pk, table_number=seat.table_number, by=by, now=now)
    score_and_save(match, by=by, reason="player called away (SAKBOC 11.2)")
    return award


# --- Awards and the match score -------------------------------------------------------------------------

@transaction.atomic
def match_score_recompute(*, match: Match, by: Any = None) -> Match:
    """Recompute ``home_score``/``away_score`` from tables, boems and awards (SAKBOC 12.1 forfeits included)."""
    match = match_lock(match)
    score_and_save(match, by=by, reason="score recomputed")
    return match
