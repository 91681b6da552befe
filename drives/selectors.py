"""Reads of a club's drive: a night's result (each player's bomen and total), the season ranking, a table's
deals. Each reads the whole drive (or night) in a fixed number of queries.

A player's night score is the sum of their bomen: at a table, their side's total for the boom (as
``engine.deals.play_deals`` scored it); on a bye, the drive's bye figure: a fixed number of points, or the
round's average (every playing player's score for the boom, averaged, rounded half up).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from clubs.models import Player
from drives.models import Drive, DriveBye, DriveNight, DriveRound, DriveTable
from drives.ranking import RankedPlayer, rank_season

__all__ = ["NightLine", "RankingLine", "drive_ranking", "drives_public", "night_result", "round_bye_points"]


def drives_public() -> QuerySet[Drive]:
    """Drives shown on the public pages, with their club and union."""
    return Drive.objects.filter(public=True).select_related("club__union").order_by("-season", "name")


def _rounds(nights: QuerySet[DriveNight] | list[DriveNight]) -> list[DriveRound]:
    tables = DriveTable.objects.select_related("seat0", "seat1", "seat2", "seat3").order_by("number")
    return list(
        DriveRound.objects.filter(night__in=nights)
        .select_related("night")
        .prefetch_related(Prefetch("tables", queryset=tables),
                          Prefetch("byes", queryset=DriveBye.objects.select_related("player")))
        .order_by("night__number", "number")
    )


def round_bye_points(drive: Drive, boom: DriveRound) -> int | None:
    """What a bye scores in ``boom``: the drive's fixed figure, or the average player's score over the round's
    finished tables (None while none is finished). Reads the round's prefetched tables."""
    if drive.bye_score == Drive.ByeScore.FIXED:
        return drive.bye_points
    done = [t for t in boom.tables.all() if t.finished]
    if not done:
        return None
    return (sum(t.points0 + t.points1 for t in done) + len(done)) // (2 * len(done))


@dataclass(frozen=True)
class NightLine:
    """A player's night: ``bomen`` per round ``(points, "table N" or "bye")``; ``total`` their sum."""

    player: Player
    bomen: tuple[tuple[int | None, str], ...]
    total: int
    position: int


def _round_scores(drive: Drive, boom: DriveRound) -> dict[int, tuple[Player, int | None, str]]:
    scores: dict[int, tuple[Player, int | None, str]] = {}
    for table in boom.tables.all():
        for side, points in ((0, table.points0), (1, table.points1)):
            for player in table.side_players(side):
                scores[player.pk] = (player, points if table.deals_played else None, str(table.number))
    bye = round_bye_points(drive, boom)
    for row in boom.byes.all():
        scores[row.player_id] = (row.player, bye, "bye")
    return scores


def night_result(night: DriveNight) -> list[NightLine]:
    """The night's result, best first: each player's bomen and total (a boom not yet scored counts 0)."""
    drive = night.drive
    rounds = _rounds([night])
    per_player: dict[int, list[tuple[int | None, str]]] = defaultdict(lambda: [(None, "")] * len(rounds))
    players: dict[int, Player] = {}
    for index, boom in enumerate(rounds):
        for pk, (player, points, where) in _round_scores(drive, boom).items():
            players[pk] = player
            per_player[pk][index] = (points, where)
    lines = sorted(((sum(p or 0 for p, _ in bomen), pk) for pk, bomen in per_player.items()),
                   key=lambda t: (-t[0], players[t[1]].last_name, players[t[1]].first_name))
    out: list[NightLine] = []
    for index, (total, pk) in enumerate(lines):
        position = out[-1].position if out and out[-1].total == total else index + 1
        out.append(NightLine(players[pk], tuple(per_player[pk]), total, position))
    return out


@dataclass(frozen=True)
class RankingLine:
    """A line of the season ranking: the player and the pure :class:`~drives.ranking.RankedPlayer`."""

    player: Player
    ranked: RankedPlayer[int]


def drive_ranking(drive: Drive) -> tuple[list[int], list[RankingLine]]:
    """The season ranking: ``(night numbers, lines)``, by the drive's setting (total, or the average of each
    player's best N nights with the rest struck off: :func:`drives.ranking.rank_season`)."""
    nights = list(drive.nights.order_by("number"))
    rounds = _rounds(nights)
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    players: dict[int, Player] = {}
    for boom in rounds:
        for pk, (player, points, _where) in _round_scores(drive, boom).items():
            players[pk] = player
            number = boom.night.number
            totals[pk][number] = totals[pk].get(number, 0) + (points or 0)
    best = drive.best_nights if drive.ranking == Drive.Ranking.BEST_NIGHTS else 0
    ranked = rank_season({pk: sorted(by_night.items()) for pk, by_night in totals.items()}, best_nights=best)
    return [n.number for n in nights], [RankingLine(players[r.player], r) for r in ranked]
