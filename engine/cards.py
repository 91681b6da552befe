"""Cards, hands and notation for SAKBOC Klawerjas.

The encoding is fixed by the engine contract and shared by every module:

* suits: ``S=0, H=1, D=2, C=3`` (:data:`SPADES` .. :data:`CLUBS`);
* ranks in *natural* order: ``A=0 K=1 Q=2 J=3 T=4 9=5 8=6 7=7`` (:data:`ACE` .. :data:`SEVEN`);
* a card is the int ``suit * 8 + rank`` (0..31);
* a hand (any set of cards) is a 32-bit int mask with bit ``card`` set for each card held, so the
  cards of one suit are ``(hand >> (suit * 8)) & 0xFF``.

Notation is a rank character followed by a suit character (``"TD"``, ``"JH"``, ``"7C"``), parsed
case-insensitively, with ``"10"`` accepted for ``"T"``; formatting is upper case.

>>> parse_card("td") == card(DIAMONDS, TEN)
True
>>> format_card(parse_card("10h"))
'TH'
>>> format_hand(parse_hand("7C AS KS th"))
'AS KS TH 7C'
>>> parse_card("XZ")
Traceback (most recent call last):
...
engine.cards.CardParseError: 'XZ' is not a card (expected rank AKQJT987 then suit SHDC, e.g. 'TD')
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ACE",
    "ALL_CARDS",
    "CARD_NAMES",
    "CLUBS",
    "DIAMONDS",
    "EIGHT",
    "FULL_DECK",
    "HEARTS",
    "JACK",
    "KING",
    "NINE",
    "QUEEN",
    "RANKS",
    "SEVEN",
    "SPADES",
    "SUITS",
    "SUIT_MASKS",
    "TEN",
    "CardParseError",
    "card",
    "card_mask",
    "cards_of",
    "format_card",
    "format_cards",
    "format_hand",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "rank_of",
    "suit_of",
]

SUITS = "SHDC"
"""Suit characters, indexed by suit number (S=0, H=1, D=2, C=3)."""
RANKS = "AKQJT987"
"""Rank characters in natural order, indexed by rank number (A=0 ... 7=7)."""

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN = range(8)

ALL_CARDS = tuple(range(32))
"""The 32 cards of the Klawerjas pack (A K Q J 10 9 8 7 of each suit), DOMAIN.md "The game"."""
FULL_DECK = (1 << 32) - 1
"""Mask of all 32 cards."""
SUIT_MASKS = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)
"""Mask of the 8 cards of each suit, indexed by suit."""
CARD_NAMES = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))
"""Upper-case name of each card, indexed by card int (``CARD_NAMES[0] == 'AS'``)."""

_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(CARD_NAMES)}
_BY_NAME.update({"10" + SUITS[c >> 3]: c for c in range(32) if c & 7 == TEN})


class CardParseError(ValueError):
    """A token is not a card, or a hand lists a card twice.

    The message names the offending token; :attr:`token` holds it.
    """

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        super().__init__(
            reason or f"{token!r} is not a card (expected rank AKQJT987 then suit SHDC, e.g. 'TD')"
        )


def card(suit: int, rank: int) -> int:
    """Return the card int for a suit (0..3) and natural rank (0..7).

    >>> card(CLUBS, SEVEN)
    31

    :raises ValueError: if suit or rank is out of range.
    """
    if not (0 <= suit < 4 and 0 <= rank < 8):
        raise ValueError(f"no card with suit {suit} and rank {rank}")
    return suit * 8 + rank


def suit_of(c: int) -> int:
    """Return the suit number (0..3) of card ``c``."""
    return c >> 3


def rank_of(c: int) -> int:
    """Return the natural rank number (A=0 .. 7=7) of card ``c``."""
    return c & 7


def parse_card(token: str) -> int:
    """Parse one card like ``"TD"``, ``"jh"`` or ``"10C"`` into its card int.

    :raises CardParseError: naming the token if it is not a card.
    """
    c = _BY_NAME.get(token.strip().upper())
    if c is None:
        raise CardParseError(token)
    return c


def format_card(c: int) -> str:
    """Return the notation of card ``c`` (upper case, e.g. ``"TD"``).

    :raises ValueError: if ``c`` is not 0..31.
    """
    if not 0 <= c < 32:
        raise ValueError(f"{c!r} is not a card int (0..31)")
    return CARD_NAMES[c]


def _tokens(text: str | Iterable[str]) -> list[str]:
    if isinstance(text, str):
        return text.replace(",", " ").split()
    return list(text)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces or commas (or an iterable of tokens), keeping their order.

    >>> parse_cards("AS, 10d 7c")
    [0, 20, 31]

    :raises CardParseError: naming the first bad token.
    """
    return [parse_card(t) for t in _tokens(text)]


def parse_hand(text: str | Iterable[str]) -> int:
    """Parse a set of cards into a hand mask; order does not matter, duplicates are refused.

    >>> parse_hand("AS KS") == (1 << 0) | (1 << 1)
    True

    :raises CardParseError: naming the first bad or repeated token.
    """
    mask = 0
    for t in _tokens(text):
        bit = 1 << parse_card(t)
        if mask & bit:
            raise CardParseError(t, f"{t!r} appears twice")
        mask |= bit
    return mask


def card_mask(cards: Iterable[int]) -> int:
    """Return the hand mask holding the given card ints."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(hand: int) -> list[int]:
    """Return the card ints in a hand mask, in card order (spades A..7, hearts, diamonds, clubs).

    >>> cards_of(parse_hand("7C AS"))
    [0, 31]
    """
    out = []
    while hand:
        low = hand & -hand
        out.append(low.bit_length() - 1)
        hand ^= low
    return out


def format_cards(cards: Iterable[int]) -> str:
    """Return card ints as space-separated notation, in the given order."""
    return " ".join(CARD_NAMES[c] for c in cards)


def format_hand(hand: int) -> str:
    """Return a hand mask as space-separated notation in card order."""
    return format_cards(cards_of(hand))
