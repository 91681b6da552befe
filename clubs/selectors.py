"""Selectors for unions, clubs, players and teams (reads)."""

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from clubs.models import FULL_TEAM_PLAYERS, Club, Player, Team, Union
from plumbing.page_cache import page_token


def union_list() -> QuerySet[Union]:
    """The member unions by name (not a Board's organiser record, ``Union.is_board``)."""
    return Union.objects.filter(is_board=False).order_by("name")


def club_list(*, union: Union) -> QuerySet[Club]:
    return Club.objects.filter(union=union).order_by("name")


def player_list(
    *, union: Union | None = None, club: Club | None = None, active: bool | None = None
) -> QuerySet[Player]:
    """Registered players, filtered; club selected (one query)."""
    players = Player.objects.select_related("club")
    if union is not None:
        players = players.filter(union=union)
    if club is not None:
        players = players.filter(club=club)
    if active is not None:
        players = players.filter(active=active)
    return players.order_by("last_name", "first_name", "registration_number")


@dataclass(frozen=True)
class NationalMatch:
    """A player of another union whom a new registration may be: ``kind`` says how it was found, ``"number"`` (the
    registration number is their national or registration number) or ``"person"`` (same first name, surname and
    date of birth)."""

    player: Player
    kind: Literal["number", "person"]


def national_registry_matches(
    *, union: Union, registration_number: str = "", first_name: str = "", last_name: str = "",
    date_of_birth: dt.date | None = None,
) -> list[NationalMatch]:
    """The players of *other* unions a registration in ``union`` may duplicate (the national registry, Board level;
    one person, one national number: SAKBOC 1.5 at Board level). One query, club and union selected; matches by
    number first.

    * ``"number"``: ``registration_number`` (trimmed, any case) is their national number or their union's
      registration number;
    * ``"person"``: same first name and surname (any case) and the same ``date_of_birth`` (only when it is given,
      and the other player's is known).
    """
    number = (registration_number or "").strip()
    wanted = Q()
    if number:
        wanted |= Q(national_number__iexact=number) | Q(registration_number__iexact=number)
    if date_of_birth is not None and (first_name or "").strip() and (last_name or "").strip():
        wanted |= Q(first_name__iexact=first_name.strip(), last_name__iexact=last_name.strip(),
                    date_of_birth=date_of_birth)
    if not wanted:
        return []
    found = (Player.objects.filter(wanted).exclude(union_id=union.pk).select_related("club", "union")
             .order_by("last_name", "first_name", "pk"))
    matches: list[NationalMatch] = []
    for player in found:
        by_number = bool(number) and number.lower() in (player.national_number.lower(),
                                                        player.registration_number.lower())
        matches.append(NationalMatch(player=player, kind="number" if by_number else "person"))
    return sorted(matches, key=lambda match: match.kind != "number")


def national_registry_find(*, query: str, outside: Union, limit: int = 20) -> list[Player]:
    """Players of member unions other than ``outside`` whose national registration number is ``query`` (any case),
    or whose name holds every word of it: a receiving club's search for a player to ask for (Board level). One
    query; club and union selected."""
    words = (query or "").split()
    if not words:
        return []
    by_name = Q()
    for word in words:
        by_name &= Q(first_name__icontains=word) | Q(last_name__icontains=word)
    wanted = Q(national_number__iexact=query.strip()) | by_name
    return list(Player.objects.filter(wanted, union__is_board=False).exclude(union_id=outside.pk)
                .select_related("club", "union").order_by("last_name", "first_name", "pk")[:limit])


def team_list(*, competition: Any) -> QuerySet[Team]:
    """A competition's teams with club and captain (one query)."""
    return Team.objects.filter(competition=competition).select_related("club", "captain").order_by("name")


def team_squad(*, team: Team) -> list[Player]:
    """The team's squad in the order players joined (one query)."""
    return [m.player for m in team.memberships.select_related("player").order_by("id")]


