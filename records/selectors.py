"""Reads of players', partnerships', teams' and clubs' records (public fields only).

Every figure comes from :class:`records.models.PartnershipLine` (the boem sheets of approved match nights,
see its docstring for what each figure counts; a partnership's reads group it) or its per-player view
:class:`records.models.RecordLine` (a player's reads) and from the matches' results; each reading is kept in the cache
under :func:`records.services.records_token`, renewed by every recompute, so a cached reading is never stale
and a hit costs 0 queries. The query counts below are those of a miss (tests/records pin them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, ExpressionWrapper, F, FloatField, Q, Sum
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import get_language

from clubs.models import Club, Player, Team
from clubs.selectors import player_public_name, public_names_token
from matches.models import Match, StandingsRow, name_with_season
from records.models import PartnershipLine, RecordLine
from records.services import records_token

CACHE_TIMEOUT = 24 * 3600
LEADERBOARD_SIZE = 10


def _cached[T](key: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per records token, public-names token and language (0 queries on a hit; labels in it are
    per language; the names follow the union's choice of full names or initials, POPIA)."""
    full_key = f"records:{key}:{records_token()}:{public_names_token()}:{get_language()}"
    found = cache.get(full_key)
    if found is None:
        found = compute()
        cache.set(full_key, found, CACHE_TIMEOUT)
    return found


@dataclass
class Figures:
    """A player's or a partnership's figures over some match nights.

    ``nights``: match nights played (appearances); ``tables``: tables sat at (a night with a half-time
    substitution at the table counts once); boems won and lost, strokes for and against, five-to-nils (boems
    won 5–0, SAKBOC 6.1); strafs claimed upheld and wrong (Notes §VII), and conceded: upheld against the
    partnership, and wrong strafs claimed against it.
    """

    nights: int = 0
    tables: int = 0
    boems_won: int = 0
    boems_lost: int = 0
    strokes_for: int = 0
    strokes_against: int = 0
    five_to_nils: int = 0
    strafs_claimed: int = 0
    wrong_strafs_claimed: int = 0
    strafs_conceded: int = 0
    wrong_strafs_against: int = 0

    @property
    def boems_per_night(self) -> float:
        return self.boems_won / self.nights if self.nights else 0.0


_SUMMED = ("boems_won", "boems_lost", "strokes_for", "strokes_against", "five_to_nils", "strafs_conceded",
           "wrong_strafs_against")


def _figures(lines: Iterable[dict[str, Any]], *, claims: Iterable[dict[str, Any]] | None = None) -> Figures:
    """Sum ``lines`` (dicts of RecordLine values) into figures; strafs claimed from ``claims`` (default: the
    same lines)."""
    lines = list(lines)
    figures = Figures(nights=len({line["match_id"] for line in lines}),
                      tables=len({(line["match_id"], line["table_number"]) for line in lines}))
    for line in lines:
        for name in _SUMMED:
            setattr(figures, name, getattr(figures, name) + line[name])
    for line in lines if claims is None else claims:
        figures.strafs_claimed += line["strafs_claimed"]
        figures.wrong_strafs_claimed += line["wrong_strafs_claimed"]
    return figures


_LINE_VALUES = ("match_id", "table_number", "half", "role", "competition_id", "team_id", "opponent_id",
                "player_id", "partner_id", "telman_id", "byspeler_id", *_SUMMED, "strafs_claimed",
                "wrong_strafs_claimed")


NAME_FIELDS = ("first_name", "last_name", "full_name_public", "erased_at", "former_number", "union__public_names")
"""The values a public name is made of (:func:`public_name`), read with a prefix such as ``partner__``."""


def named_values(prefix: str) -> tuple[str, ...]:
    """:data:`NAME_FIELDS` under ``prefix`` (``"partner"`` → ``"partner__first_name"``, ...), for ``.values()``."""
    return tuple(f"{prefix}__{name}" for name in NAME_FIELDS)


