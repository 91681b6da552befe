"""The fast path of play: legal cards, trick winners and card points, table-driven on bitmasks.

Hands are 32-bit masks and cards ints as in :mod:`engine.cards`. All rule knowledge comes from a
:class:`~engine.ruleset.Ruleset` (flags and rank/point tables), precomputed once per ruleset into
:class:`PlayTables`; nothing here tests a ruleset's name.

Agreed signatures (the slow reference in ``engine/reference.py`` is cross-checked against them):

* ``legal_mask(hand: int, trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> int``
  where ``trick`` is the cards already played to the current trick, in order (empty when leading);
  the result is the mask of the cards in ``hand`` that may legally be played. It is never empty
  when ``hand`` is not.
* ``trick_winner(trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> int``: index
  (0..3) in ``trick`` of the winning card.
* ``trick_points(trick, trump, ruleset) -> int`` and ``card_points(card, trump, ruleset) -> int``.

SAKBOC legality (DOMAIN.md "The game"):

* follow suit if able, **or trump** (SAKBOC 3.3);
* when trumps are led a player holding trumps must play one, but the Boer is never forced: a player
  whose only trump is the Boer may play anything (SAKBOC 3.2);
* no undertrump: on a side-suit trick already trumped, a lower trump than the highest there may not
  be played unless the player holds only trumps (SAKBOC 3.4);
* void in the suit led: anything except an undertrump.

>>> from engine.cards import parse_hand, parse_cards, format_hand, HEARTS
>>> hand = parse_hand("JH 7H AS 8D")
>>> format_hand(legal_mask(hand, parse_cards("KH"), HEARTS))   # trumps led, only trump besides Boer: 7H
'JH 7H'
>>> format_hand(legal_mask(parse_hand("JH AS 8D"), parse_cards("KH"), HEARTS))  # Boer never forced
'AS JH 8D'
>>> format_hand(legal_mask(hand, parse_cards("KS 9H"), HEARTS))  # follow spades or overtrump
'AS JH'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import JACK, SUIT_MASKS
from engine.ruleset import SAKBOC_2004, Ruleset

__all__ = [
    "PlayTables",
    "card_points",
    "legal_mask",
    "play_tables",
    "sakboc_legality",
    "trick_points",
    "trick_winner",
]


@dataclass(frozen=True)
class PlayTables:
    """Lookup tables for one ruleset, built once by :func:`play_tables`.

    * ``power[trump * 4 + led][card]``: trick-taking strength of ``card`` when ``led`` was led;
      0 for a card that cannot win (off-suit, not trump), trumps above every side card. ``trump`` may be
      :data:`~engine.ruleset.NO_TRUMPS` (4): every suit is a side suit.
    * ``points[trump][card]``: card points (trump or side values).
    * ``above[trump][card]``: for a trump card, the mask of the trumps ranked above it.
    * ``boer[trump]``: the mask of the Boer (jack of trumps).
    """

    power: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    above: tuple[tuple[int, ...], ...]
    boer: tuple[int, ...]


_TABLES: dict[Ruleset, PlayTables] = {}
_TRUMP_MASKS = (*SUIT_MASKS, 0)  # index NO_TRUMPS (4): no trumps


_BY_ID: dict[int, tuple[Ruleset, PlayTables]] = {}
"""The same cache by the ruleset object's identity: hashing a Ruleset (every field) costs more than the lookup it
serves, so the adjudicator's per-card lookups go by identity (the entry holds the ruleset, so its id stays its own)."""


def play_tables(ruleset: Ruleset = SAKBOC_2004) -> PlayTables:
    """Return (building and caching on first use) the lookup tables for ``ruleset``."""
    hit = _BY_ID.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    t = _TABLES.get(ruleset)
    if t is not None:
        if len(_BY_ID) >= 64:  # rulesets made per request (a union's settings) must not pile up
            _BY_ID.clear()
        _BY_ID[id(ruleset)] = (ruleset, t)
        return t
    trump_strength = [0] * 8
    side_strength = [0] * 8
    for i, r in enumerate(ruleset.trump_order):
        trump_strength[r] = 16 + 8 - i  # 17..24: above every side card
    for i, r in enumerate(ruleset.side_order):
        side_strength[r] = 8 - i  # 1..8
    power = []
    for trump in range(5):
        for led in range(4):
            row = []
            for c in range(32):
                s, r = c >> 3, c & 7
                if s == trump:
                    row.append(trump_strength[r])
                elif s == led:
                    row.append(side_strength[r])
                else:
                    row.append(0)
            power.append(tuple(row))
    points = tuple(
        tuple(ruleset.trump_points[c & 7] if c >> 3 == trump else ruleset.side_points[c & 7] for c in range(32))
        for trump in range(5)
    )
    above = []
    for trump in range(5):
        row = []
        for c in range(32):
            m = 0
            if c >> 3 == trump:
                for r in range(8):
                    if trump_strength[r] > trump_strength[c & 7]:
                        m |= 1 << (trump * 8 + r)
            row.append(m)
        above.append(tuple(row))
    boer = tuple(1 << (trump * 8 + JACK) if trump < 4 else 0 for trump in range(5))
    t = PlayTables(tuple(power), points, tuple(above), boer)
    _TABLES[ruleset] = t
    return t


