"""A deal of a makers game as a table writes it on the score sheet, checked and scored (issue 24).

At a club night of Dutch klaverjassen (seed 002), the Wikipedia variant (seed 003) or Klammern (seed 004) nobody
records the cards: after each deal the side that did not play counts the tricks (Rotterdam §Scoring) and the
score keeper writes each side's card points and roem. :func:`check_deal` takes that line, as a
:class:`DealEntry`, and

* refuses what cannot be: card points that do not add up to the pack (162 with the last trick: Rotterdam
  §Scoring), roem that no meld scores (20, 50, 100... in tens: Rotterdam §Bonus Points), a pit whose opponents
  have card points, a doubling or a march the ruleset does not have, a "nat" that the points contradict;
* and scores it with the engine's one scoring rule, :func:`engine.makers.score_hand`: the makers score their own
  points if theirs are more than half of everything, otherwise nat/beet/bait and the defenders take it all,
  both sides' roem included.

Every refusal is a :class:`DealEntryError` with a stable ``code``, plain ``params`` and the ruleset's ``rules``
citations, so a page renders it in the reader's language. :func:`play_deals` adds up a table's deals (a boom of
16 in Rotterdam, a game to 1001 or 51, a Klammern march that ends the match).

Nothing here knows SAKBOC's boems: the going-on game is scored by :mod:`engine.scoring`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.makers import score_hand
from engine.ruleset import Ruleset

__all__ = ["DealEntry", "DealEntryError", "DealScore", "TableTotal", "check_deal", "play_deals"]

_MULTIPLIERS = (1, 2, 4)


class DealEntryError(ValueError):
    """A deal's line that the ruleset refuses.

    :ivar code: stable code (``"deal.points_total"``, ``"deal.roem_unit"``, ``"deal.pit_points"``,
        ``"deal.nat_contradicted"``, ``"deal.made_contradicted"``, ``"deal.doubling"``, ``"deal.march"``,
        ``"deal.makers"``, ``"deal.negative"``, ``"deal.after_match"``);
    :ivar params: the plain values the message needs (``{"total": 150, "expected": 162}``);
    :ivar rules: the ruleset's citations (``("Rotterdam §Scoring",)``).
    """

    def __init__(self, code: str, message: str, rules: tuple[str, ...], **params: int | str) -> None:
        super().__init__(f"{message} ({'; '.join(rules)})" if rules else message)
        self.code = code
        self.params = params
        self.rules = rules


@dataclass(frozen=True)
class DealEntry:
    """One deal as the table enters it.

    :ivar makers_team: 0 or 1, the side that played (made trumps).
    :ivar card_points: card points each side took, the last trick's bonus included (they add up to
        ``ruleset.hand_total``: 162 in the Dutch games).
    :ivar roem: roem each side claimed (melds, stuk/Bella), without the pit bonus; multiples of 10.
    :ivar pit_team: the side that took every trick (pit/mars), or None.
    :ivar nat: what the table says: True "nat" (the makers went down), False "made", None not said.
    :ivar multiplier: 1, 2 after Contra, 4 after Re (Klammern §First trick); 1 where there is no doubling.
    :ivar march_team: the side that announced a march (Klammern §March), or None.
    """

    makers_team: int
    card_points: tuple[int, int]
    roem: tuple[int, int] = (0, 0)
    pit_team: int | None = None
    nat: bool | None = None
    multiplier: int = 1
    march_team: int | None = None


@dataclass(frozen=True)
class DealScore:
    """A checked deal's score.

    :ivar made: the makers made it (False: nat, beet, bait; the defenders score everything).
    :ivar points: game points each side scores for the deal (cards and roem, the pit bonus included).
    :ivar roem: roem each side claimed, the pit bonus included (what the sheet's roem column shows).
    :ivar small_points: Klammern's small points (1 made, 2 defeated, times Contra/Re); (0, 0) elsewhere.
    :ivar match_points: the deal in the game's unit (Klammern: match points, 10 game points each).
    :ivar march_made: True/False when a march was announced, else None.
    :ivar match_over: a march decided the whole match (Klammern §March); :ivar match_winner_team: who won it.
    """

    made: bool
    points: tuple[int, int]
    roem: tuple[int, int]
    small_points: tuple[int, int]
    match_points: tuple[int, int]
    march_made: bool | None = None
    match_over: bool = False
    match_winner_team: int | None = None


def _side(value: int | None, what: str, rs: Ruleset) -> None:
    if value is not None and value not in (0, 1):
        raise DealEntryError("deal.makers", f"{what} must be side 0 or 1, not {value}", rs.cite("scoring"), side=value)


def check_deal(entry: DealEntry, rs: Ruleset) -> DealScore:
    """Check one deal's line under ``rs`` (a makers game) and score it.

    :raises DealEntryError: the line cannot be (see the class for the codes): the card points do not add up to
        ``rs.hand_total`` (Rotterdam §Scoring: "the points in one hand add up to 162"); roem is negative or
        not in tens (Rotterdam §Bonus Points: 20, 40, 50, 70, 100 or 200); a pit whose opponents took card
        points, or a pit bonus claimed by a side without every trick (Rotterdam §Bonus Points); a nat the
        points contradict or a made hand they contradict (Rotterdam §Scoring; Wikipedia "Bait"; Klammern
        §Scoring: a tie loses); a multiplier without Contra/Re in the ruleset (Klammern §First trick); a march
        where the ruleset has none (Klammern §March).
    :raises ValueError: ``rs`` is not a makers game (SAKBOC boems are scored by :mod:`engine.scoring`).
    """
    if rs.hand_scoring != "makers":
        raise ValueError(f"{rs.name} is not scored deal by deal (its hands are scored in boems)")
    _side(entry.makers_team, "the makers", rs)
    _side(entry.pit_team, "the pit", rs)
    _side(entry.march_team, "the march", rs)
    scoring = rs.cite("scoring")
    cards, roem = entry.card_points, entry.roem
    if min(cards) < 0 or min(roem) < 0:
        raise DealEntryError("deal.negative", "points and roem cannot be negative", scoring)
    total = cards[0] + cards[1]
    if total != rs.hand_total:
        raise DealEntryError(
            "deal.points_total",
            f"the card points add up to {total}, not {rs.hand_total}",
            scoring,
            total=total,
            expected=rs.hand_total,
        )
    if roem[0] % 10 or roem[1] % 10:
        raise DealEntryError(
            "deal.roem_unit", "roem comes in tens (20, 50, 100...)", rs.cite("roem"), roem=f"{roem[0]}/{roem[1]}"
        )
    if entry.pit_team is not None and cards[1 - entry.pit_team]:
        raise DealEntryError(
            "deal.pit_points",
            f"a pit: the other side took no trick, yet has {cards[1 - entry.pit_team]} card points",
            rs.cite("roem") + scoring,
            points=cards[1 - entry.pit_team],
        )
    if entry.multiplier not in _MULTIPLIERS or (entry.multiplier != 1 and not rs.doubling):
        raise DealEntryError(
            "deal.doubling",
            f"{rs.title} has no doubling" if not rs.doubling else "the multiplier is 1, 2 (Contra) or 4 (Re)",
            rs.cite("doubling") or scoring,
            multiplier=entry.multiplier,
        )
    if entry.march_team is not None and not rs.march_announcement:
        raise DealEntryError("deal.march", f"{rs.title} has no march", scoring)
    with_pit = list(roem)
    if entry.pit_team is not None:
        with_pit[entry.pit_team] += rs.pit_bonus
    claimed = (with_pit[0], with_pit[1])
    made, points, small, match_points, _ = score_hand(
        rs, entry.makers_team, cards, claimed, multiplier=entry.multiplier
    )
    if entry.nat is not None and entry.nat == made:
        # The table said nat and the points make it, or said made and they don't (Rotterdam §Scoring).
        mine, everything = cards[entry.makers_team] + claimed[entry.makers_team], rs.hand_total + sum(claimed)
        raise DealEntryError(
            "deal.nat_contradicted" if made else "deal.made_contradicted",
            f"{'not nat' if made else 'nat'}: the makers' {mine} is {'' if made else 'not '}more than half of "
            f"{everything}",
            scoring,
            makers=mine,
            everything=everything,
        )
    if entry.march_team is None:
        return DealScore(made, points, claimed, small, match_points)
    march_made = entry.pit_team == entry.march_team
    winner = entry.march_team if march_made else 1 - entry.march_team
    return DealScore(made, points, claimed, small, match_points, march_made, True, winner)


@dataclass(frozen=True)
class TableTotal:
    """A table's deals added up.

    :ivar deals: deals scored; :ivar points: game points per side (the sum of :attr:`DealScore.points`);
    :ivar match_points: the total in the game's unit (Klammern: match points; else the same as points);
    :ivar small_points: Klammern's small points; :ivar game_over: the ruleset's target or number of deals
        is reached, or a march decided the match; :ivar winner_team: the side ahead when the game is over
        (None while it goes on or on a level total); :ivar nat: deals each side went nat as makers.
    """

    deals: int
    points: tuple[int, int]
    match_points: tuple[int, int]
    small_points: tuple[int, int]
    game_over: bool
    winner_team: int | None
    nat: tuple[int, int]


def play_deals(entries: Iterable[DealEntry], rs: Ruleset, *, deals: int = 0) -> TableTotal:
    """Check and add up a table's deals in order.

    ``deals`` is the number a table plays (a competition's setting: 16 for a Rotterdam boom); 0 takes the
    ruleset's own end (``rs.game_hands`` deals, else ``rs.game_target`` in its unit: 1001 points in the
    Wikipedia variant, 51 match points in Klammern). A Klammern march ends the match at once (Klammern §March).

    :raises DealEntryError: the first line that cannot be, with ``params["deal"]`` its 1-based number; or a
        deal entered after the game is over (``"deal.after_match"``).
    """
    points = [0, 0]
    match_points = [0, 0]
    small = [0, 0]
    nat = [0, 0]
    count = 0
    over = False
    winner: int | None = None
    limit = deals or rs.game_hands
    for entry in entries:
        if over:
            raise DealEntryError(
                "deal.after_match", f"the game was over after deal {count}", rs.cite("scoring"), deal=count + 1
            )
        try:
            score = check_deal(entry, rs)
        except DealEntryError as exc:
            exc.params["deal"] = count + 1
            raise
        count += 1
        for side in (0, 1):
            points[side] += score.points[side]
            match_points[side] += score.match_points[side]
            small[side] += score.small_points[side]
        if not score.made:
            nat[entry.makers_team] += 1
        if score.match_over:
            over, winner = True, score.match_winner_team
        elif limit and count >= limit:
            over = True
        elif not limit and rs.game_target and max(match_points) >= rs.game_target:
            over = True
        if over and winner is None and match_points[0] != match_points[1]:
            winner = 0 if match_points[0] > match_points[1] else 1
    return TableTotal(
        count,
        (points[0], points[1]),
        (match_points[0], match_points[1]),
        (small[0], small[1]),
        over,
        winner,
        (nat[0], nat[1]),
    )
