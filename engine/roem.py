"""Roem: the roemte a hand holds, roem calls and how competing calls rank (SAKBOC 8; Notes §II, §VI).

* **Sequences** use the natural order A K Q J T 9 8 7 in every suit, trumps included (DOMAIN.md).
  A maximal run of 3 is a *twenty* (20), of 4 a *fifty* (50), of 5 or more *vyf-eenderse*
  (SAKBOC 8.8), which goes on outright (SAKBOC 8.17) like *four jacks/aces/kings/queens*.
* **Sturk** is King and Queen of trumps (20), roemed when the first of them is played (Notes §VI);
  it never competes and once roemed is never cancelled, so it "adds on" (SAKBOC 8.13, 8.15).
* A **call** is what one player roems with the first card (SAKBOC 4.3, Notes §VI), possibly a
  combination such as fifty-twenty or twenty-sturk (SAKBOC 8.13, 8.16).
* **Competing calls** in the first round (SAKBOC 8.2-8.4, 8.9, 8.10; Notes §VI): a later call must
  outrank the standing one: more points; equal points: higher top card (the "size", SAKBOC 8.2);
  equal top card: the one in trumps; otherwise the first stands. The overcalled call is closed
  (SAKBOC 8.3), partners' calls included (8.4, 8.9); so after the first round one call stands.
  Outright roemte outrank every sequence call, in the order of ``Ruleset.outright_roemte``.

>>> from engine.cards import parse_hand, HEARTS
>>> [r.name for r in roemte_in_hand(parse_hand("AH KH QH 7S 8S 9S TS JC"), HEARTS)]
['fifty', 'twenty', 'sturk']
>>> best = best_call(parse_hand("AH KH QH 7S 8S 9S TS JC"), HEARTS)
>>> best.names, best.points
(('fifty', 'twenty'), 70)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import ACE, JACK, KING, QUEEN, RANKS
from engine.ruleset import SAKBOC_2004, Ruleset

__all__ = [
    "CALL_NAMES",
    "RoemCall",
    "RoemCallError",
    "Roemte",
    "best_call",
    "call_from_names",
    "call_key",
    "forbids_sizing",
    "needs_size",
    "outranks",
    "roemte_in_hand",
    "sturk_due",
    "suit_runs",
]

SEQUENCE_NAMES = ("twenty", "fifty", "vyf-eenderse")
FOUR_NAMES = {JACK: "four-jacks", ACE: "four-aces", KING: "four-kings", QUEEN: "four-queens"}
CALL_NAMES = ("twenty", "fifty", "vyf-eenderse", "four-jacks", "four-aces", "four-kings", "four-queens", "sturk")
"""Every name a roem call may use in a hand record (a call is one name or a list of them)."""
_LENGTH = {"twenty": 3, "fifty": 4, "vyf-eenderse": 5}


class RoemCallError(ValueError):
    """A roem call names something that is not a roemte (e.g. ``"forty"``)."""


@dataclass(frozen=True)
class Roemte:
    """One roemte held: a sequence, four of a kind or sturk.

    :ivar name: one of :data:`CALL_NAMES`.
    :ivar suit: the suit of a sequence or of sturk (trumps); ``-1`` for four of a kind.
    :ivar top: natural rank index (A=0 .. 7=7) of the top card: what a size question is answered with
        (SAKBOC 8.2). For four of a kind, the rank.
    :ivar cards: mask of the cards it is made of.
    :ivar points: 20 or 50 for twenty/fifty/sturk; 0 for outright roemte (they give strokes, SAKBOC 8.17).
    """

    name: str
    suit: int
    top: int
    cards: int
    points: int

    @property
    def outright(self) -> bool:
        """True for vyf-eenderse and four of a kind (SAKBOC 8.17)."""
        return self.name not in ("twenty", "fifty", "sturk")


def suit_runs(suit_byte: int) -> list[tuple[int, int]]:
    """Maximal runs in natural order in one suit's 8-bit mask, as (top rank index, length).

    Sequences use the natural order A K Q J 10 9 8 7 in every suit (DOMAIN.md "Roem").

    >>> suit_runs(0b0110_0111)
    [(0, 3), (5, 2)]
    """
    out = []
    r = 0
    while r < 8:
        if suit_byte >> r & 1:
            start = r
            while r < 8 and suit_byte >> r & 1:
                r += 1
            out.append((start, r - start))
        else:
            r += 1
    return out


def roemte_in_hand(hand: int, trump: int, ruleset: Ruleset = SAKBOC_2004) -> list[Roemte]:
    """Return every roemte ``hand`` holds, sequences by suit then four of a kind then sturk.

    Each maximal run counts once: 3 → twenty, 4 → fifty, 5 or more → vyf-eenderse (Notes §II).
    """
    out: list[Roemte] = []
    for suit in range(4):
        byte = hand >> (suit * 8) & 0xFF
        for top, length in suit_runs(byte):
            if length < 3:
                continue
            mask = ((1 << length) - 1) << (suit * 8 + top)
            if length >= ruleset.vyf_eenderse_length:
                out.append(Roemte("vyf-eenderse", suit, top, mask, 0))
            elif length == 4:
                out.append(Roemte("fifty", suit, top, mask, ruleset.fifty_points))
            else:
                out.append(Roemte("twenty", suit, top, mask, ruleset.twenty_points))
    for rank in (JACK, ACE, KING, QUEEN):
        four = 1 << rank | 1 << (8 + rank) | 1 << (16 + rank) | 1 << (24 + rank)
        if hand & four == four:
            out.append(Roemte(FOUR_NAMES[rank], -1, rank, four, 0))
    sturk = 1 << (trump * 8 + KING) | 1 << (trump * 8 + QUEEN)
    if hand & sturk == sturk:
        out.append(Roemte("sturk", trump, KING, sturk, ruleset.sturk_points))
    return out


@dataclass(frozen=True)
class RoemCall:
    """A roem call: the roemte one player announces at once (SAKBOC 8.13, 8.16).

    :ivar parts: the roemte called (sequences, one outright roemte, and/or sturk).
    :ivar trump: the trump suit of the hand.
    """

    parts: tuple[Roemte, ...]
    trump: int

    @property
    def names(self) -> tuple[str, ...]:
        """Names as written in a hand record, e.g. ``("fifty", "twenty")`` (SAKBOC 8.16 order)."""
        return tuple(p.name for p in self.parts)

    @property
    def points(self) -> int:
        """Points that compete: sequences only (sturk adds on and never competes)."""
        return sum(p.points for p in self.parts if p.name != "sturk")

    @property
    def sturk(self) -> bool:
        """True if the call includes sturk."""
        return any(p.name == "sturk" for p in self.parts)

    @property
    def sturk_points(self) -> int:
        """Points of the sturk part (0 if none)."""
        return sum(p.points for p in self.parts if p.name == "sturk")

    @property
    def total(self) -> int:
        """All points the call is worth if it stands (sequences plus sturk)."""
        return sum(p.points for p in self.parts)

    @property
    def outright(self) -> str | None:
        """The outright roemte called (SAKBOC 8.17), if any."""
        for p in self.parts:
            if p.outright:
                return p.name
        return None

    @property
    def competing(self) -> tuple[Roemte, ...]:
        """The parts that compete in the first round (all but sturk)."""
        return tuple(p for p in self.parts if p.name != "sturk")

    @property
    def top(self) -> int:
        """Natural rank index of the highest top card of the competing parts (8 if none): the size answer."""
        return min((p.top for p in self.competing), default=8)

    @property
    def top_char(self) -> str:
        """The size answer as a rank character (``"Q"``), SAKBOC 8.2."""
        return RANKS[self.top] if self.top < 8 else ""

    @property
    def in_trumps(self) -> bool:
        """True if a competing part with the top card is in trumps (Notes §VI: trumps rank high)."""
        return any(p.suit == self.trump and p.top == self.top for p in self.competing)


def call_key(call: RoemCall, ruleset: Ruleset = SAKBOC_2004) -> tuple[int, int, int, int]:
    """Return a sort key: a call outranks another iff its key is strictly greater.

    Outright roemte first (``Ruleset.outright_roemte`` order; two vyf-eenderse by size then trumps,
    SAKBOC 8.7), then points, then top card (size, SAKBOC 8.2), then trumps (Notes §VI).
    """
    o = call.outright
    if o is not None:
        order = ruleset.outright_roemte
        return (1 + len(order) - order.index(o), 8 - call.top, int(call.in_trumps), 0)
    return (0, call.points, 8 - call.top, int(call.in_trumps))


def outranks(new: RoemCall, standing: RoemCall | None, ruleset: Ruleset = SAKBOC_2004) -> bool:
    """True if ``new`` may overcall ``standing`` (strictly higher; on a tie the first stands, Notes §VI).

    A call with nothing competing (sturk alone) never overcalls; anything outranks no standing call.
    """
    if not new.competing:
        return False
    if standing is None or not standing.competing:
        return True
    return call_key(new, ruleset) > call_key(standing, ruleset)


def forbids_sizing(call: RoemCall) -> bool:
    """True if holding ``call`` forbids sizing others: a trump-ace-high sequence (SAKBOC 8.10)."""
    return any(p.suit == call.trump and p.top == ACE and p.name in SEQUENCE_NAMES for p in call.parts)


def needs_size(mine: RoemCall, standing: RoemCall | None) -> bool:
    """True if the holder of ``mine`` must size ``standing`` before overcalling it (SAKBOC 8.2, 8.10).

    Sizing is for equal points only: with more points one simply overroems, and with a trump-ace-high
    roemte one may not size (Notes §VI).
    """
    if standing is None or not standing.competing or mine.outright or standing.outright:
        return False
    return mine.points == standing.points and not forbids_sizing(mine)


def _sequence_parts(hand: int, trump: int, names: Sequence[str], ruleset: Ruleset) -> tuple[Roemte, ...] | None:
    """Best assignment of sequence names to the hand's runs (a long run may give shorter roemte)."""
    runs = []
    for suit in range(4):
        for top, length in suit_runs(hand >> (suit * 8) & 0xFF):
            if length >= 3:
                runs.append((suit, top, length))
    best: tuple[Roemte, ...] | None = None
    best_key: tuple[int, ...] | None = None
    for assign in itertools.product(range(len(runs)), repeat=len(names)):
        used = [0] * len(runs)
        parts = []
        ok = True
        for name, ri in zip(names, assign, strict=True):
            suit, top, length = runs[ri]
            need = _LENGTH[name]
            if used[ri] + need > length:
                ok = False
                break
            t = top + used[ri]
            used[ri] += need
            mask = ((1 << need) - 1) << (suit * 8 + t)
            pts = {"twenty": ruleset.twenty_points, "fifty": ruleset.fifty_points}.get(name, 0)
            parts.append(Roemte(name, suit, t, mask, pts))
        if not ok:
            continue
        cand = tuple(parts)
        key = call_key(RoemCall(cand, trump), ruleset)
        if best_key is None or key > best_key:
            best, best_key = cand, key
    return best


