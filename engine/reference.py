"""A slow, readable reference for legal play, written straight from the SAKBOC rule text.

This module exists to be *obviously right*, not fast: it works on lists of card ints and spells out
each rule as it is written, so that the fast bitmask path (:func:`engine.play.legal_mask`) can be
cross-checked against it on many random positions (``tests/engine/test_reference_crosscheck.py``)
and so that the adjudicator can say *which* rule a card broke.

The rules (SAKBOC 2004, section 3 "The Trump-Card"; Notes §II "Follow Suit", "Under trump"):

* **3.3** "Every player must play one of the same suit which is called, if s/he has one, unless
  s/he uses trumps." Trumping is always allowed, even while holding the suit led.
* **3.2** "Jack of trumps need not be played when trumps are called." When trumps are led, a player
  whose only trump is the Boer may play any card (the Boer is never forced, Notes §II).
* **3.4** "No player shall be allowed to under-trump unless s/he only has trumps." An undertrump is
  "a trump card on a trick when trumps are not called for, and a previous player has already trumped
  that trick with a higher trump card" (Notes §II).
* A player void in the suit led may play anything, except an undertrump.

There is no duty to trump when void and no duty to overtrump (unlike the Dutch game).

>>> from engine.cards import parse_card, parse_cards, HEARTS
>>> [c for c in parse_cards("AS 7H") if is_legal(c, parse_cards("AS 7H KD"), parse_cards("9S"), HEARTS)]
[0, 15]
>>> why_illegal(parse_card("KD"), parse_cards("AS 7H KD"), parse_cards("9S"), HEARTS)
('SAKBOC 3.3', 'held AS when spades were led, and KD is neither a spade nor a trump')
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import CARD_NAMES, JACK
from engine.ruleset import SAKBOC_2004, Ruleset

__all__ = ["SUIT_WORDS", "is_legal", "legal_cards", "why_illegal"]

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
"""English plural of each suit, indexed by suit number (for evidence text)."""


def _suit(card: int) -> int:
    return card // 8


def _rank(card: int) -> int:
    return card % 8


def _trump_strength(card: int, ruleset: Ruleset) -> int:
    """How strong a trump card is: higher is stronger (Boer, Manel, A, K, Q, 10, 8, 7)."""
    order = list(ruleset.trump_order)
    return len(order) - order.index(_rank(card))


def why_illegal(
    card: int, hand: Sequence[int], trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004
) -> tuple[str, str] | None:
    """Return why playing ``card`` from ``hand`` to ``trick`` breaks a rule, or None if it is legal.

    :param card: the card played (must be in ``hand``).
    :param hand: the cards the player held just before playing, ``card`` included.
    :param trick: the cards already on the trick, in order (empty when leading).
    :param trump: the trump suit.
    :param ruleset: reads ``trump_may_replace_follow``, ``trump_jack_exempt``, ``must_trump_when_void``,
        ``must_overtrump``, ``forbid_undertrump`` and ``undertrump_if_only_trumps``.
    :returns: ``(rule, evidence)``, e.g. ``("SAKBOC 3.3", "held 7D when diamonds were led, ...")``.
    :raises ValueError: if ``card`` is not in ``hand``.
    """
    if card not in hand:
        raise ValueError(f"{CARD_NAMES[card]} is not in the hand")
    # The leader may lead any card.
    if not trick:
        return None

    led_suit = _suit(trick[0])
    my_trumps = [c for c in hand if _suit(c) == trump]
    trumps_led = led_suit == trump
    plays_trump = _suit(card) == trump

    # --- Trumps were called (led). ---
    if trumps_led:
        if plays_trump or not my_trumps:
            return _dutch_overtrump_check(card, hand, trick, trump, ruleset)
        # SAKBOC 3.2: the Boer need not be played when trumps are called.
        only_boer = all(_rank(c) == JACK for c in my_trumps)
        if only_boer and ruleset.trump_jack_exempt:
            return None
        held = ", ".join(CARD_NAMES[c] for c in my_trumps)
        return ("SAKBOC 3.3", f"held {held} when trumps were led, and played {CARD_NAMES[card]}")

    # --- A side suit was led. ---
    my_led = [c for c in hand if _suit(c) == led_suit]
    follows = _suit(card) == led_suit
    if my_led and not follows:
        # SAKBOC 3.3: follow suit "unless s/he uses trumps".
        if not (plays_trump and ruleset.trump_may_replace_follow):
            held = ", ".join(CARD_NAMES[c] for c in my_led)
            word = SUIT_WORDS[led_suit]
            return (
                "SAKBOC 3.3",
                f"held {held} when {word} were led, and {CARD_NAMES[card]} is neither a {word[:-1]} nor a trump"
                if ruleset.trump_may_replace_follow
                else f"held {held} when {word} were led, and played {CARD_NAMES[card]}",
            )
    if not my_led and not plays_trump and my_trumps and ruleset.must_trump_when_void:
        return ("must trump when void", f"void in {SUIT_WORDS[led_suit]} and held trumps")

    if plays_trump:
        # SAKBOC 3.4: no under-trumping on a side-suit trick already trumped higher,
        # unless the player has only trumps.
        trumps_on_trick = [c for c in trick if _suit(c) == trump]
        if trumps_on_trick and ruleset.forbid_undertrump:
            highest = max(trumps_on_trick, key=lambda c: _trump_strength(c, ruleset))
            if _trump_strength(card, ruleset) < _trump_strength(highest, ruleset):
                only_trumps = len(my_trumps) == len(hand)
                if not (only_trumps and ruleset.undertrump_if_only_trumps):
                    others = ", ".join(CARD_NAMES[c] for c in hand if _suit(c) != trump)
                    return (
                        "SAKBOC 3.4",
                        f"played {CARD_NAMES[card]} under {CARD_NAMES[highest]} on a {SUIT_WORDS[led_suit][:-1]} "
                        f"trick while holding {others}",
                    )
        return _dutch_overtrump_check(card, hand, trick, trump, ruleset)
    return None


def _dutch_overtrump_check(
    card: int, hand: Sequence[int], trick: Sequence[int], trump: int, ruleset: Ruleset
) -> tuple[str, str] | None:
    """Rulesets with a duty to overtrump (not SAKBOC): a trump must beat the trumps on the trick if able."""
    if not ruleset.must_overtrump or _suit(card) != trump:
        return None
    trumps_on_trick = [c for c in trick if _suit(c) == trump]
    if not trumps_on_trick:
        return None
    best = max(_trump_strength(c, ruleset) for c in trumps_on_trick)
    can_beat = [c for c in hand if _suit(c) == trump and _trump_strength(c, ruleset) > best]
    if can_beat and _trump_strength(card, ruleset) < best:
        return ("must overtrump", f"could beat the trump on the trick with {CARD_NAMES[can_beat[0]]}")
    return None


def is_legal(card: int, hand: Sequence[int], trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> bool:
    """True if ``card`` may be played from ``hand`` to ``trick`` (SAKBOC 3.2-3.4); see :func:`why_illegal`.

    :raises ValueError: if ``card`` is not in ``hand``.
    """
    return why_illegal(card, hand, trick, trump, ruleset) is None


def legal_cards(hand: Sequence[int], trick: Sequence[int], trump: int, ruleset: Ruleset = SAKBOC_2004) -> list[int]:
    """Return the cards of ``hand`` (in the given order) that may legally be played to ``trick``."""
    return [c for c in hand if why_illegal(c, hand, trick, trump, ruleset) is None]
