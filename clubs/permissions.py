"""Roles and object-level access: who may act on which union, club, team, player, competition and match.

Two layers, both checked by every helper here:

1. **Role** — a Django group with model permissions (:data:`ROLE_PERMISSIONS`, kept in step by
   :func:`role_groups_sync` after every ``migrate``). It answers "may this kind of user do this kind of thing
   at all?" (``user.has_perm``, one cached query per request).
2. **Scope** — the link that ties the user to the object: a :class:`~clubs.models.UnionOfficial` row for
   the union, a :class:`~clubs.models.ClubSecretary` row for the club, ``Team.captain.user`` for the team,
   ``Match.referee``/``Match.marker`` for the match.

* **union official** (group "Union officials"; scope: their unions): competitions and fixtures, referees
  and markers, result approval, published standings.
* **club secretary** ("Club secretaries"; their clubs): players, teams, squads, captains, team sheets,
  substitutions, result confirmation — for every team of the club.
* **captain** ("Captains"; the teams they captain, and those teams' clubs for registering players): players,
  squad, team sheet, half-time substitutions, result confirmation.
* **referee / marker** ("Referees"; the matches they are assigned to): result confirmation here; the match
  night itself is the referee console in ``referee/``.
* **the public**: no writes; the public pages and the read API.

Every view and API call goes through one helper per resource (Zulip's ``access_stream_by_id`` habit): it
returns the object or raises :class:`django.http.Http404` — the same answer for "not there" and "not
yours", so nobody can probe another union's or team's ids. A superuser acts as an official of every union.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db.models import Q, QuerySet
from django.http import Http404

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    Club,
    Player,
    Team,
    Union,
)
from matches.models import Competition, Match, Season

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    AnyUser = User | AnonymousUser

#: Model permissions held by each role's group (``app_label.codename``). The scope check comes on top.
ROLE_PERMISSIONS: dict[str, tuple[str, ...]] = {
    GROUP_UNION_OFFICIALS: (
        "matches.add_competition", "matches.change_competition", "matches.view_competition",
        "matches.add_match", "matches.change_match", "matches.view_match",
        "matches.add_standingssnapshot", "matches.view_standingssnapshot",
        "clubs.add_club", "clubs.change_club", "clubs.view_club", "clubs.view_player",
        "clubs.add_team", "clubs.change_team", "clubs.view_team",
        "clubs.add_transfer", "clubs.view_transfer", "matches.add_season", "matches.change_season",
    ),
    GROUP_CLUB_SECRETARIES: (
        "clubs.add_player", "clubs.change_player", "clubs.view_player",
        "clubs.add_team", "clubs.change_team", "clubs.view_team", "clubs.add_teammembership",
        "clubs.delete_teammembership",
        "matches.add_teamsheet", "matches.add_substitution", "matches.view_match",
    ),
    GROUP_CAPTAINS: (
        "clubs.add_player", "clubs.change_player", "clubs.view_player",
        "clubs.change_team", "clubs.view_team", "clubs.add_teammembership", "clubs.delete_teammembership",
        "matches.add_teamsheet", "matches.add_substitution", "matches.view_match",
    ),
    GROUP_REFEREES: ("matches.view_match", "matches.change_match"),
}

# The permission each kind of action needs; the helpers below check it before the scope.
PERM_COMPETITION_MANAGE = "matches.add_competition"
PERM_MATCH_MANAGE = "matches.change_match"
PERM_STANDINGS_PUBLISH = "matches.add_standingssnapshot"
PERM_PLAYER_REGISTER = "clubs.add_player"
PERM_TEAM_MANAGE = "clubs.change_team"
PERM_TEAM_SHEET_SUBMIT = "matches.add_teamsheet"
PERM_MATCH_VIEW = "matches.view_match"
PERM_TRANSFER_RECORD = "clubs.add_transfer"
PERM_SEASON_MANAGE = "matches.change_season"


def role_groups_sync(**_: object) -> None:
    """Create the four role groups if missing and give each exactly :data:`ROLE_PERMISSIONS`.

    Idempotent; connected to ``post_migrate`` in ``clubs.apps.ClubsConfig.ready`` so a fresh database (and
    every test database) has the groups with their permissions.
    """
    for group_name, perms in ROLE_PERMISSIONS.items():
        group, _created = Group.objects.get_or_create(name=group_name)
        wanted = Q()
        for perm in perms:
            app_label, codename = perm.split(".")
            wanted |= Q(content_type__app_label=app_label, codename=codename)
        group.permissions.set(Permission.objects.filter(wanted))


def role_names(user: AnyUser) -> list[str]:
    """The role group names ``user`` belongs to (empty for the public), for navigation and templates."""
    if not user.is_authenticated:
        return []
    return sorted(g.name for g in user.groups.all() if g.name in ROLE_PERMISSIONS)


def _not_found(what: str) -> Http404:
    return Http404(f"No {what} matches the given query.")


def _require(user: AnyUser, perm: str, what: str) -> None:
    """Raise 404 unless ``user`` is signed in with ``perm``: a missing role looks like a missing object."""
    if not user.is_authenticated or not user.has_perm(perm):
        raise _not_found(what)


# --- Scopes (querysets), for lists and dashboards -------------------------------------------------------


def unions_for_official(user: AnyUser) -> QuerySet[Union]:
    """Unions ``user`` runs as an official (all unions for a superuser; none for anyone else)."""
    if not user.is_authenticated:
        return Union.objects.none()
    if user.is_superuser:
        return Union.objects.all()
    if not user.has_perm(PERM_COMPETITION_MANAGE):
        return Union.objects.none()
    return Union.objects.filter(officials=user)


def clubs_for_registrar(user: AnyUser) -> QuerySet[Club]:
    """Clubs whose players ``user`` may register: clubs they are secretary of, and their captained teams' clubs."""
    if not user.is_authenticated or not user.has_perm(PERM_PLAYER_REGISTER):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(Q(secretaries=user) | Q(teams__captain__user=user)).distinct()