def public_name(row: dict[str, Any], prefix: str = "") -> str:
    """The player whose :data:`NAME_FIELDS` ``row`` holds (under ``prefix``), as public pages name them:
    ``clubs.selectors.player_public_name`` (full name only with the union's and the player's consent, else
    initials and surname; "Former player N" once erased; POPIA s11, s24). The records pages are all public."""
    key = (lambda name: f"{prefix}__{name}") if prefix else (lambda name: name)
    player = Player(first_name=row[key("first_name")] or "", last_name=row[key("last_name")] or "",
                    full_name_public=bool(row[key("full_name_public")]), erased_at=row[key("erased_at")],
                    former_number=row[key("former_number")])
    return player_public_name(player, public_names=row[key("union__public_names")])


@dataclass
class Season:
    """One competition's part of a record: the competition, the team, the figures."""

    competition_id: int
    competition: str
    team_id: int
    team: str
    figures: Figures


@dataclass
class Night:
    """One match night of a player or a partnership: date, match, opponent, tables, boems won and lost."""

    match_id: int
    played_on: Any
    competition: str
    team: str
    opponent_id: int
    opponent: str
    tables: str
    partners: str
    boems_won: int
    boems_lost: int


@dataclass
class PlayerRecord:
    """:func:`player_record`'s answer. ``partners``: with whom the player sat, each a dict with ``partner_id``,
    ``partner``, ``role`` (the player's), ``telman_id``/``byspeler_id`` (the partnership page), ``nights``,
    ``tables``, ``boems_won``, ``boems_lost``; most nights first."""

    player_id: int
    name: str
    registration_number: str
    club_id: int
    club: str
    union: str
    active: bool
    seasons: list[Season]
    total: Figures
    partners: list[dict[str, Any]]
    nights: list[Night]


def _lines_with_names(lines: Any) -> list[dict[str, Any]]:
    return list(lines.values(
        *_LINE_VALUES, "competition__name", "competition__season", "team__name", "opponent__name",
        *named_values("partner"), "match__scheduled_start",
    ).order_by("match__scheduled_start", "match_id", "table_number", "half", "role"))


def _seasons(lines: list[dict[str, Any]], claims: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None
             ) -> list[Season]:
    by_competition: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        by_competition.setdefault(line["competition_id"], []).append(line)
    seasons = []
    for competition_id, own in by_competition.items():
        first = own[0]
        counted = [line for line in own if claims is None or line["role"] == RecordLine.Role.TELMAN]
        seasons.append(Season(
            competition_id=competition_id,
            competition=name_with_season(first["competition__name"], first["competition__season"]),
            team_id=first["team_id"], team=first["team__name"],
            figures=_figures(counted, claims=own if claims is not None else None),
        ))
    return sorted(seasons, key=lambda s: (s.competition,), reverse=True)


def _nights(lines: list[dict[str, Any]], partner_names: Callable[[dict[str, Any]], str]) -> list[Night]:
    nights: dict[int, Night] = {}
    for line in lines:
        night = nights.get(line["match_id"])
        if night is None:
            night = nights[line["match_id"]] = Night(
                match_id=line["match_id"], played_on=timezone.localdate(line["match__scheduled_start"]),
                competition=name_with_season(line["competition__name"], line["competition__season"]),
                team=line["team__name"],
                opponent_id=line["opponent_id"], opponent=line["opponent__name"], tables="", partners="",
                boems_won=0, boems_lost=0,
            )
        table = str(line["table_number"])
        if table not in night.tables.split(", "):
            night.tables = f"{night.tables}, {table}" if night.tables else table
        names = partner_names(line)
        if names not in night.partners.split("; "):
            night.partners = f"{night.partners}; {names}" if night.partners else names
        night.boems_won += line["boems_won"]
        night.boems_lost += line["boems_lost"]
    return list(nights.values())


