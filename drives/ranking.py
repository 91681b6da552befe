"""A drive's season ranking from each player's night scores, pure Python (no Django).

Dutch clubs rank a drive's season by the total of every night, or by the average of each player's best N
nights (e.g. the best 6 of 8: the rest are struck off, and shown struck through on the ranking).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["RankedPlayer", "rank_season"]


@dataclass(frozen=True)
class RankedPlayer[P: Hashable]:
    """One line of the season ranking (``P``: the type of a player's id).

    :ivar player: the player's id; :ivar position: 1-based, shared on an equal value.
    :ivar nights: ``(night number, score, counted)`` for each night played, in night order; ``counted`` is
        False for a night struck off (not among the best N).
    :ivar total: the sum of the counted nights; :ivar value: what ranks: the total, or the average of the
        counted nights (points per night, a float).
    """

    player: P
    position: int
    nights: tuple[tuple[int, int, bool], ...]
    total: int
    value: float


def rank_season[P: Hashable](
    scores: Mapping[P, Sequence[tuple[int, int]]], *, best_nights: int = 0
) -> list[RankedPlayer[P]]:
    """Rank the players by their night scores.

    :param scores: player id -> ``(night number, score)`` per night they played (a bye's score included).
    :param best_nights: 0: rank by the total of every night; N > 0: by the average of the player's best N
        nights (all of them if they played N or fewer), the other nights struck off. On an equal score the
        earlier night is struck off first.
    :raises ValueError: ``best_nights`` is negative.
    :returns: the lines, best first; equal values share a position (1, 2, 2, 4).
    """
    if best_nights < 0:
        raise ValueError("best_nights cannot be negative")
    lines: list[tuple[float, int, P, tuple[tuple[int, int, bool], ...]]] = []
    for player, nights in scores.items():
        ordered = sorted(nights)
        if best_nights:
            keep = sorted(range(len(ordered)), key=lambda i: (-ordered[i][1], -ordered[i][0]))[:best_nights]
        else:
            keep = list(range(len(ordered)))
        kept = set(keep)
        marked = tuple((n, s, i in kept) for i, (n, s) in enumerate(ordered))
        total = sum(ordered[i][1] for i in kept)
        value = total / len(kept) if best_nights and kept else float(total)
        lines.append((value, total, player, marked))
    lines.sort(key=lambda line: (-line[0], -line[1], str(line[2])))
    out: list[RankedPlayer[P]] = []
    for index, (value, total, player, marked) in enumerate(lines):
        position = out[-1].position if out and out[-1].value == value else index + 1
        out.append(RankedPlayer(player, position, marked, total, value))
    return out
