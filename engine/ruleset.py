"""Rulesets: the rules of one game of the Klawerjas family as a value.

A :class:`Ruleset` is a frozen dataclass holding rank orders, card points, roem values, the legality
flags that drive :func:`engine.play.legal_mask` and the product's named interpretation settings
(DOMAIN.md "Interpretations"). Callers never test a ruleset's name: they read its fields, so a later
ruleset (Dutch Rotterdam/Amsterdam with must-trump/overtrump and 162 points, German Klammern) plugs in
as another value or subclass, in the manner of python-chess variants.

>>> SAKBOC_2004.trump_points[JACK], SAKBOC_2004.trump_points[NINE]
(20, 14)
>>> SAKBOC_2004.hand_total
146
>>> ruleset_by_name("sakboc-2004") is SAKBOC_2004
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from engine.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, TEN

__all__ = [
    "OUTRIGHT_ROEMTE",
    "RULESETS",
    "SAKBOC_2004",
    "SAKBOC_2004_NOTES",
    "Ruleset",
    "UnknownRulesetError",
    "register_ruleset",
    "ruleset_by_name",
]

NewGameDealer = Literal["last-trick-winner", "next-seat"]
OldPlayGoingOn = Literal["trick-first", "roem-ritual"]
StrafFourPoints = Literal["three-or-four-strokes-opponents-none", "three-or-four-strokes-clear"]

OUTRIGHT_ROEMTE = ("four-jacks", "vyf-eenderse", "four-aces", "four-kings", "four-queens")
"""Roemte that go on strokes outright (SAKBOC 8.17), highest first.