def player_record(*, player_id: int) -> PlayerRecord | None:
    """A player's record, per season (competition) and in all; ``None`` for no such player. 2 queries."""

    def compute() -> PlayerRecord | None:
        player = Player.objects.select_related("club", "union").filter(pk=player_id).first()
        if player is None:
            return None
        lines = _lines_with_names(RecordLine.objects.filter(player_id=player_id))
        partners: dict[tuple[int, str], dict[str, Any]] = {}
        for line in lines:
            key = (line["partner_id"], line["role"])
            entry = partners.setdefault(key, {
                "partner_id": line["partner_id"],
                "partner": public_name(line, "partner"),
                "role": line["role"], "telman_id": line["telman_id"], "byspeler_id": line["byspeler_id"],
                "matches": set(), "tables": set(), "boems_won": 0, "boems_lost": 0,
            })
            entry["matches"].add(line["match_id"])
            entry["tables"].add((line["match_id"], line["table_number"]))
            entry["boems_won"] += line["boems_won"]
            entry["boems_lost"] += line["boems_lost"]
        partner_list = []
        for entry in partners.values():
            entry["nights"] = len(entry.pop("matches"))
            entry["tables"] = len(entry["tables"])
            partner_list.append(entry)
        partner_list.sort(key=lambda e: (-e["nights"], -e["boems_won"], e["partner"]))
        return PlayerRecord(
            player_id=player.pk, name=player_public_name(player, public_names=player.union.public_names),
            registration_number=player.registration_number,
            club_id=player.club_id, club=player.club.name, union=player.union.name, active=player.active,
            seasons=_seasons(lines), total=_figures(lines), partners=partner_list,
            nights=_nights(lines, lambda line: public_name(line, "partner")),
        )

    return _cached(f"player:{player_id}", compute)


@dataclass
class PartnershipRecord:
    """:func:`partnership_record`'s answer: the pair, their seasons and figures in all, and their nights."""

    telman_id: int
    telman: str
    byspeler_id: int
    byspeler: str
    seasons: list[Season]
    total: Figures
    nights: list[Night]


def partnership_record(*, telman_id: int, byspeler_id: int) -> PartnershipRecord | None:
    """A partnership's record (the telman and the byspeler sat together at a table), per season and in all;
    ``None`` for a player that does not exist. Strafs claimed are both players'; the other figures count the
    table once. 2 queries."""

    def compute() -> PartnershipRecord | None:
        players = {p.pk: p for p in Player.objects.filter(pk__in=[telman_id, byspeler_id]).select_related("union")}
        if telman_id not in players or byspeler_id not in players or telman_id == byspeler_id:
            return None
        lines = _lines_with_names(RecordLine.objects.filter(telman_id=telman_id, byspeler_id=byspeler_id))
        telman_lines = [line for line in lines if line["role"] == RecordLine.Role.TELMAN]
        return PartnershipRecord(
            telman_id=telman_id, telman=player_public_name(players[telman_id]), byspeler_id=byspeler_id,
            byspeler=player_public_name(players[byspeler_id]),
            seasons=_seasons(lines, claims=lambda own: own), total=_figures(telman_lines, claims=lines),
            nights=_nights(telman_lines, lambda line: ""),
        )

    return _cached(f"partnership:{telman_id}:{byspeler_id}", compute)


@dataclass
class PartnershipRow:
    """One partnership on a competition's leaderboards."""

    telman_id: int
    telman: str
    byspeler_id: int
    byspeler: str
    team_id: int
    team: str
    nights: int
    boems_won: int
    boems_lost: int
    five_to_nils: int
    strafs_conceded: int
    strafs_claimed: int

    @property
    def boems_per_night(self) -> float:
        return self.boems_won / self.nights if self.nights else 0.0

    @property
    def conceded_per_night(self) -> float:
        return self.strafs_conceded / self.nights if self.nights else 0.0