def clubs_for_secretary(user: AnyUser) -> QuerySet[Club]:
    """Clubs ``user`` is secretary of (every club for a superuser): to enter and withdraw their teams."""
    return Club.objects.all() if user.is_superuser else Club.objects.filter(secretaries=user)


def teams_for_captain(user: AnyUser) -> QuerySet[Team]:
    """Teams ``user`` manages: teams they captain, and every team of a club they are secretary of."""
    if not user.is_authenticated or not user.has_perm(PERM_TEAM_MANAGE):
        return Team.objects.none()
    if user.is_superuser:
        return Team.objects.all()
    return Team.objects.filter(Q(captain__user=user) | Q(club__secretaries=user)).distinct()


def competitions_for_official(user: AnyUser) -> QuerySet[Competition]:
    """Competitions of the unions ``user`` runs."""
    return Competition.objects.filter(union__in=unions_for_official(user))


def matches_for_referee(user: AnyUser) -> QuerySet[Match]:
    """Matches ``user`` is assigned to as referee or marker (SAKBOC 1.11)."""
    if not user.is_authenticated or not user.has_perm(PERM_MATCH_VIEW):
        return Match.objects.none()
    return Match.objects.filter(Q(referee=user) | Q(marker=user))


# --- One access helper per resource ---------------------------------------------------------------------


def union_for_official(*, user: AnyUser, union_id: int) -> Union:
    """The union ``union_id`` if ``user`` is one of its officials.

    :raises Http404: no such union, or not the user's (the same answer).
    """
    _require(user, PERM_COMPETITION_MANAGE, "union")
    union = unions_for_official(user).filter(pk=union_id).first()
    if union is None:
        raise _not_found("union")
    return union


def competition_for_official(*, user: AnyUser, competition_id: int) -> Competition:
    """The competition if ``user`` is an official of its union.

    :raises Http404: no such competition, or another union's (the same answer).
    """
    _require(user, PERM_COMPETITION_MANAGE, "competition")
    competition = (
        competitions_for_official(user).select_related("union").filter(pk=competition_id).first()
    )
    if competition is None:
        raise _not_found("competition")
    return competition


