"""Access to competitions and matches, one helper per resource: who may manage a competition, run or
confirm a match, or submit a team sheet for it.

The roles and the registry's scopes (unions, clubs, teams) are :mod:`clubs.permissions`'; the helpers here
add the match's own links on top: the competition's union for an official, ``Match.home``/``Match.away`` for a
captain or club secretary, ``Match.referee``/``Match.marker`` for a referee (SAKBOC 1.11). Each returns the
object or raises :class:`django.http.Http404`, the same answer for "not there" and "not yours".

A match is returned with the clock deadlines already passed acted on (:func:`matches.night.clock.match_clock_catch_up`,
no query when none is due), so a confirmation, a console or an API call after time sees the match as the clock has
it even when no worker ran the timer (SAKBOC 1.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.http import Http404

from clubs.models import Team, Union
from clubs.permissions import (
    PERM_COMPETITION_MANAGE,
    PERM_MATCH_MANAGE,
    PERM_MATCH_VIEW,
    PERM_SEASON_MANAGE,
    PERM_TEAM_SHEET_SUBMIT,
    not_found,
    one_or_404,
    perm_require,
    teams_for_captain,
    union_for_official,
    unions_for_official,
)
from matches.models import Competition, Match, Season
from matches.night.clock import match_clock_catch_up

if TYPE_CHECKING:
    from clubs.permissions import AnyUser


def competitions_for_official(user: AnyUser) -> QuerySet[Competition]:
    """Competitions of the unions ``user`` runs."""
    return Competition.objects.filter(union__in=unions_for_official(user))


def matches_for_referee(user: AnyUser) -> QuerySet[Match]:
    """Matches ``user`` is assigned to as referee or marker (SAKBOC 1.11)."""
    if not user.is_authenticated or not user.has_perm(PERM_MATCH_VIEW):
        return Match.objects.none()
    return Match.objects.filter(Q(referee=user) | Q(marker=user))


def competition_for_official(*, user: AnyUser, competition_id: int) -> Competition:
    """The competition if ``user`` is an official of its union.

    :raises Http404: no such competition, or another union's (the same answer).
    """
    perm_require(user, PERM_COMPETITION_MANAGE, "competition")
    return one_or_404(competitions_for_official(user).select_related("union"), "competition", pk=competition_id)


def match_for_official(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` is an official of its competition's union (to schedule, assign, approve).

    :raises Http404: no such match, or another union's (the same answer).
    """
    perm_require(user, PERM_MATCH_MANAGE, "match")
    perm_require(user, PERM_COMPETITION_MANAGE, "match")
    return match_clock_catch_up(match=one_or_404(
        Match.objects.select_related("competition__union", "home", "away"), "match",
        pk=match_id, competition__union__in=unions_for_official(user)))


def match_team_for_captain(*, user: AnyUser, match_id: int, team_id: int | None = None) -> tuple[Match, Team]:
    """The match and the user's own team in it, for team sheets, substitutions and result confirmation.

    ``team_id`` picks the side when the user manages both (a club secretary of a club derby); otherwise
    the one side the user manages is used.

    :raises Http404: no such match, the user manages neither side, or ``team_id`` is not one of the user's
        sides in it (all the same answer).
    """
    perm_require(user, PERM_TEAM_SHEET_SUBMIT, "match")
    match = one_or_404(Match.objects.select_related("competition__union", "home__club", "away__club"), "match",
                       pk=match_id)
    mine = set(teams_for_captain(user).filter(pk__in=[match.home_id, match.away_id]).values_list("pk", flat=True))
    if team_id is not None:
        if team_id not in mine:
            raise not_found("match")
        chosen = team_id
    elif len(mine) == 1:
        chosen = mine.pop()
    elif mine:
        chosen = match.home_id  # both sides are the user's: default to home, the caller may pass team_id
    else:
        raise not_found("match")
    match_clock_catch_up(match=match)
    return match, (match.home if chosen == match.home_id else match.away)


def match_for_referee(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` is its referee or marker (SAKBOC 1.11).

    :raises Http404: no such match, or not assigned to the user (the same answer).
    """
    perm_require(user, PERM_MATCH_VIEW, "match")
    return match_clock_catch_up(match=one_or_404(
        matches_for_referee(user).select_related("competition__union", "home", "away"), "match", pk=match_id))


def match_for_confirmer(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` may confirm its result: a captain (or club secretary) of either side, or its
    referee or marker. Whether the confirmation counts is the service's rule (``result_confirm``).

    :raises Http404: no such match, or not the user's (the same answer).
    """
    try:
        return match_team_for_captain(user=user, match_id=match_id)[0]
    except Http404:
        return match_for_referee(user=user, match_id=match_id)


def season_for_official(*, user: AnyUser, season_id: int) -> Season:
    """The season if ``user`` is an official of its union (to start the next one from it).

    :raises Http404: no such season, or another union's (the same answer).
    """
    perm_require(user, PERM_SEASON_MANAGE, "season")
    return one_or_404(Season.objects.select_related("union"), "season",
                      pk=season_id, union__in=unions_for_official(user))


def union_for_season_official(*, user: AnyUser, union_id: int) -> Union:
    """The union if ``user`` is one of its officials and may close its seasons.

    :raises Http404: no such union, or not the user's (the same answer).
    """
    perm_require(user, PERM_SEASON_MANAGE, "union")
    return union_for_official(user=user, union_id=union_id)