def partnership_rows(lines: Any, *, names: bool = False) -> Any:
    """The partnerships in ``lines`` (a PartnershipLine queryset, filtered): one row each, as values with
    ``nights``, ``boems_won``, ``boems_lost``, ``strokes_for``, ``strokes_against``, ``five_to_nils``,
    ``strafs_conceded``, ``wrong_strafs_against`` (the table's, counted once) and ``strafs_claimed``,
    ``wrong_strafs_claimed`` (both players'), and ``boems_per_night``; with ``names``, the players' and the
    team's names too. One grouped query; the API filters and orders it."""
    named = (*named_values("telman"), *named_values("byspeler"), "team__name") if names else ()
    return (
        lines.values("competition_id", "team_id", "telman_id", "byspeler_id", *named)
        .annotate(
            nights=Count("match_id", distinct=True),
            **{name: Sum(name) for name in _SUMMED},
            strafs_claimed=Sum(F("telman_strafs_claimed") + F("byspeler_strafs_claimed")),
            wrong_strafs_claimed=Sum(F("telman_wrong_strafs_claimed") + F("byspeler_wrong_strafs_claimed")),
        )
        .annotate(boems_per_night=ExpressionWrapper(Cast("boems_won", FloatField()) / F("nights"),
                                                    output_field=FloatField()))
        .order_by("competition_id", "team_id", "telman_id", "byspeler_id")
    )


def player_rows(lines: Any, *, names: bool = False) -> Any:
    """The players in ``lines`` (a RecordLine queryset, filtered): one row per player and competition, as
    values with ``nights``, the summed figures, the strafs they claimed and ``boems_per_night``; with
    ``names``, the player's and the team's names too. One grouped query; the API filters and orders it."""
    named = (*named_values("player"), "team__name") if names else ()
    return (
        lines.values("player_id", "competition_id", "team_id", *named)
        .annotate(nights=Count("match_id", distinct=True),
                  **{name: Sum(name) for name in (*_SUMMED, "strafs_claimed", "wrong_strafs_claimed")})
        .annotate(boems_per_night=ExpressionWrapper(Cast("boems_won", FloatField()) / F("nights"),
                                                    output_field=FloatField()))
        .order_by("competition_id", "player_id")
    )


@dataclass
class Leaderboards:
    """A competition's leaderboards: ``min_nights`` applied, ``default_min_nights`` the page's default,
    ``most_nights`` the most any partnership played; each board at most :data:`LEADERBOARD_SIZE` rows."""

    competition_id: int
    min_nights: int
    default_min_nights: int
    most_nights: int
    best: list[PartnershipRow] = field(default_factory=list)
    five_to_nils: list[PartnershipRow] = field(default_factory=list)
    fewest_strafs: list[PartnershipRow] = field(default_factory=list)


def default_min_nights(most_nights: int) -> int:
    """A third of the most match nights any partnership played (rounded up), at least 1: enough that one
    lucky night does not top a table, low enough that a partnership split by a substitution still counts."""
    return max(1, math.ceil(most_nights / 3))


def competition_leaderboards(*, competition_id: int, min_nights: int | None = None) -> Leaderboards:
    """Best partnerships by boems won per night, most five-to-nils, fewest strafs conceded (per night), among
    the partnerships with at least ``min_nights`` nights together (default :func:`default_min_nights`).
    2 queries (the grouped rows, the names)."""

    def compute() -> list[PartnershipRow]:
        rows = list(partnership_rows(PartnershipLine.objects.filter(competition_id=competition_id)))
        ids = {r["telman_id"] for r in rows} | {r["byspeler_id"] for r in rows}
        names = {row["id"]: public_name(row) for row in Player.objects.filter(pk__in=ids).values("id", *NAME_FIELDS)}
        teams = dict(Team.objects.filter(competition_id=competition_id).values_list("id", "name"))
        return [PartnershipRow(
            telman_id=r["telman_id"], telman=names[r["telman_id"]], byspeler_id=r["byspeler_id"],
            byspeler=names[r["byspeler_id"]], team_id=r["team_id"], team=teams.get(r["team_id"], ""),
            nights=r["nights"], boems_won=r["boems_won"] or 0, boems_lost=r["boems_lost"] or 0,
            five_to_nils=r["five_to_nils"] or 0, strafs_conceded=r["strafs_conceded"] or 0,
            strafs_claimed=r["strafs_claimed"] or 0,
        ) for r in rows]

    rows = _cached(f"partnerships:{competition_id}", compute)
    most = max((r.nights for r in rows), default=0)
    default = default_min_nights(most)
    wanted = default if min_nights is None else max(1, min_nights)
    eligible = [r for r in rows if r.nights >= wanted]
    by_name = lambda r: (r.telman, r.byspeler)  # noqa: E731
    return Leaderboards(
        competition_id=competition_id, min_nights=wanted, default_min_nights=default, most_nights=most,
        best=sorted(eligible, key=lambda r: (-r.boems_per_night, -r.nights, by_name(r)))[:LEADERBOARD_SIZE],
        five_to_nils=sorted([r for r in eligible if r.five_to_nils],
                            key=lambda r: (-r.five_to_nils, r.nights, by_name(r)))[:LEADERBOARD_SIZE],
        fewest_strafs=sorted(eligible, key=lambda r: (r.conceded_per_night, -r.nights, by_name(r)))[:LEADERBOARD_SIZE],
    )