def legal_mask(hand: int, trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> int:
    """Return the mask of the cards in ``hand`` that may be played to ``trick`` (SAKBOC 3.2-3.4).

    :param hand: mask of the cards the player holds.
    :param trick: the cards already played to the current trick, in order of play (0..3 cards).
    :param trump: the trump suit (0..3), or 4 (:data:`~engine.ruleset.NO_TRUMPS`).
    :param ruleset: flags ``trump_may_replace_follow`` (3.3), ``trump_jack_exempt`` (3.2),
        ``forbid_undertrump``/``undertrump_if_only_trumps`` (3.4), ``must_trump_when_void`` and
        ``must_overtrump`` (Dutch rules), ``partner_winning_frees`` (Amsterdam) and
        ``may_discard_when_cannot_overtrump`` (Klammern §Play) decide.
    :returns: a submask of ``hand``; never 0 when ``hand`` is not 0.
    """
    if not trick or not hand:
        return hand
    tables = play_tables(ruleset)
    tm = _TRUMP_MASKS[trump]
    hand_t = hand & tm
    led = trick[0] >> 3
    if ruleset.partner_winning_frees and len(trick) >= 2 and trick_winner(trick, trump, ruleset) == len(trick) - 2:
        # Amsterdam: the partner is winning: follow suit if able, else any card (no duty to (over)trump)
        follow_p = hand & SUIT_MASKS[led]
        return follow_p if follow_p else hand
    # highest trump on the trick so far, as the mask of trumps above it (all trumps if none)
    over_mask = tm
    best = -1
    pw = tables.power[trump * 4 + led]
    for c in trick:
        if c >> 3 == trump and pw[c] > best:
            best = pw[c]
            over_mask = tables.above[trump][c]
    over = hand_t & over_mask
    if led == trump:
        if not hand_t:
            return hand
        if ruleset.trump_jack_exempt and hand_t == tables.boer[trump]:
            return hand  # SAKBOC 3.2: the Boer is never forced
        if ruleset.must_overtrump and over:
            return over
        return hand_t
    follow = hand & SUIT_MASKS[led]
    trumps_ok = over if ruleset.forbid_undertrump else hand_t
    if ruleset.must_overtrump and over:
        trumps_ok = over
    if follow:
        return follow | trumps_ok if ruleset.trump_may_replace_follow else follow
    side = hand & ~tm
    if not side:  # only trumps left
        if ruleset.undertrump_if_only_trumps or not over:
            return hand if not ruleset.must_overtrump or not over else over
        return over
    if ruleset.may_discard_when_cannot_overtrump and hand_t and not over:
        return hand  # Klammern §Play: cannot overtrump: undertrump or discard
    if ruleset.must_trump_when_void and hand_t:
        return trumps_ok if trumps_ok else side
    return side | trumps_ok


def sakboc_legality(ruleset: Ruleset) -> bool:
    """True if :func:`legal_mask` reads ``ruleset`` exactly as SAKBOC 3.2-3.4: follow suit or trump (3.3), the Boer
    never forced (3.2), no undertrump unless holding only trumps (3.4), and none of the Dutch, Amsterdam or
    Klammern duties. Loops that play many cards may then keep the trick's state themselves (``engine.simulate``)."""
    return (
        ruleset.trump_may_replace_follow
        and ruleset.trump_jack_exempt
        and ruleset.forbid_undertrump
        and ruleset.undertrump_if_only_trumps
        and not ruleset.must_trump_when_void
        and not ruleset.must_overtrump
        and not ruleset.partner_winning_frees
        and not ruleset.may_discard_when_cannot_overtrump
    )


def trick_winner(trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> int:
    """Return the index in ``trick`` of the winning card: the highest trump, else the highest card of
    the suit led (DOMAIN.md "The game"; Notes §II "Trump").

    :raises ValueError: if ``trick`` is empty.
    """
    if not trick:
        raise ValueError("an empty trick has no winner")
    pw = play_tables(ruleset).power[trump * 4 + (trick[0] >> 3)]
    best, win = -1, 0
    for i, c in enumerate(trick):
        if pw[c] > best:
            best, win = pw[c], i
    return win


def card_points(card: int, trump: int, ruleset: Ruleset = SAKBOC_2004) -> int:
    """Return the points of ``card`` with ``trump`` as trumps (Notes §III: Boer 20, Manel 14, ...)."""
    return play_tables(ruleset).points[trump][card]


def trick_points(trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004, last: bool = False) -> int:
    """Return the card points in ``trick``, plus the last-trick bonus (vyf laas trek) if ``last``."""
    pts = play_tables(ruleset).points[trump]
    return sum(pts[c] for c in trick) + (ruleset.last_trick_bonus if last else 0)
