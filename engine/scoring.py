"""Scoring: counts, going on, strokes, ou jol and the boem (SAKBOC 6-8; Notes §III-§VI).

A *game* is played hand after hand until a side counts 100 (tricks and roem) and its telman goes on
1 stroke, or 2 if the opponents count under 50 (their roem, sturk included, counts for that defence,
Notes §VI). A hand in which neither side goes on leads to **ou jol** (old play): tallies and roem carry
over and the side that won the last trick deals (DOMAIN.md). First to 5 strokes wins the **boem**;
never more than 2 strokes at once (SAKBOC 7.3).

Old-play limits (DOMAIN.md): a trick must be picked up in the hand before going on (SAKBOC 8.19,
outright roemte excepted), and sturk counts toward going on only after a trick (SAKBOC 8.12),
though it counts for the under-50 defence at once (Notes §VI). In new play, after two fifties a trick
is needed too (SAKBOC 8.21).

>>> side = SideCount(tricks_points=92, tricks_taken=5, roem=20)
>>> may_go_on(side, old_play=False), strokes_for(SideCount(tricks_points=40, sturk=20))
(True, 1)
>>> BoemState((4, 0)).go_on(0, 2).strokes
(5, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.ruleset import SAKBOC_2004, Ruleset

__all__ = [
    "BoemState",
    "GameState",
    "GameStateError",
    "SideCount",
    "boem_points",
    "defence_count",
    "going_on_count",
    "may_go_on",
    "outright_strokes",
    "straf_points",
    "strokes_for",
]


class GameStateError(ValueError):
    """A carried game state (``state_before`` of a hand record) is malformed."""


@dataclass(frozen=True)
class SideCount:
    """What one side counts at a moment of a hand.

    :ivar tally: trick points carried from earlier hands of this game (ou jol).
    :ivar old_roem: roem carried from earlier hands (accumulates, SAKBOC 8.15).
    :ivar tricks_points: card points of the tricks picked up in this hand (vyf laas trek included).
    :ivar tricks_taken: number of tricks picked up in this hand.
    :ivar roem: points of this side's call standing in this hand's first round (sturk excluded).
    :ivar sturk: sturk points roemed by this side in this hand.
    :ivar two_fifties: this side's standing call is two fifties (SAKBOC 8.21).
    """

    tally: int = 0
    old_roem: int = 0
    tricks_points: int = 0
    tricks_taken: int = 0
    roem: int = 0
    sturk: int = 0
    two_fifties: bool = False


def defence_count(side: SideCount) -> int:
    """Everything a side counts, sturk included at once: used against a 2-stroke going on (Notes §VI)."""
    return side.tally + side.old_roem + side.tricks_points + side.roem + side.sturk


def going_on_count(side: SideCount, *, old_play: bool, ruleset: Ruleset = SAKBOC_2004) -> int:
    """What a side counts toward going on: in old play its sturk only after a trick (SAKBOC 8.12)."""
    sturk = side.sturk
    if old_play and ruleset.old_play_sturk_needs_trick and side.tricks_taken == 0:
        sturk = 0
    return side.tally + side.old_roem + side.tricks_points + side.roem + sturk


def may_go_on(side: SideCount, *, old_play: bool, ruleset: Ruleset = SAKBOC_2004) -> bool:
    """True if the side's telman may go on now (counts 100 and the trick rules are met).

    * 100 counted (Notes §IV), with sturk limited as in :func:`going_on_count` (SAKBOC 8.12);
    * in old play a trick must have been picked up in this hand (SAKBOC 8.19) when the ruleset reads it
      so (``old_play_going_on == "trick-first"``, the default); under the Notes' reading the roem ritual
      decides, which needs the hand's events: :func:`engine.adjudicate.adjudicate` checks it;
    * in new play, after two fifties, a trick must have been picked up (SAKBOC 8.21).

    Outright roemte are not decided here: see :func:`outright_strokes`.
    """
    if going_on_count(side, old_play=old_play, ruleset=ruleset) < ruleset.going_on_target:
        return False
    if side.tricks_taken == 0:
        if old_play and ruleset.old_play_going_on == "trick-first":
            return False
        if not old_play and side.two_fifties and ruleset.two_fifties_need_trick:
            return False
    return True


def strokes_for(opponents: SideCount | int, ruleset: Ruleset = SAKBOC_2004) -> int:
    """Strokes for going on: 2 if the opponents count under 50 (roem and sturk included), else 1.

    ``opponents`` is their :class:`SideCount` or their :func:`defence_count` (Notes §V, §VI).
    """
    count = opponents if isinstance(opponents, int) else defence_count(opponents)
    return min(2 if count < ruleset.under_fifty else 1, ruleset.max_strokes_at_once)


def outright_strokes(
    roemte: str, *, old_play: bool, opponents: SideCount | int, ruleset: Ruleset = SAKBOC_2004
) -> int:
    """Strokes an outright roemte gives (SAKBOC 8.17): 2; in old play four aces/kings/queens give 1
    if the opponents count 50 (four jacks and vyf-eenderse still 2).

    :raises ValueError: if ``roemte`` is not an outright roemte of the ruleset.
    """
    if roemte not in ruleset.outright_roemte:
        raise ValueError(f"{roemte!r} is not an outright roemte")
    count = opponents if isinstance(opponents, int) else defence_count(opponents)
    if old_play and roemte in ruleset.old_play_one_stroke_outright and count >= ruleset.under_fifty:
        return 1
    return min(ruleset.outright_strokes, ruleset.max_strokes_at_once)


@dataclass(frozen=True)
class BoemState:
    """Strokes of the two teams on the boem (team 0 = seats 0 & 2, team 1 = seats 1 & 3).

    First to ``ruleset.boem_strokes`` (5) wins; a going on adds at most 2 (SAKBOC 7.3) and the boem
    stops at 5.
    """

    strokes: tuple[int, int] = (0, 0)
    boem_strokes: int = 5

    def go_on(self, team: int, strokes: int, ruleset: Ruleset = SAKBOC_2004) -> BoemState:
        """Return the boem after ``team`` goes on ``strokes`` (1 or 2).

        :raises ValueError: for 3 or more strokes (SAKBOC 7.3), fewer than 1, or a finished boem.
        """
        if not 1 <= strokes <= ruleset.max_strokes_at_once:
            raise ValueError(f"cannot go on {strokes} strokes (SAKBOC 7.3)")
        if self.finished:
            raise ValueError("the boem is finished")
        s = list(self.strokes)
        s[team] = min(self.boem_strokes, s[team] + strokes)
        return BoemState((s[0], s[1]), self.boem_strokes)

    @property
    def finished(self) -> bool:
        """True once a team has its 5 strokes."""
        return max(self.strokes) >= self.boem_strokes

    @property
    def winner(self) -> int | None:
        """The team that won the boem, or ``None`` while it is open."""
        if not self.finished:
            return None
        return 0 if self.strokes[0] >= self.boem_strokes else 1

    def match_points(self) -> tuple[int, int]:
        """Match points per team for this boem: see :func:`boem_points` (SAKBOC 6.1)."""
        return boem_points(self.strokes, self.boem_strokes)


def boem_points(strokes: tuple[int, int], boem_strokes: int = 5) -> tuple[int, int]:
    """Match points for a boem (SAKBOC 6.1): 2 to the winners, 4 when won five strokes clear (5-0);
    nothing for an unfinished boem (DOMAIN.md interpretation 3)."""
    pts = [0, 0]
    for team in (0, 1):
        if strokes[team] >= boem_strokes:
            pts[team] = 4 if strokes[1 - team] == 0 else 2
    return (pts[0], pts[1])


def straf_points(punisher_strokes: int, opponent_strokes: int, ruleset: Ruleset = SAKBOC_2004) -> int:
    """Points a straf earns the punisher (SAKBOC 6.2, DOMAIN.md interpretation 2).

    Default reading: 4 only when the punisher has 3 or 4 strokes and the opponents none (once the
    opponents have gone on, only 2); otherwise 2. The alternative reading
    ``"three-or-four-strokes-clear"`` gives 4 when the punisher leads by 3 or 4 strokes.
    """
    if ruleset.straf_four_points == "three-or-four-strokes-clear":
        return 4 if 3 <= punisher_strokes - opponent_strokes <= 4 else 2
    return 4 if punisher_strokes in (3, 4) and opponent_strokes == 0 else 2


@dataclass(frozen=True)
class GameState:
    """The state a hand starts from: ou jol carry and boem position (``state_before`` of a hand record).

    :ivar old_play: True in ou jol (a previous hand of this game ended with neither side at 100).
    :ivar tallies: trick points carried per team.
    :ivar roem: roem carried per team (SAKBOC 8.15).
    :ivar strokes: strokes per team on the boem before this hand.
    """

    old_play: bool = False
    tallies: tuple[int, int] = (0, 0)
    roem: tuple[int, int] = (0, 0)
    strokes: tuple[int, int] = (0, 0)

    def to_record(self) -> dict[str, Any]:
        """Return the ``state_before`` dict of a hand record."""
        return {
            "old_play": self.old_play,
            "tallies": list(self.tallies),
            "roem": list(self.roem),
            "strokes": list(self.strokes),
        }

    @classmethod
    def from_record(cls, data: Mapping[str, Any] | None) -> GameState:
        """Build from a hand record's ``state_before`` (missing: all zero, new play).

        :raises GameStateError: if a field has the wrong shape.
        """
        if not data:
            return cls()

        def pair(key: str) -> tuple[int, int]:
            v = data.get(key, [0, 0])
            if not (isinstance(v, list | tuple) and len(v) == 2 and all(type(x) is int and x >= 0 for x in v)):
                raise GameStateError(f"state_before.{key}: expected two non-negative ints, got {v!r}")
            return (v[0], v[1])

        old = data.get("old_play", False)
        if not isinstance(old, bool):
            raise GameStateError(f"state_before.old_play: expected true or false, got {old!r}")
        return cls(old, pair("tallies"), pair("roem"), pair("strokes"))

    def side(self, team: int) -> SideCount:
        """The carried part of a side's count for ``team``, as a fresh :class:`SideCount`."""
        return SideCount(tally=self.tallies[team], old_roem=self.roem[team])

    def carry(self, tricks_points: tuple[int, int], roem: tuple[int, int]) -> GameState:
        """The state after a hand in which nobody went on: ou jol, tallies and roem accumulate."""
        return GameState(
            True,
            (self.tallies[0] + tricks_points[0], self.tallies[1] + tricks_points[1]),
            (self.roem[0] + roem[0], self.roem[1] + roem[1]),
            self.strokes,
        )

    def new_game(self, strokes: tuple[int, int]) -> GameState:
        """The state after a side went on: new play, nothing carried, the boem at ``strokes``."""
        return GameState(False, (0, 0), (0, 0), strokes)