@dataclass
class ResultLine:
    """A team's match as the team sees it: ``outcome`` W, D or L (empty until approved)."""

    match_id: int
    played_on: Any
    round_number: int
    home: bool
    opponent_id: int
    opponent: str
    score_for: int
    score_against: int
    status: str
    status_label: str
    outcome: str


@dataclass
class TeamRecord:
    """:func:`team_record`'s answer: the team, its squad, its results (newest first), its form (the last five
    approved results, oldest first), its boem figures and the competition's other teams (for head-to-head)."""

    team_id: int
    name: str
    club_id: int
    club: str
    competition_id: int
    competition: str
    captain_id: int | None
    squad: list[dict[str, Any]]
    results: list[ResultLine]
    form: list[str]
    figures: Figures
    position: int | None
    others: list[tuple[int, str]]


def _result_lines(team_id: int, matches: Iterable[Match], names: dict[int, str]) -> list[ResultLine]:
    lines = []
    for m in matches:
        home = m.home_id == team_id
        mine, theirs = (m.home_score, m.away_score) if home else (m.away_score, m.home_score)
        approved = m.result_status == Match.ResultStatus.APPROVED
        outcome = ("W" if mine > theirs else "L" if mine < theirs else "D") if approved else ""
        opponent_id = m.away_id if home else m.home_id
        lines.append(ResultLine(
            match_id=m.pk, played_on=m.scheduled_start, round_number=m.round_number, home=home,
            opponent_id=opponent_id, opponent=names.get(opponent_id, ""), score_for=mine, score_against=theirs,
            status=m.result_status, status_label=m.status_label, outcome=outcome,
        ))
    return lines


def _team_figures(lines: Any) -> Figures:
    """Sum ``lines`` (a PartnershipLine queryset, filtered) into figures, strafs claimed by both players. 1 query."""
    rows = list(lines.values("match_id", "table_number", *_SUMMED).annotate(
        strafs_claimed=F("telman_strafs_claimed") + F("byspeler_strafs_claimed"),
        wrong_strafs_claimed=F("telman_wrong_strafs_claimed") + F("byspeler_wrong_strafs_claimed"),
    ).order_by())
    return _figures(rows)


def team_record(*, team_id: int) -> TeamRecord | None:
    """A team's page: squad, results, form, figures; ``None`` for no such team. 6 queries."""

    def compute() -> TeamRecord | None:
        team = Team.objects.select_related("club", "competition").filter(pk=team_id).first()
        if team is None:
            return None
        others = list(Team.objects.filter(competition_id=team.competition_id).exclude(pk=team_id)
                      .order_by("name").values_list("id", "name"))
        names = dict(others)
        squad = [{"player_id": row["player_id"], "name": public_name(row, "player"),
                  "registration_number": row["player__registration_number"]}
                 for row in team.memberships.order_by("player__last_name", "player__first_name")
                 .values("player_id", *named_values("player"), "player__registration_number")]
        matches = Match.objects.filter(Q(home_id=team_id) | Q(away_id=team_id)).exclude(
            result_status=Match.ResultStatus.NONE).order_by("-scheduled_start", "-id")
        results = _result_lines(team_id, matches, names)
        form = [r.outcome for r in results if r.outcome][:5][::-1]
        position = StandingsRow.objects.filter(team_id=team_id).values_list("position", flat=True).first()
        return TeamRecord(
            team_id=team.pk, name=team.name, club_id=team.club_id, club=team.club.name,
            competition_id=team.competition_id, competition=str(team.competition), captain_id=team.captain_id,
            squad=squad, results=results, form=form, position=position, others=others,
            figures=_team_figures(PartnershipLine.objects.filter(competition_id=team.competition_id, team_id=team_id)),
        )

    return _cached(f"team:{team_id}", compute)