def team_squad_by_name(*, team: Team) -> list[Player]:
    """The team's squad by last name, as the captain's pages list it (one query)."""
    return [m.player for m in team.memberships.select_related("player").order_by("player__last_name", "id")]


def team_is_full(*, team: Team) -> bool:
    """A full team is 8 registered players (SAKBOC 1.5): at least 8 active players in the squad."""
    return team.memberships.filter(player__active=True).count() >= FULL_TEAM_PLAYERS


def unions_for_official(*, user: Any) -> QuerySet[Union]:
    return Union.objects.filter(officials=user)


def clubs_for_secretary(*, user: Any) -> QuerySet[Club]:
    return Club.objects.filter(secretaries=user).select_related("union")


def teams_for_captain(*, user: Any) -> QuerySet[Team]:
    return Team.objects.filter(captain__user=user).select_related("club", "competition")


def person_name(user: Any, default: str = "") -> str:
    """How a user is named on screen and in messages: their full name, else their username; ``default`` for no
    user (a deleted account, an unassigned role)."""
    if user is None:
        return default
    return user.get_full_name() or user.get_username()


def union_people(*, union: Any):
    """The accounts ``union`` knows: its officials and referees, its clubs' secretaries, and its registered
    players' logins (a queryset of users, each once). An official may put one of these on the union's list of
    referees by id; anyone else is invited (``office.invitations``), so no union reaches another's accounts."""
    return get_user_model().objects.filter(
        Q(union_official_links__union=union) | Q(union_referee_links__union=union)
        | Q(club_secretary_links__club__union=union) | Q(player__union=union)
    ).distinct()


# --- Names on public pages (POPIA, issue 35) ----------------------------------------------------------------

PUBLIC_NAMES_TOKEN = "clubs:public-names-token"
"""The page-cache token (``plumbing.page_cache.page_token``) that every kept public page naming players
carries: renewed when a union switches between full names and initials, or a player's name or answer changes."""


def public_names_token() -> str:
    """The current public-names token (see :data:`PUBLIC_NAMES_TOKEN`): a part of every kept public page and live
    answer that names players, so that switching a union to initials changes their ETags at once. 0 queries."""
    return page_token(PUBLIC_NAMES_TOKEN)


def initials_and_surname(first_name: str, last_name: str) -> str:
    """A name as public pages show it without consent: ``("Jan Pieter", "van der Merwe")`` →
    ``"J.P. van der Merwe"``; ``("Anna-Marie", "Smit")`` → ``"A.M. Smit"``; no first name → the surname."""
    parts = [part for part in (first_name or "").replace("-", " ").split() if part]
    initials = "".join(f"{part[0].upper()}." for part in parts)
    return f"{initials} {last_name or ''}".strip()


def player_public_name(player: Player | None, *, public_names: str | None = None, default: str = "") -> str:
    """How ``player`` is named on a page anyone can read, and in public API answers (POPIA s11, s18).

    * An erased player (``erased_at`` set, POPIA s24) is "Former player N" (``former_number``), in the active
      language.
    * When the union shows full names (``Union.PublicNames.FULL``) and the player agreed
      (``Player.full_name_public``, kept in step by ``privacy.services.consent_record``): the full name.
    * Otherwise the initials and surname: "J. Adams", "J.P. van der Merwe" for two first names.

    ``public_names`` is the union's ``Union.public_names``: pass it when naming many players of one union (one
    value per page, no query per row); without it the player's union is read (a query unless already loaded).
    ``default`` is returned for no player. Signed-in officials' own pages use ``Player.full_name`` instead.
    """
    if player is None:
        return default
    if player.erased_at is not None or player.former_number is not None:
        return _("Former player %(number)s") % {"number": player.former_number or ""}
    if public_names is None:
        public_names = player.union.public_names
    if public_names == Union.PublicNames.FULL and player.full_name_public:
        return player.full_name
    return initials_and_surname(player.first_name, player.last_name)
