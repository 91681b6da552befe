"""Roles and object-level access to the registry: who may act on which union, club, team and player.

Two layers, both checked by every helper here:

1. **Role** — a Django group with model permissions (:data:`ROLE_PERMISSIONS`, kept in step by
   :func:`role_groups_sync` after every ``migrate``). It answers "may this kind of user do this kind of thing
   at all?" (``user.has_perm``, one cached query per request).
2. **Scope** — the link that ties the user to the object: a :class:`~clubs.models.UnionOfficial` row for
   the union, a :class:`~clubs.models.ClubSecretary` row for the club, ``Team.captain.user`` for the team.
   The scopes of competitions and matches (``Match.referee``/``Match.marker`` for a match) build on these in
   :mod:`matches.permissions`.

* **union official** (group "Union officials"; scope: their unions): competitions and fixtures, referees
  and markers, result approval, published standings.
* **club secretary** ("Club secretaries"; their clubs): players, teams, squads, captains, team sheets,
  substitutions, result confirmation — for every team of the club.
* **captain** ("Captains"; the teams they captain, and those teams' clubs for registering players): players,
  squad, team sheet, half-time substitutions, result confirmation.
* **referee / marker** ("Referees"; the matches they are assigned to): result confirmation; the match
  night itself is the referee console in ``referee/``.
* **the public**: no writes; the public pages and the read API.

The roles are the registry's (the groups are people's roles in the union), so :data:`ROLE_PERMISSIONS` names
the ``matches`` app's model permissions by their codenames: data, not an import.

Every view and API call goes through one helper per resource (Zulip's ``access_stream_by_id`` habit): it
returns the object or raises :class:`django.http.Http404` — the same answer for "not there" and "not
yours", so nobody can probe another union's or team's ids. A superuser acts as an official of every union.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db.models import Model, Q, QuerySet
from django.http import Http404

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    Board,
    Club,
    InterUnionTransfer,
    Player,
    Team,
    Union,
)

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


def not_found(what: str) -> Http404:
    """The 404 every access helper raises: the same for "not there" and "not yours"."""
    return Http404(f"No {what} matches the given query.")


def one_or_404(objects: QuerySet, what: str, **lookup: object):
    """The one object of ``objects`` matching ``lookup`` (the user's scope, filtered), else :func:`not_found`:
    "not there" and "not yours" answer alike (1 query)."""
    found = objects.filter(**lookup).first()
    if found is None:
        raise not_found(what)
    return found


def perm_require(user: AnyUser, perm: str, what: str) -> None:
    """Raise 404 unless ``user`` is signed in with ``perm``: a missing role looks like a missing object."""
    if not user.is_authenticated or not user.has_perm(perm):
        raise not_found(what)


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


def boards_for_official(user: AnyUser) -> QuerySet[Board]:
    """Boards ``user`` is an official of (an official of the Board's organiser, ``Board.organiser``; every Board
    for a superuser; none for anyone else): they act on the Board's championships and the national registry's
    cross-union steps, and read every member union's registry (Board level)."""
    if not user.is_authenticated:
        return Board.objects.none()
    if user.is_superuser:
        return Board.objects.all()
    if not user.has_perm(PERM_COMPETITION_MANAGE):
        return Board.objects.none()
    return Board.objects.filter(organiser__officials=user)


def board_for_official(*, user: AnyUser) -> Board:
    """The Board ``user`` is an official of.

    :raises Http404: not a Board official (the same answer as a missing page).
    """
    perm_require(user, PERM_COMPETITION_MANAGE, "board")
    board = boards_for_official(user).select_related("organiser").order_by("pk").first()
    if board is None:
        raise not_found("board")
    return board


def scope_by_links[M: Model](user: AnyUser, objects: QuerySet[M], links: Q, *, perm: str | None = None) -> QuerySet[M]:
    """The rows of ``objects`` that ``links`` ties ``user`` to, each once; all of them for a superuser; none for the
    public, nor, when ``perm`` is given, for a user without that permission (their role)."""
    if not user.is_authenticated or (perm is not None and not user.has_perm(perm)):
        return objects.none()
    if user.is_superuser:
        return objects.all()
    return objects.filter(links).distinct()


def clubs_for_registrar(user: AnyUser) -> QuerySet[Club]:
    """Clubs whose players ``user`` may register: clubs they are secretary of, and their captained teams' clubs."""
    return scope_by_links(user, Club.objects.all(), Q(secretaries=user) | Q(teams__captain__user=user),
                          perm=PERM_PLAYER_REGISTER)


def clubs_for_secretary(user: AnyUser) -> QuerySet[Club]:
    """Clubs ``user`` is secretary of (every club for a superuser): to enter and withdraw their teams."""
    if user.is_superuser:
        return Club.objects.all()
    # Callers are signed-in views: an AnonymousUser is refused by the lookup (TypeError), as it always was.
    return Club.objects.filter(secretaries=cast("User", user))


def _team_manager_links(user: AnyUser) -> Q:
    """What ties ``user`` to a team they manage: its captain's account, a secretary of its club, or, for a union's
    representative side in a Board championship (``Club.represents``), an official of that union."""
    return Q(captain__user=user) | Q(club__secretaries=user) | Q(club__represents__official_links__user=user)


def teams_for_captain(user: AnyUser) -> QuerySet[Team]:
    """Teams ``user`` manages: teams they captain, and every team of a club they are secretary of."""
    return scope_by_links(user, Team.objects.all(), _team_manager_links(user), perm=PERM_TEAM_MANAGE)


def team_managed_by(*, team: Team, user: AnyUser) -> bool:
    """Whether ``user`` manages ``team`` by the links :func:`teams_for_captain` scopes by (its captain, a secretary
    of its club; a superuser), whatever their groups: for a record made in another installation, where the
    accounts came without groups (``matches.nightfile``)."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or Team.objects.filter(_team_manager_links(user), pk=team.pk).exists()


# --- One access helper per resource ---------------------------------------------------------------------


def union_for_official(*, user: AnyUser, union_id: int) -> Union:
    """The union ``union_id`` if ``user`` is one of its officials.

    :raises Http404: no such union, or not the user's (the same answer).
    """
    perm_require(user, PERM_COMPETITION_MANAGE, "union")
    return one_or_404(unions_for_official(user), "union", pk=union_id)


def club_for_registrar(*, user: AnyUser, club_id: int) -> Club:
    """The club if ``user`` may register its players (its secretary, or captain of one of its teams).

    :raises Http404: no such club, or not the user's (the same answer).
    """
    perm_require(user, PERM_PLAYER_REGISTER, "club")
    return one_or_404(clubs_for_registrar(user).select_related("union"), "club", pk=club_id)


def club_for_secretary(*, user: AnyUser, club_id: int) -> Club:
    """The club if ``user`` is its secretary (to enter its teams in competitions).

    :raises Http404: no such club, or not the user's (the same answer).
    """
    perm_require(user, "clubs.add_team", "club")
    return one_or_404(clubs_for_secretary(user).select_related("union"), "club", pk=club_id)


def player_for_registrar(*, user: AnyUser, player_id: int) -> Player:
    """The registered player if ``user`` may manage players of the player's club.

    :raises Http404: no such player, or another club's (the same answer).
    """
    perm_require(user, PERM_PLAYER_REGISTER, "player")
    return one_or_404(Player.objects.select_related("club", "union"), "player",
                      pk=player_id, club__in=clubs_for_registrar(user))


def team_for_captain(*, user: AnyUser, team_id: int) -> Team:
    """The team if ``user`` captains it or is secretary of its club.

    :raises Http404: no such team, or another team's (the same answer).
    """
    perm_require(user, PERM_TEAM_MANAGE, "team")
    return one_or_404(teams_for_captain(user).select_related("club__union", "competition", "captain"), "team",
                      pk=team_id)


def player_for_official(*, user: AnyUser, player_id: int) -> Player:
    """The registered player if ``user`` is an official of the player's union (to record a transfer).

    :raises Http404: no such player, or another union's (the same answer).
    """
    perm_require(user, PERM_TRANSFER_RECORD, "player")
    return one_or_404(Player.objects.select_related("club", "union"), "player",
                      pk=player_id, union__in=unions_for_official(user))


def team_for_secretary(*, user: AnyUser, team_id: int, competition_id: int | None = None) -> Team:
    """The team if ``user`` is secretary of its club (to confirm a team carried over into a new season; with
    ``competition_id``, to withdraw it from that competition).

    :raises Http404: no such team (in that competition), or another club's: the same answer, body and all.
    """
    perm_require(user, "clubs.add_team", "team")
    lookup: dict[str, object] = {"pk": team_id, "club__in": clubs_for_secretary(user)}
    if competition_id is not None:
        lookup["competition_id"] = competition_id
    return one_or_404(Team.objects.select_related("club", "competition"), "team", **lookup)


# --- Inter-union transfers (Board level) ---------------------------------------------------------------------


def board_official(user: AnyUser) -> bool:
    """Whether ``user`` is an official of a Board (of its organiser union, ``Union.is_board``) or a superuser: they
    may read every union's inter-union transfers."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or unions_for_official(user).filter(is_board=True).exists()


def inter_union_request_for_official(*, user: AnyUser, request_id: int, side: str) -> InterUnionTransfer:
    """The inter-union transfer request if ``user`` is an official of its ``side``'s union: ``"from"``, the
    player's union (to clear or refuse it), or ``"to"``, the receiving club's union (to accept or decline it).

    :raises Http404: no such request, or not the user's union's on that side (the same answer).
    """
    perm_require(user, PERM_TRANSFER_RECORD, "request")
    key = {"from": "from_club__union__in", "to": "to_club__union__in"}[side]
    return one_or_404(InterUnionTransfer.objects.select_related("player", "from_club__union", "to_club__union"),
                      "request", pk=request_id, **{key: unions_for_official(user)})


def inter_union_requests_for(user: AnyUser) -> QuerySet[InterUnionTransfer]:
    """The inter-union transfer requests ``user`` may read: those their clubs asked for (secretary), those of their
    unions on either side (official); every one for a Board's official (:func:`board_official`) or a superuser."""
    requests = InterUnionTransfer.objects.all()
    if not user.is_authenticated:
        return requests.none()
    if board_official(user):
        return requests
    unions = unions_for_official(user)
    return requests.filter(Q(to_club__in=clubs_for_secretary(user)) | Q(from_club__union__in=unions)
                           | Q(to_club__union__in=unions)).distinct()