@dataclass
class HeadToHead:
    """Two teams' meetings: their matches (newest first), the approved ones' tally from ``team``'s side, match
    points for and against, and the boem figures at the tables between them."""

    team_id: int
    team: str
    opponent_id: int
    opponent: str
    matches: list[ResultLine]
    won: int
    drawn: int
    lost: int
    points_for: int
    points_against: int
    figures: Figures


def head_to_head(*, team_id: int, opponent_id: int) -> HeadToHead | None:
    """``team`` against ``opponent``; ``None`` when either is missing, or they are one team. 3 queries."""

    def compute() -> HeadToHead | None:
        found = {pk: (name, competition_id) for pk, name, competition_id in
                 Team.objects.filter(pk__in=[team_id, opponent_id]).values_list("id", "name", "competition_id")}
        if team_id not in found or opponent_id not in found or team_id == opponent_id:
            return None
        teams = {pk: name for pk, (name, _) in found.items()}
        matches = Match.objects.filter(
            Q(home_id=team_id, away_id=opponent_id) | Q(home_id=opponent_id, away_id=team_id)
        ).exclude(result_status=Match.ResultStatus.NONE).order_by("-scheduled_start", "-id")
        lines = _result_lines(team_id, matches, teams)
        approved = [r for r in lines if r.outcome]
        return HeadToHead(
            team_id=team_id, team=teams[team_id], opponent_id=opponent_id, opponent=teams[opponent_id],
            matches=lines, won=sum(r.outcome == "W" for r in approved), drawn=sum(r.outcome == "D" for r in approved),
            lost=sum(r.outcome == "L" for r in approved), points_for=sum(r.score_for for r in approved),
            points_against=sum(r.score_against for r in approved),
            figures=_team_figures(PartnershipLine.objects.filter(
                competition_id=found[team_id][1], team_id=team_id, opponent_id=opponent_id)),
        )

    return _cached(f"h2h:{team_id}:{opponent_id}", compute)


@dataclass
class ClubRecord:
    """:func:`club_record`'s answer: the club, its teams (newest season first, with the live position) and its
    registered players (public fields) with the match nights each has played."""

    club_id: int
    name: str
    union: str
    teams: list[dict[str, Any]]
    players: list[dict[str, Any]]
    union_short_name: str = ""
    union_is_board: bool = False


def club_record(*, club_id: int) -> ClubRecord | None:
    """A club's page; ``None`` for no such club. 5 queries."""

    def compute() -> ClubRecord | None:
        club = Club.objects.select_related("union").filter(pk=club_id).first()
        if club is None:
            return None
        teams: list[dict[str, Any]] = [
            dict(row) for row in Team.objects.filter(club_id=club_id)
            .order_by("-competition__season", "competition__name", "name")
            .values("id", "name", "competition_id", "competition__name", "competition__season")]
        positions = dict(StandingsRow.objects.filter(team__club_id=club_id).values_list("team_id", "position"))
        for team in teams:
            team["position"] = positions.get(team["id"])
            team["competition"] = name_with_season(team["competition__name"], team["competition__season"])
        nights = dict(RecordLine.objects.filter(player__club_id=club_id).values("player_id")
                      .annotate(nights=Count("match_id", distinct=True)).order_by().values_list("player_id", "nights"))
        players = [{"player_id": row["id"], "name": public_name(row), "registration_number": row["registration_number"],
                    "active": row["active"], "nights": nights.get(row["id"], 0)}
                   for row in Player.objects.filter(club_id=club_id).order_by("last_name", "first_name")
                   .values("id", *NAME_FIELDS, "registration_number", "active")]
        return ClubRecord(club_id=club.pk, name=club.name, union=club.union.name, teams=teams, players=players,
                          union_short_name=club.union.short_name, union_is_board=club.union.is_board)

    return _cached(f"club:{club_id}", compute)


