"""The draw of one round (boom) of a drive: byes, partners and tables by lot, pure Python (no Django).

A Dutch club night (seed 002: "Boom (tree) - the set of 16 deals which make up a game") plays several bomen;
before each the players are drawn into tables of four, two partnerships a table. :func:`draw_round` does it
from a seed, so the same seed and the same history give the same draw (the seed is stored with the round).

How repeats are avoided:

1. **Byes.** When the players (or, with fixed pairs, the pairs) do not fill whole tables, the odd ones out sit
   the round out. They are the ones with the fewest byes so far in the season (this night's included), ties by
   lot: byes rotate, nobody sits out twice while someone else has not sat out once.
2. **Partners** (individual drives). The players left are paired by a depth-first search for a perfect
   matching of least cost, where a pair costs :data:`NIGHT_REPEAT` if the two were partners earlier this
   night and 1 for each earlier time they were partners this season. Candidates are tried cheapest first
   (ties by lot) with branch and bound, so a draw with no repeat partner within the night is found whenever
   one exists, and among those the one with fewest season repeats; the search stops after
   :data:`SEARCH_LIMIT` steps and keeps the best draw found (only a large field needs that many).
3. **Tables.** The partnerships are shuffled by lot and seated two to a table: the first partnership in seats
   0 and 2 (side 0), the second in seats 1 and 3 (side 1).

Fixed pairs ("vaste koppels") are drawn as units: byes by pair, no partner search.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["NIGHT_REPEAT", "SEARCH_LIMIT", "DrawResult", "draw_round", "pair_key"]

NIGHT_REPEAT = 1000
"""Cost of partnering two players who were partners earlier in the same night (avoided whenever possible)."""

SEARCH_LIMIT = 50_000
"""Steps of the partner search before it settles for the best draw found."""


def pair_key[P: Hashable](a: P, b: P) -> frozenset[P]:
    """The key of a partnership in the history counters (order does not matter)."""
    return frozenset((a, b))


@dataclass(frozen=True)
class DrawResult[P: Hashable]:
    """One round's draw (``P``: the type of a player's id).

    :ivar tables: per table the four players by seat ``(s0, s1, s2, s3)``: side 0 is seats 0 and 2, side 1
        seats 1 and 3.
    :ivar byes: the players who sit the round out (a whole pair with fixed pairs).
    :ivar repeats_night: partnerships in this draw that already played together this night (0 when avoidable).
    :ivar repeats_season: earlier partnerships this season among the draw's partnerships (counted per time).
    """

    tables: tuple[tuple[P, P, P, P], ...]
    byes: tuple[P, ...]
    repeats_night: int
    repeats_season: int


def _fewest_byes[P: Hashable](units: list[P], count: int, byes: Counter[P], rng: random.Random) -> list[P]:
    order = list(units)
    rng.shuffle(order)
    order.sort(key=lambda u: byes[u])  # stable: ties stay in the drawn order
    return order[:count]


def _pair_up[P: Hashable](
    players: list[P],
    night: Counter[frozenset[P]],
    season: Counter[frozenset[P]],
    rng: random.Random,
) -> list[tuple[P, P]]:
    def cost(a: P, b: P) -> int:
        key = pair_key(a, b)
        return NIGHT_REPEAT * night[key] + season[key]

    order = list(players)
    rng.shuffle(order)
    tie = {p: rng.random() for p in order}
    best: list[tuple[P, P]] = []
    best_cost = [float("inf")]
    steps = [0]
    chosen: list[tuple[P, P]] = []

    def search(free: list[P], spent: int) -> None:
        if steps[0] >= SEARCH_LIMIT or spent >= best_cost[0]:
            return
        if not free:
            best_cost[0] = spent
            best[:] = chosen
            return
        first, rest = free[0], free[1:]
        for partner in sorted(rest, key=lambda p: (cost(first, p), tie[p])):
            steps[0] += 1
            chosen.append((first, partner))
            search([p for p in rest if p != partner], spent + cost(first, partner))
            chosen.pop()
            if best_cost[0] == 0 or steps[0] >= SEARCH_LIMIT:
                return

    search(order, 0)
    return best


def draw_round[P: Hashable](
    players: Sequence[P],
    *,
    seed: int | str,
    fixed_pairs: Sequence[tuple[P, P]] = (),
    night_partners: Iterable[tuple[P, P]] = (),
    season_partners: Iterable[tuple[P, P]] = (),
    byes_so_far: Iterable[P] = (),
) -> DrawResult[P]:
    """Draw one round: who sits out, who partners whom, who sits at which table.

    :param players: the entered players (ids), in any order (individual drives); ignored with ``fixed_pairs``.
    :param seed: the round's seed; the same seed and history give the same draw.
    :param fixed_pairs: the pairs of a "vaste koppels" drive; drawn as units.
    :param night_partners: partnerships played earlier this night (one tuple a time played).
    :param season_partners: partnerships played earlier this season, this night's included.
    :param byes_so_far: one entry per bye a player (with fixed pairs: the pair's first player) had this season.
    :raises ValueError: fewer than four players (two pairs), or a player twice.
    """
    rng = random.Random(f"drive-draw:{seed}")
    byes = Counter(byes_so_far)
    if fixed_pairs:
        units: list[P] = [pair[0] for pair in fixed_pairs]
        partner_of = {pair[0]: pair for pair in fixed_pairs}
        flat = [p for pair in fixed_pairs for p in pair]
        if len(set(flat)) != len(flat):
            raise ValueError("a player is in two fixed pairs")
        if len(units) < 2:
            raise ValueError("a round needs at least two pairs")
        out = _fewest_byes(units, len(units) % 2, byes, rng)
        playing = [u for u in units if u not in out]
        rng.shuffle(playing)
        pairs = [partner_of[u] for u in playing]
        bye_players = tuple(p for u in out for p in partner_of[u])
        night: Counter[frozenset[P]] = Counter()
        season: Counter[frozenset[P]] = Counter()
    else:
        if len(set(players)) != len(players):
            raise ValueError("a player is entered twice")
        if len(players) < 4:
            raise ValueError("a round needs at least four players")
        out = _fewest_byes(list(players), len(players) % 4, byes, rng)
        left = [p for p in players if p not in out]
        night = Counter(pair_key(a, b) for a, b in night_partners)
        season = Counter(pair_key(a, b) for a, b in season_partners)
        pairs = _pair_up(left, night, season, rng)
        rng.shuffle(pairs)
        bye_players = tuple(out)
    tables = tuple(
        (pairs[i][0], pairs[i + 1][0], pairs[i][1], pairs[i + 1][1]) for i in range(0, len(pairs) - 1, 2)
    )
    return DrawResult(
        tables=tables,
        byes=bye_players,
        repeats_night=sum(1 for a, b in pairs if night[pair_key(a, b)]),
        repeats_season=sum(season[pair_key(a, b)] for a, b in pairs),
    )
