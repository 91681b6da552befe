"""Reads of the national and union pages (issue 39): the member unions, a union's home (its current competitions,
its closed seasons, its clubs) and the Board's championships with the champion of each finished one.

The installation has one Board (SAKBOC, ``clubs.models.Board``) above its member unions; the Board's own
competitions belong to its organiser, a ``Union`` row marked ``is_board``, which is never shown as a member union
(``clubs.selectors.union_list``). Pages read through here are kept whole under
:func:`matches.page_versions.national_pages_token`; :func:`board_championships` adds each championship's own
tokens, as its champion follows its matches and standings.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db.models import Case, QuerySet, Value, When
from django.http import Http404, HttpResponse
from django.shortcuts import redirect

from clubs.models import Board, Club, Union
from clubs.selectors import union_list
from matches.models import Competition, Match, Season, SeasonHonour
from matches.page_versions import competition_pages_token, national_pages_token
from matches.results.standings import standings_page_token, standings_read
from matches.seasons import services as seasons
from plumbing.page_cache import kept

_LEAGUES_FIRST = Case(When(kind=Competition.Kind.LEAGUE, then=Value(0)), default=Value(1))


def union_by_short_name(short_name: str) -> Union:
    """The union (a member union or the Board's organiser) whose short name is ``short_name``, in any case
    (``/unions/spku/`` is SPKU's). Kept under the national pages token: 0 queries once kept, else one.

    :raises Http404: no union has that short name.
    """
    wanted = short_name.strip().lower()
    key = hashlib.blake2b(wanted.encode(), digest_size=12).hexdigest()
    union = kept(f"national:union:{key}:{national_pages_token()}",
                 lambda: Union.objects.filter(short_name__iexact=wanted).first() or False)
    if not isinstance(union, Union):
        raise Http404("No union has that short name.")
    return union


def the_board() -> Board | None:
    """The installation's Board with its organiser (one per installation, ``clubs`` migration 0018), ``None``
    before its migration. Kept under the national pages token: 0 queries once kept, else one."""
    board = kept(f"national:board:{national_pages_token()}",
                 lambda: Board.objects.select_related("organiser").order_by("pk").first() or False)
    return board if isinstance(board, Board) else None


def member_unions() -> list[Union]:
    """The member unions by name, never a Board's organiser (``Union.is_board``), kept under the national pages
    token: 0 queries once kept, else one."""
    return kept(f"national:member-unions:{national_pages_token()}", lambda: list(union_list()))


def list_scope(short_name: str | None, url_name: str) -> tuple[Union | None, HttpResponse | None]:
    """For a public list at a national address and at ``/unions/<short name>/…`` (the competitions, the seasons'
    archive): ``(union, None)`` for a member union's list (``short_name`` given); ``(None, None)`` for the national
    list of several unions; else ``(None, redirect)``: the Board's organiser goes to ``/board/``, and with one member
    union the national address goes to that union's own list (``url_name``, taking ``short_name``).

    :raises Http404: no union has that short name.
    """
    if short_name is not None:
        union = union_by_short_name(short_name)
        return (None, redirect("matches:board-home")) if union.is_board else (union, None)
    unions = member_unions()
    if len(unions) == 1:
        return None, redirect(url_name, short_name=unions[0].short_name.lower())
    return None, None


@dataclass(frozen=True)
class UnionHome:
    """A union's home page: its competitions of seasons not yet closed (leagues first), its closed seasons (newest
    first, with their honours) and its active clubs."""

    union: Union
    current: list[Competition]
    seasons: list[Season]
    clubs: list[Club]


def closed_seasons(*, union: Union | None = None) -> QuerySet[Season]:
    """:func:`matches.seasons.services.closed_seasons`, of ``union`` only when given."""
    found = seasons.closed_seasons()
    return found.filter(union=union) if union is not None else found


def union_home(*, union: Union) -> UnionHome:
    """What ``/unions/<short>/`` shows (:class:`UnionHome`). Four queries."""
    closed = list(closed_seasons(union=union))
    closed_names = {season.name for season in closed}
    current = [c for c in Competition.objects.filter(union=union).select_related("union")
               .order_by("-season", _LEAGUES_FIRST, "name") if c.season not in closed_names]
    clubs = list(Club.objects.filter(union=union, active=True).order_by("name"))
    return UnionHome(union=union, current=current, seasons=closed, clubs=clubs)


@dataclass(frozen=True)
class Championship:
    """A Board championship: its competition, whether it is finished (every fixture approved, a cup's final with a
    winner) and its champions' team names (a league's first place, ties shared; a cup's final winner; a closed
    season's honours when recorded)."""

    competition: Competition
    finished: bool = False
    champions: list[str] = field(default_factory=list)


def _champions(competition: Competition, matches: list[Match], honours: list[str]) -> tuple[bool, list[str]]:
    """``(finished, champions)`` of one championship (see :class:`Championship`)."""
    if honours:
        return True, honours
    if not matches or any(m.result_status != Match.ResultStatus.APPROVED for m in matches):
        return False, []
    if competition.is_knockout:
        final = seasons.cup_final(competition, matches)
        if final is None or final.winner is None:
            return False, []
        return True, [final.winner.name]
    leaders = sorted(line.team_name for line in standings_read(competition_id=competition.pk) if line.position == 1)
    return bool(leaders), leaders


def board_championships_compute() -> list[Championship]:
    """:func:`board_championships` without the cache: the Board's competitions, newest season first, each with
    its champions. Three queries, and the standings of each finished league and the teams of each finished cup."""
    competitions = list(Competition.objects.filter(union__is_board=True).select_related("union")
                        .order_by("-season", _LEAGUES_FIRST, "name"))
    matches: dict[int, list[Match]] = {c.pk: [] for c in competitions}
    for match in (Match.objects.filter(competition__in=competitions).select_related("home", "away", "winner")
                  .order_by("round_number", "scheduled_start", "id")):
        matches[match.competition_id].append(match)
    honours: dict[int, list[str]] = {}
    for competition_id, team_name in (SeasonHonour.objects.filter(competition__in=competitions)
                                      .order_by("team_name").values_list("competition_id", "team_name")):
        honours.setdefault(competition_id, []).append(team_name)
    championships = []
    for competition in competitions:
        finished, champions = _champions(competition, matches[competition.pk], honours.get(competition.pk, []))
        championships.append(Championship(competition=competition, finished=finished, champions=champions))
    return championships


def board_championships() -> list[Championship]:
    """The Board's championships (current and past) with their champions (:class:`Championship`), kept under the
    national pages token and each championship's pages and standings tokens: 0 queries once kept (one while
    only the list of championships is new)."""
    national = national_pages_token()
    ids = kept(f"board:competition-ids:{national}",
               lambda: list(Competition.objects.filter(union__is_board=True).values_list("pk", flat=True)))
    parts = [national, *(f"{competition_pages_token(competition_id=pk)}{standings_page_token(competition_id=pk)}"
                         for pk in ids)]
    state = hashlib.blake2b("|".join(parts).encode(), digest_size=12).hexdigest()
    return kept(f"board:championships:{state}", board_championships_compute)


@dataclass(frozen=True)
class NationalPart:
    """The home page's Board part: the Board (``None`` only before its migration), the member unions and the
    Board's championships."""

    board: Board | None
    unions: list[Union]
    championships: list[Championship]


def national_part() -> NationalPart:
    """:class:`NationalPart`, kept under the national pages token (0 queries once kept, the championships as
    :func:`board_championships` says)."""
    return NationalPart(board=the_board(), unions=member_unions(), championships=board_championships())