NATIONAL_LEADERBOARD_SIZE = 5


@dataclass
class NationalPlayerRow:
    """A player on the national leaderboard: public name, club, union (its short name), approved match nights,
    boems won and five-to-nils, in every competition of every union and of the Board."""

    player_id: int
    name: str
    club: str
    union: str
    union_short_name: str
    nights: int
    boems_won: int
    five_to_nils: int


@dataclass
class NationalPartnershipRow:
    """A partnership on the national leaderboard (whatever team or competition it sat for)."""

    telman_id: int
    telman: str
    byspeler_id: int
    byspeler: str
    union: str
    union_short_name: str
    nights: int
    boems_won: int

    @property
    def boems_per_night(self) -> float:
        return self.boems_won / self.nights if self.nights else 0.0


@dataclass
class NationalLeaderboards:
    """The home page's national leaderboards across every union: the players with the most boems won, and the
    best partnerships by boems won per night among those with at least ``min_nights`` nights together
    (:func:`default_min_nights` of the most any partnership played)."""

    players: list[NationalPlayerRow] = field(default_factory=list)
    partnerships: list[NationalPartnershipRow] = field(default_factory=list)
    min_nights: int = 1


def national_leaderboards(*, size: int = NATIONAL_LEADERBOARD_SIZE) -> NationalLeaderboards:
    """:class:`NationalLeaderboards` of at most ``size`` rows each, from every approved match night of the
    installation; names as every records page shows them (:func:`public_name`: initials unless the union and the
    player agreed, POPIA s11). Cached under the records token (0 queries on a hit); 4 queries on a miss (the
    players' top, the partnerships' most nights and top, the names)."""

    def compute() -> NationalLeaderboards:
        boems = Sum("boems_won")
        players = list(RecordLine.objects.values("player_id")
                       .annotate(nights=Count("match_id", distinct=True), boems_won=boems,
                                 five_to_nils=Sum("five_to_nils"))
                       .filter(boems_won__gt=0).order_by("-boems_won", "nights", "player_id")[:size])
        pairs = (PartnershipLine.objects.values("telman_id", "byspeler_id")
                 .annotate(nights=Count("match_id", distinct=True), boems_won=boems))
        most = pairs.order_by("-nights").values_list("nights", flat=True).first() or 0
        wanted = default_min_nights(most)
        per_night = ExpressionWrapper(Cast("boems_won", FloatField()) / F("nights"), output_field=FloatField())
        best = list(pairs.filter(nights__gte=wanted, boems_won__gt=0).annotate(per_night=per_night)
                    .order_by("-per_night", "-nights", "telman_id", "byspeler_id")[:size])
        ids = {r["player_id"] for r in players} | {r["telman_id"] for r in best} | {r["byspeler_id"] for r in best}
        people = {row["id"]: row for row in Player.objects.filter(pk__in=ids)
                  .values("id", *NAME_FIELDS, "club__name", "union__name", "union__short_name")}
        names = {pk: public_name(row) for pk, row in people.items()}
        top = [NationalPlayerRow(player_id=r["player_id"], name=names[r["player_id"]],
                                 club=people[r["player_id"]]["club__name"], union=people[r["player_id"]]["union__name"],
                                 union_short_name=people[r["player_id"]]["union__short_name"], nights=r["nights"],
                                 boems_won=r["boems_won"] or 0, five_to_nils=r["five_to_nils"] or 0)
               for r in players]
        partnerships = [NationalPartnershipRow(telman_id=r["telman_id"], telman=names[r["telman_id"]],
                                               byspeler_id=r["byspeler_id"], byspeler=names[r["byspeler_id"]],
                                               union=people[r["telman_id"]]["union__name"],
                                               union_short_name=people[r["telman_id"]]["union__short_name"],
                                               nights=r["nights"], boems_won=r["boems_won"] or 0)
                        for r in best]
        return NationalLeaderboards(players=top, partnerships=partnerships, min_nights=wanted)

    return _cached(f"national:{size}", compute)
