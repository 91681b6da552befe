"""Services for competitions and fixtures (writes): a competition created, a match scheduled and its officials,
a competition's fixture list and a cup's next rounds.

Keyword-only and atomic, like every service of :mod:`matches` (the match locked with ``select_for_update``,
re-read, the rules checked, written, side effects after commit; ``ValidationError`` citing the clause,
``PermissionDenied`` for the workflow's role checks; ``now`` for services that depend on time, ``by`` recorded as
the history user).

A competition's fixture list (:func:`competition_fixtures_create`, skipping blackout dates) and a cup's next rounds
(:func:`knockout_advance`) are scheduled here from the pure generators of :mod:`matches.competitions.fixtures`; a
fixture is postponed or moved by :func:`~matches.competitions.fixture_changes.fixture_reschedule`.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Collection
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
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
    Union,
    UnionReferee,
)
from clubs.selectors import person_name
from clubs.services import save_with_history, user_group_add
from matches.competitions.fixtures import FixtureError, knockout_bracket, league_round_robin, round_date_next
from matches.models import (
    DEFAULT_RULESET,
    Competition,
    Match,
    Season,
)
from matches.notifications import fixture_scheduled_notify
from matches.writes import (
    match_lock,
)

logger = logging.getLogger(__name__)

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
    either club, a secretary of either club; in a Board championship, a player registered in either union whose
    representative side plays (Board level).
    """
    clubs = {match.home.club_id: match.home.club, match.away.club_id: match.away.club}
    reasons = []
    player = Player.objects.filter(user=user, club_id__in=clubs).select_related("club").first()
    if player is not None:
        reasons.append(f"{player.full_name} plays for {player.club.name}")
    # At Board level a side represents a union: nobody registered in either union referees its match.
    unions = [club.represents_id for club in clubs.values() if club.represents_id is not None]
    player = Player.objects.filter(user=user, union_id__in=unions).select_related("club", "union").first()
    if player is not None:
        reasons.append(f"{player.full_name} plays for {player.club.name} of {player.union.name}")
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
    installation, ``matches.nightfile``). Each is on the union's list of referees
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


# --- Fixture lists: a generated fixture list (matches/competitions/fixtures.py) made into scheduled matches ---


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
    from it (:func:`~matches.competitions.fixtures.round_date_next`);
    :func:`~matches.competitions.fixtures.blackout_dates_hit` says which
    dates were skipped. A cup's round 1 moves the same way. A knock-out cup gets round 1 of
    :func:`~matches.competitions.fixtures.knockout_bracket` (teams seeded by ``Team.seed``, unseeded teams after them
    in the
    order they were entered): byes are not matches, and later rounds are scheduled by :func:`knockout_advance`
    once their winners are known (at once for a round-2 tie between two byes). Each match goes through
    :func:`match_schedule` (which validates it) and tells both captains by e-mail after commit. The venue is
    the home club's name.

    :raises django.core.exceptions.ValidationError: entries still open (``matches.competitions.entries``); the
    competition
        already has fixtures, a team carried over from last season is still a draft (``matches.seasons.services``), or
        it
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
                    assert isinstance(tie.home, Team) and isinstance(tie.away, Team)  # round 1: entrants, no winners
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


def cup_teams(competition) -> list[Team]:
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