Four jacks ("four Boere", the highest roemte, Notes §VI) is never overcalled (SAKBOC 8.7); the
Notes §III list "Four Jacks & Five tens" above "Four Aces and lower", so vyf-eenderse ranks next.
Two vyf-eenderse compare by size, then trumps (SAKBOC 8.7: "size again ... before over-roeming").
"""


class UnknownRulesetError(ValueError):
    """No ruleset is registered under the given name."""


@dataclass(frozen=True)
class Ruleset:
    """The rules of one Klawerjas game, as data.

    Rank indices are the natural ones of :mod:`engine.cards` (A=0 K=1 Q=2 J=3 T=4 9=5 8=6 7=7).
    Orders list rank indices from highest to lowest; points are indexed by rank index.
    Every field has the SAKBOC 2004 value as its default, so ``Ruleset()`` is SAKBOC 2004.
    """

    name: str = "sakboc-2004"
    """Registry key used in hand records (``"ruleset": "sakboc-2004"``)."""
    title: str = "SAKBOC official rules, amended 2004"

    # --- ranks and points (DOMAIN.md "The game"; Notes §III) ---
    trump_order: tuple[int, ...] = (JACK, NINE, ACE, KING, QUEEN, TEN, EIGHT, SEVEN)
    """Trump ranks from highest: Boer, Manel, A, K, Q, 10, 8, 7 (the trump 10 ranks below the Q)."""
    side_order: tuple[int, ...] = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)
    """Side-suit ranks from highest: A K Q J 10 9 8 7."""
    sequence_order: tuple[int, ...] = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)
    """Order for roem sequences, natural in every suit including trumps (DOMAIN.md "Roem")."""
    trump_points: tuple[int, ...] = (11, 3, 2, 20, 10, 14, 0, 0)
    """Trump card points by rank index: A 11, K 3, Q 2, Boer 20, 10 10, Manel 14, 8 0, 7 0 (60 in all)."""
    side_points: tuple[int, ...] = (11, 3, 2, 1, 10, 0, 0, 0)
    """Side-suit card points by rank index: A 11, K 3, Q 2, J 1, 10 10 (27 per suit)."""
    last_trick_bonus: int = 5
    """Vyf laas trek: bonus for the last trick (Notes §III)."""

    # --- legality (SAKBOC 3.2-3.4); callers never branch on the name ---
    trump_may_replace_follow: bool = True
    """SAKBOC 3.3: one may trump even while holding the suit led (Dutch rules: False)."""
    trump_jack_exempt: bool = True
    """SAKBOC 3.2: the Boer is never forced, even when trumps are led."""
    must_trump_when_void: bool = False
    """Dutch rules: a player void in the suit led must trump if able. SAKBOC: no such duty."""
    must_overtrump: bool = False
    """Dutch rules: a trump played must beat trumps already on the trick if able. SAKBOC: no such duty."""
    forbid_undertrump: bool = True
    """SAKBOC 3.4: no lower trump on a side-suit trick already trumped higher ..."""
    undertrump_if_only_trumps: bool = True
    """... unless the player holds only trumps (SAKBOC 3.4)."""

    # --- roem (SAKBOC 8; Notes §II, §III, §VI) ---
    twenty_points: int = 20
    """Twenty: three cards in sequence in one suit."""
    fifty_points: int = 50
    """Fifty: four cards in sequence in one suit."""
    sturk_points: int = 20
    """Sturk: King and Queen of trumps, roemed when the first of them is played (Notes §VI)."""
    vyf_eenderse_length: int = 5
    """Five cards in sequence (SAKBOC 8.8) go on outright (SAKBOC 8.17)."""
    outright_roemte: tuple[str, ...] = OUTRIGHT_ROEMTE
    """Roemte that go on outright, highest first (SAKBOC 8.17, 8.7)."""
    outright_strokes: int = 2
    """Strokes for an outright roemte (SAKBOC 8.17)."""
    old_play_one_stroke_outright: tuple[str, ...] = ("four-aces", "four-kings", "four-queens")
    """In old play these give 1 stroke if the opponents count 50 (SAKBOC 8.17); four jacks and
    vyf-eenderse still give 2."""

    # --- going on and the boem (SAKBOC 7, 8; Notes §V, §VI) ---
    going_on_target: int = 100
    """A side counting this many (tricks + roem) may go on (Notes §IV)."""
    under_fifty: int = 50
    """Opponents counting less than this (roem and sturk included) concede 2 strokes (Notes §VI)."""
    boem_strokes: int = 5
    """First side to this many strokes wins the boem."""
    max_strokes_at_once: int = 2
    """Never more than 2 strokes in one go (SAKBOC 7.3)."""
    old_play_going_on: OldPlayGoingOn = "trick-first"
    """How a telman may go on in old play before his side has picked up a trick.

    ``"trick-first"`` (the default, DOMAIN.md "Ou jol"): SAKBOC 8.19 read generally: in old play a trick
    must be picked up before going on, outright roemte excepted; sturk counts only after a trick (8.12).
    ``"roem-ritual"`` (the seeds' narrower reading: 8.19 "counts 100 ... and does not pull on", 8.12's
    second sentence, 8.24, Notes §VI): a telman whose side has just roemed, in order (the telman roems
    before his card), and who asked the opponents yet to play "good enough?", may go on at once; sturk
    counts when the partnership roemed other roemte after it. Registered as ``"sakboc-2004-notes"``."""
    old_play_sturk_needs_trick: bool = True
    """SAKBOC 8.12: in old play sturk counts toward going on only after a trick (not for the defence)."""
    two_fifties_need_trick: bool = True
    """SAKBOC 8.21: in new play, after two fifties are roemed, a trick must be picked up before going on."""
    min_cut: int = 2
    """SAKBOC 2.1: cutting one card is an offence; at least 2 and at most 31 cards (Notes §IV)."""
    max_cut: int = 31
    deal_patterns: tuple[tuple[int, int, int], ...] = ((3, 3, 2), (3, 2, 3), (2, 3, 3))
    """SAKBOC 1.7, Notes §IV: three even rounds of 2 or 3 cards."""

    # --- interpretations (DOMAIN.md "Interpretations"), each a named setting ---
    new_game_dealer: NewGameDealer = "last-trick-winner"
    """Interpretation 1: after a side goes on, the side that won the last trick deals the next game."""
    straf_four_points: StrafFourPoints = "three-or-four-strokes-opponents-none"
    """Interpretation 2 (SAKBOC 6.2): 4 points only with 3 or 4 strokes and the opponents on none."""
    straf_points: tuple[int, int] = (2, 4)
    """Points a straf may claim (SAKBOC 6.2, 6.5)."""
    unfinished_boem_scores: bool = False
    """Interpretation 3: a boem unfinished at full time scores nothing (strokes kept for the record)."""
    knockout_extra_time_minutes: int = 10
    """Interpretation 4 (SAKBOC 1.12): knock-out extra time, unless the union sets another length."""
    referee_judgement_offences: tuple[str, ...] = (
        "talking",
        "signs",
        "slacking",
        "tapping",
        "flipped-cards",
    )
    """Interpretation 5: offences a record cannot show; the engine records them, the referee decides."""

    # --- derived totals ---
    @property
    def hand_total(self) -> int:
        """Card points in one hand, last-trick bonus included (146 for SAKBOC, Notes §III)."""
        return sum(self.trump_points) + 3 * sum(self.side_points) + self.last_trick_bonus

    def replace(self, **changes: object) -> Ruleset:
        """Return a copy with some fields changed (e.g. a union's ``knockout_extra_time_minutes``)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


SAKBOC_2004 = Ruleset()
"""SAKBOC official rules, amended 2004: the default ruleset."""

SAKBOC_2004_NOTES = SAKBOC_2004.replace(
    name="sakboc-2004-notes",
    title="SAKBOC 2004 with the Notes' reading of going on in old play (Notes §VI, SAKBOC 8.19, 8.24)",
    old_play_going_on="roem-ritual",
)
"""SAKBOC 2004 where DOMAIN.md and the seeds disagree on old play, read as the seeds do (see
:attr:`Ruleset.old_play_going_on`); chosen by a union or a hand record by name."""

RULESETS: dict[str, Ruleset] = {SAKBOC_2004.name: SAKBOC_2004, SAKBOC_2004_NOTES.name: SAKBOC_2004_NOTES}
"""Registry of rulesets by name; add with :func:`register_ruleset`."""


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    """Register a ruleset under its name (replacing one of the same name) and return it."""
    RULESETS[ruleset.name] = ruleset
    return ruleset


def ruleset_by_name(name: str) -> Ruleset:
    """Return the registered ruleset called ``name`` (e.g. ``"sakboc-2004"``).

    :raises UnknownRulesetError: if no such ruleset is registered.
    """
    try:
        return RULESETS[name]
    except KeyError:
        raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {', '.join(sorted(RULESETS))})") from None