def call_from_names(
    names: str | Sequence[str], hand: int, trump: int, ruleset: Ruleset = SAKBOC_2004
) -> RoemCall | None:
    """Return the best call with these names that ``hand`` holds, or ``None`` if it holds none (a false roem).

    ``hand`` is the player's hand at the deal (roem is called with the first card; sturk from the cards
    held when the first of K/Q of trumps is played). A run may give a shorter roemte (a fifty holds a
    twenty); a run of six may give two twenties.

    :raises RoemCallError: if a name is not in :data:`CALL_NAMES`.
    """
    seq = [names] if isinstance(names, str) else list(names)
    for n in seq:
        if n not in CALL_NAMES:
            raise RoemCallError(f"{n!r} is not a roem call (one of {', '.join(CALL_NAMES)})")
    held = roemte_in_hand(hand, trump, ruleset)
    parts: list[Roemte] = []
    seq_names = [n for n in seq if n in _LENGTH]
    others = [n for n in seq if n not in _LENGTH]
    if seq_names:
        got = _sequence_parts(hand, trump, seq_names, ruleset)
        if got is None:
            return None
        parts.extend(got)
    for n in others:
        match = [r for r in held if r.name == n]
        if not match:
            return None
        parts.append(match[0])
    order = {n: i for i, n in enumerate(seq)}
    parts.sort(key=lambda p: order[p.name])
    return RoemCall(tuple(parts), trump)