def match_for_official(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` is an official of its competition's union (to schedule, assign, approve).

    :raises Http404: no such match, or another union's (the same answer).
    """
    _require(user, PERM_MATCH_MANAGE, "match")
    _require(user, PERM_COMPETITION_MANAGE, "match")
    match = (
        Match.objects.select_related("competition__union", "home", "away")
        .filter(pk=match_id, competition__union__in=unions_for_official(user))
        .first()
    )
    if match is None:
        raise _not_found("match")
    return match


def club_for_registrar(*, user: AnyUser, club_id: int) -> Club:
    """The club if ``user`` may register its players (its secretary, or captain of one of its teams).

    :raises Http404: no such club, or not the user's (the same answer).
    """
    _require(user, PERM_PLAYER_REGISTER, "club")
    club = clubs_for_registrar(user).select_related("union").filter(pk=club_id).first()
    if club is None:
        raise _not_found("club")
    return club


def club_for_secretary(*, user: AnyUser, club_id: int) -> Club:
    """The club if ``user`` is its secretary (to enter its teams in competitions).

    :raises Http404: no such club, or not the user's (the same answer).
    """
    _require(user, "clubs.add_team", "club")
    club = clubs_for_secretary(user).select_related("union").filter(pk=club_id).first()
    if club is None:
        raise _not_found("club")
    return club


def player_for_registrar(*, user: AnyUser, player_id: int) -> Player:
    """The registered player if ``user`` may manage players of the player's club.

    :raises Http404: no such player, or another club's (the same answer).
    """
    _require(user, PERM_PLAYER_REGISTER, "player")
    player = (
        Player.objects.select_related("club", "union")
        .filter(pk=player_id, club__in=clubs_for_registrar(user))
        .first()
    )
    if player is None:
        raise _not_found("player")
    return player


def team_for_captain(*, user: AnyUser, team_id: int) -> Team:
    """The team if ``user`` captains it or is secretary of its club.

    :raises Http404: no such team, or another team's (the same answer).
    """
    _require(user, PERM_TEAM_MANAGE, "team")
    team = (
        teams_for_captain(user)
        .select_related("club__union", "competition", "captain")
        .filter(pk=team_id)
        .first()
    )
    if team is None:
        raise _not_found("team")
    return team


def match_team_for_captain(*, user: AnyUser, match_id: int, team_id: int | None = None) -> tuple[Match, Team]:
    """The match and the user's own team in it, for team sheets, substitutions and result confirmation.

    ``team_id`` picks the side when the user manages both (a club secretary of a club derby); otherwise
    the one side the user manages is used.

    :raises Http404: no such match, the user manages neither side, or ``team_id`` is not one of the user's
        sides in it (all the same answer).
    """
    _require(user, PERM_TEAM_SHEET_SUBMIT, "match")
    match = Match.objects.select_related("competition__union", "home__club", "away__club").filter(pk=match_id).first()
    if match is None:
        raise _not_found("match")
    mine = set(teams_for_captain(user).filter(pk__in=[match.home_id, match.away_id]).values_list("pk", flat=True))
    if team_id is not None:
        if team_id not in mine:
            raise _not_found("match")
        chosen = team_id
    elif len(mine) == 1:
        chosen = mine.pop()
    elif mine:
        chosen = match.home_id  # both sides are the user's: default to home, the caller may pass team_id
    else:
        raise _not_found("match")
    return match, (match.home if chosen == match.home_id else match.away)


def match_for_referee(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` is its referee or marker (SAKBOC 1.11).

    :raises Http404: no such match, or not assigned to the user (the same answer).
    """
    _require(user, PERM_MATCH_VIEW, "match")
    match = matches_for_referee(user).select_related("competition__union", "home", "away").filter(pk=match_id).first()
    if match is None:
        raise _not_found("match")
    return match


def match_for_confirmer(*, user: AnyUser, match_id: int) -> Match:
    """The match if ``user`` may confirm its result: a captain (or club secretary) of either side, or its
    referee or marker. Whether the confirmation counts is the service's rule (``result_confirm``).

    :raises Http404: no such match, or not the user's (the same answer).
    """
    try:
        return match_team_for_captain(user=user, match_id=match_id)[0]
    except Http404:
        return match_for_referee(user=user, match_id=match_id)


def player_for_official(*, user: AnyUser, player_id: int) -> Player:
    """The registered player if ``user`` is an official of the player's union (to record a transfer).

    :raises Http404: no such player, or another union's (the same answer).
    """
    _require(user, PERM_TRANSFER_RECORD, "player")
    player = (Player.objects.select_related("club", "union")
              .filter(pk=player_id, union__in=unions_for_official(user)).first())
    if player is None:
        raise _not_found("player")
    return player


def season_for_official(*, user: AnyUser, season_id: int) -> Season:
    """The season if ``user`` is an official of its union (to start the next one from it).

    :raises Http404: no such season, or another union's (the same answer).
    """
    _require(user, PERM_SEASON_MANAGE, "season")
    season = (Season.objects.select_related("union")
              .filter(pk=season_id, union__in=unions_for_official(user)).first())
    if season is None:
        raise _not_found("season")
    return season


def union_for_season_official(*, user: AnyUser, union_id: int) -> Union:
    """The union if ``user`` is one of its officials and may close its seasons.

    :raises Http404: no such union, or not the user's (the same answer).
    """
    _require(user, PERM_SEASON_MANAGE, "union")
    return union_for_official(user=user, union_id=union_id)


def team_for_secretary(*, user: AnyUser, team_id: int) -> Team:
    """The team if ``user`` is secretary of its club (to confirm a team carried over into a new season).

    :raises Http404: no such team, or another club's (the same answer).
    """
    _require(user, "clubs.add_team", "team")
    team = (Team.objects.select_related("club", "competition")
            .filter(pk=team_id, club__in=clubs_for_secretary(user)).first())
    if team is None:
        raise _not_found("team")
    return team