def best_call(
    hand: int, trump: int, ruleset: Ruleset = SAKBOC_2004, *, with_sturk: bool = False
) -> RoemCall | None:
    """Return the highest call ``hand`` can make with its first card, or ``None`` if it holds no roemte.

    The highest outright roemte if any; otherwise every sequence combined (a combination is worth the
    sum, SAKBOC 8.13), largest first (SAKBOC 8.16). Sturk is added only if ``with_sturk`` (the first
    card is K or Q of trumps, Notes §VI).
    """
    held = roemte_in_hand(hand, trump, ruleset)
    outright = [r for r in held if r.outright]
    if outright:
        call = max((RoemCall((r,), trump) for r in outright), key=lambda c: call_key(c, ruleset))
        return call
    seqs = sorted((r for r in held if r.name in ("twenty", "fifty")), key=lambda r: (-r.points, r.top))
    parts = list(seqs)
    if with_sturk:
        parts += [r for r in held if r.name == "sturk"]
    return RoemCall(tuple(parts), trump) if parts else None


def sturk_due(card: int, hand: int, trump: int) -> bool:
    """True if playing ``card`` from ``hand`` (held before playing) is the moment to roem sturk:
    the card is K or Q of trumps and the other is still held, i.e. the first of them (Notes §VI).
    """
    k = trump * 8 + KING
    q = trump * 8 + QUEEN
    pair = 1 << k | 1 << q
    return (card == k or card == q) and hand & pair == pair
