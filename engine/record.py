"""Hand records: one hand of Klawerjas as it happened at the table, as versioned JSON.

A hand record (format ``"klawerjas-hand"``, version 1; documented in ``docs/hand-record.md`` with
the JSON Schema ``engine/schema/hand-record-1.json``) holds the seats and roles, the dealer, the cut,
the deal pattern, the four hands as dealt, the trump card and the ordered events of the hand: plays,
roem calls, size questions and answers, "good enough?" questions, going on and straf claims, and (issue 17,
all optional) every other moment a ruling depends on: a trick gathered and closed (SAKBOC 9.1), the
discards surrendered (10.2), cards thrown in (4.6), the score called and accepted (Notes §VII, §VIII),
points called (6.1-6.5) and the boem cleaned (7.2).

:func:`parse_record` validates a record by hand (standard library only) and returns frozen
dataclasses. Everything wrong is collected and raised at once as a :class:`HandRecordError` whose
:attr:`~HandRecordError.problems` each say *where*::

    events[7].card: 'XZ' is not a card
    hands[2]: 7 cards, expected 8
    trump_card: 'AH' is not in the dealer's hand

Only *impossible* records are malformed. Things that can really happen at a table (a cut of 1 card,
a 4-4 deal, a revoke, a roem not held, going on 3 strokes) are offences for :mod:`engine.adjudicate`
to find, not format errors.

>>> rec = parse_record(EXAMPLE_RECORD)
>>> rec.trump, rec.leader, len(rec.events)
(3, 0, 4)
>>> try:
...     parse_record({"format": "klawerjas-hand", "version": 1, "hands": []})
... except HandRecordError as e:
...     print(e.problems[:2])
('ruleset: missing', 'seats: missing')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.cards import CARD_NAMES, RANKS, CardParseError, parse_card
from engine.offences import Offence, UnknownOffenceError, offence_from_code
from engine.ruleset import RULESETS, Ruleset

__all__ = [
    "AFTER_HAND_EVENTS",
    "EXAMPLE_RECORD",
    "FORMAT",
    "ROEM_CALLS",
    "VERSION",
    "CleanBoemEvent",
    "CloseTrickEvent",
    "DiscardsSurrenderedEvent",
    "Event",
    "GoOnEvent",
    "GoodEnoughEvent",
    "HandRecord",
    "HandRecordError",
    "PlayEvent",
    "PointsCalledEvent",
    "RoemEvent",
    "ScoreAcceptedEvent",
    "ScoreCalledEvent",
    "Seat",
    "SizeAnswerEvent",
    "SizeEvent",
    "StateBefore",
    "StrafEvent",
    "ThrowInEvent",
    "load_record",
    "parse_record",
    "team_of",
]

FORMAT = "klawerjas-hand"
"""The ``format`` field of every hand record."""
VERSION = 1
"""The hand-record version this module reads and writes."""

ROEM_CALLS = (
    "twenty",
    "fifty",
    "vyf-eenderse",
    "four-jacks",
    "four-aces",
    "four-kings",
    "four-queens",
    "four-tens",
    "sturk",
)
"""Roem call names (Notes §II, SAKBOC 8.8, 8.13, 8.17); a combination is a list of them. ``four-tens``
is for the relatives (Rotterdam §Bonus Points, Wikipedia §Rules 4); ``sturk`` is also the Dutch *stuk*
and the German *Bella*, ``twenty`` the German *Terz*."""

BID_SUITS = ("S", "H", "D", "C", "no-trumps")
"""What a ``bid`` event may name: a suit letter, or ``no-trumps`` (index 4, :data:`engine.ruleset.NO_TRUMPS`)."""

Role = Literal["telman", "byspeler"]
GoodEnoughAnswer = Literal["good", "not-good"]
BoemSide = Literal["own", "opponents"]
PointsFor = Literal["own", "opponents", "non-playing"]
CleanPart = Literal["all", "part"]

AFTER_HAND_EVENTS = frozenset(
    {
        "straf",
        "close_trick",
        "discards_surrendered",
        "throw_in",
        "score_called",
        "score_accepted",
        "points_called",
        "clean_boem",
    }
)
"""Event types that may follow the end of the hand (a ``go_on`` or a ``straf``): claims, and what the counters
do after the play (close the last trick, surrender the discards, throw the cards in, call and accept the
score, call points, clean the boem)."""


def team_of(seat: int) -> int:
    """Return the team (0 for seats 0 and 2, 1 for seats 1 and 3) of a seat."""
    return seat & 1


class HandRecordError(ValueError):
    """A hand record is malformed: not JSON, wrong shape, impossible cards or events.

    :ivar problems: every problem found, each starting with where it is
        (``"events[7].card: 'XZ' is not a card"``).
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        more = f" (+{len(self.problems) - 1} more problems)" if len(self.problems) > 1 else ""
        first = self.problems[0] if self.problems else "unknown problem"
        super().__init__(f"malformed hand record: {first}{more}")


@dataclass(frozen=True)
class Seat:
    """A player at the table: seat number (0..3, order of play), name and role."""

    seat: int
    name: str
    role: Role


@dataclass(frozen=True)
class StateBefore:
    """The position before the hand: old play (ou jol) carry and the boem.

    :ivar old_play: True if this hand is old play (neither side reached 100 last hand).
    :ivar tallies: card points carried over per team (old play only; else 0, 0).
    :ivar roem: roem points carried over per team (old play only, SAKBOC 8.15; else 0, 0).
    :ivar strokes: strokes each team has on the boem (0..4).
    """

    old_play: bool = False
    tallies: tuple[int, int] = (0, 0)
    roem: tuple[int, int] = (0, 0)
    strokes: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    """Games scored over many hands (the relatives, ``hand_scoring == "makers"``): each team's score in
    the game so far, in the ruleset's unit (points, or Klammern match points)."""
    hands_played: int = 0
    """Hands already played in the game (Rotterdam: a game is 16 hands)."""
    boem_not_erased: tuple[int, ...] | None = None
    """SAKBOC 7.4 (issue 17): the teams whose strokes of the previous, completed boem were still on the board
    when this hand was dealt (``()``: all erased; None: not recorded). Each is that team's telman's offence
    ``boem_not_erased``, punishable only until the first trick of this hand is closed."""


@dataclass(frozen=True)
class PlayEvent:
    """``{"type": "play", "seat": 0, "card": "TD"}``: a seat plays a card (card int)."""

    seat: int
    card: int
    note: str = ""
    type: Literal["play"] = "play"


@dataclass(frozen=True)
class RoemEvent:
    """``{"type": "roem", "seat": 0, "call": "twenty"}``: a seat roems; ``calls`` holds one name from
    :data:`ROEM_CALLS`, or several for a combination (``("fifty", "twenty")``, SAKBOC 8.13)."""

    seat: int
    calls: tuple[str, ...]
    note: str = ""
    type: Literal["roem"] = "roem"


@dataclass(frozen=True)
class SizeEvent:
    """``{"type": "size", "seat": 1, "asked": 0}``: seat 1 asks how big seat 0's roemte is (SAKBOC 8.2)."""

    seat: int
    asked: int
    note: str = ""
    type: Literal["size"] = "size"


@dataclass(frozen=True)
class SizeAnswerEvent:
    """``{"type": "size_answer", "seat": 0, "top": "Q"}``: the sized seat names its roemte's highest
    card (SAKBOC 8.2); ``top`` is a natural rank index (A=0 .. 7=7)."""

    seat: int
    top: int
    note: str = ""
    type: Literal["size_answer"] = "size_answer"


@dataclass(frozen=True)
class GoodEnoughEvent:
    """``{"type": "good_enough", "seat": 0, "asked": [1], "answer": "good"}``: seat 0 asks seats ``asked``
    whether its side's roemte is good enough to go on (SAKBOC 8.20-8.25); ``answer`` is ``"good"``,
    ``"not-good"`` or None when not recorded."""

    seat: int
    asked: tuple[int, ...]
    answer: GoodEnoughAnswer | None = None
    note: str = ""
    type: Literal["good_enough"] = "good_enough"


@dataclass(frozen=True)
class GoOnEvent:
    """``{"type": "go_on", "seat": 0, "strokes": 2}``: the telman in ``seat`` goes on (pulls strokes).

    ``side`` (optional, default ``"own"``): the side of the boem the strokes are drawn on; ``"opponents"``
    is the wrong side, and the strokes go to the opponents (SAKBOC 7.1, not punishable).
    """

    seat: int
    strokes: int
    note: str = ""
    type: Literal["go_on"] = "go_on"
    side: BoemSide = "own"


@dataclass(frozen=True)
class StrafEvent:
    """``{"type": "straf", "claimant": 1, "accused": 0, "offence": "versak", "event": 7}``: a straf claim.

    ``offence`` is None when the claim named none: "af" need not name the offence (SAKBOC 6.7, DOMAIN.md
    interpretation 7); the record may then omit it or write ``null`` or ``""``. ``event`` optionally names
    the index of the event the claim is about.
    """

    claimant: int
    accused: int
    offence: Offence | None
    event: int | None = None
    note: str = ""
    type: Literal["straf"] = "straf"

    @property
    def seat(self) -> int:
        """The claimant (every event has a ``seat``)."""
        return self.claimant


@dataclass(frozen=True)
class BidEvent:
    """``{"type": "bid", "seat": 1, "suit": "H"}``: a seat makes trumps (takes the turned card's suit,
    names a suit, or ``"no-trumps"``); ``suit`` is 0..3, or 4 for no trumps. Relatives only
    (``trump_choice == "bidding"``)."""

    seat: int
    suit: int
    note: str = ""
    type: Literal["bid"] = "bid"


@dataclass(frozen=True)
class PassEvent:
    """``{"type": "pass", "seat": 1}``: a seat passes in the bidding (relatives only)."""

    seat: int
    note: str = ""
    type: Literal["pass"] = "pass"


@dataclass(frozen=True)
class DoubleEvent:
    """``{"type": "double", "seat": 1}``: Contra by a defender, then Re by a maker (Klammern)."""

    seat: int
    note: str = ""
    type: Literal["double"] = "double"


@dataclass(frozen=True)
class MarchEvent:
    """``{"type": "march", "seat": 0}``: the seat announces a march (Durchmarsch, Klammer Jass): its side
    will take every trick; made, it wins the whole match, else the opponents do (Klammern §March). Only in a
    ruleset with ``march_announcement``, before the first card, once a hand."""

    seat: int
    note: str = ""
    type: Literal["march"] = "march"


@dataclass(frozen=True)
class CloseTrickEvent:
    """``{"type": "close_trick", "seat": 1}``: the seat gathers and closes the trick just completed (SAKBOC 9.1).

    The trick's winners' telman closes it; a seat of the other side picking it up is the offence
    ``opponents_trick_picked_up`` (9.6), punishable until either counter closes another trick (9.2). A card
    played to the next trick before this event is ``played_before_trick_closed`` (9.8). A record without
    these events closes each trick with the next trick's first card (version 1 as before).
    """

    seat: int
    note: str = ""
    type: Literal["close_trick"] = "close_trick"


@dataclass(frozen=True)
class DiscardsSurrenderedEvent:
    """``{"type": "discards_surrendered", "seat": 0}``: after a going on, a counter surrenders the discards
    (the cards taken) for the opponents to check (SAKBOC 10.1, 10.2, 9.1)."""

    seat: int
    note: str = ""
    type: Literal["discards_surrendered"] = "discards_surrendered"


@dataclass(frozen=True)
class ThrowInEvent:
    """``{"type": "throw_in", "seat": 2}``: the seat throws its cards in. While play goes on (the hand not ended,
    cards still held) it is slacking (SAKBOC 4.6, Notes §VII); after the hand ends it gathers the cards."""

    seat: int
    note: str = ""
    type: Literal["throw_in"] = "throw_in"


@dataclass(frozen=True)
class ScoreCalledEvent:
    """``{"type": "score_called", "seat": 0, "count": [61, 85]}``: the counter in ``seat`` calls the score, what
    team 0 and team 1 count (None for a side not called), e.g. at the end of an ou jol hand (Notes §VIII) or
    when challenged (Notes §VII). A count other than the engine's is ``wrong_score_given``."""

    seat: int
    count: tuple[int | None, int | None]
    note: str = ""
    type: Literal["score_called"] = "score_called"


@dataclass(frozen=True)
class ScoreAcceptedEvent:
    """``{"type": "score_accepted", "seat": 1}``: the opposing counter accepts the last score called; a wrong
    score can no longer be punished after it (Notes §VIII, as issue 17 reads it)."""

    seat: int
    note: str = ""
    type: Literal["score_accepted"] = "score_accepted"


@dataclass(frozen=True)
class PointsCalledEvent:
    """``{"type": "points_called", "seat": 0, "points": 2, "for": "own"}``: the counter calls points (SAKBOC 6.1)
    for its own side, for the opponents (6.3: the points and the cards go to them) or for a team not playing
    (6.4: no points either side). Only 2 or 4 may be claimed (6.5); "af" must come first (6.7)."""

    seat: int
    points: int
    for_side: PointsFor = "own"
    note: str = ""
    type: Literal["points_called"] = "points_called"


@dataclass(frozen=True)
class CleanBoemEvent:
    """``{"type": "clean_boem", "seat": 0, "part": "all"}``: the counter cleans (erases) her/his side of the boem,
    all of it or part (SAKBOC 7.2): before the boem is completed, or before points are called, an offence."""

    seat: int
    part: CleanPart = "all"
    note: str = ""
    type: Literal["clean_boem"] = "clean_boem"


Event = (
    PlayEvent
    | RoemEvent
    | SizeEvent
    | SizeAnswerEvent
    | GoodEnoughEvent
    | GoOnEvent
    | StrafEvent
    | BidEvent
    | PassEvent
    | DoubleEvent
    | MarchEvent
    | CloseTrickEvent
    | DiscardsSurrenderedEvent
    | ThrowInEvent
    | ScoreCalledEvent
    | ScoreAcceptedEvent
    | PointsCalledEvent
    | CleanBoemEvent
)
"""Any event of a hand record."""


@dataclass(frozen=True)
class HandRecord:
    """One hand as it happened, parsed and validated by :func:`parse_record`.

    :ivar ruleset: ruleset name (``"sakboc-2004"``).
    :ivar seats: the four seats in seat order.
    :ivar dealer: the dealer's seat; ``(dealer + 1) % 4`` leads the first trick (Notes §IV).
    :ivar cut: cards cut (None when not recorded); outside 2..31 is an offence (SAKBOC 2.1).
    :ivar deal_pattern: cards per round, e.g. ``(3, 3, 2)`` (None when not recorded).
    :ivar hands: the cards dealt to each seat, as masks (index = seat).
    :ivar hand_cards: the same cards as tuples of card ints in recorded order.
    :ivar trump_card: the dealer's face-up last card; its suit is trump. In bidding games the turned
        card offered first (Wikipedia, Klammern), or None where no card is turned (Rotterdam).
    :ivar state_before: old play carry and boem position before the hand.
    :ivar events: the ordered events.
    :ivar meta: free-form information (match, table, hand number...), not interpreted.
    """

    ruleset: str
    seats: tuple[Seat, Seat, Seat, Seat]
    dealer: int
    cut: int | None
    deal_pattern: tuple[int, ...] | None
    hands: tuple[int, int, int, int]
    hand_cards: tuple[tuple[int, ...], ...]
    trump_card: int | None
    state_before: StateBefore = StateBefore()
    events: tuple[Event, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def trump(self) -> int:
        """The trump suit (0..3): the suit of the trump card.

        :raises ValueError: if no card was turned (bidding games: trump comes from the ``bid`` events).
        """
        if self.trump_card is None:
            raise ValueError("no trump card: trump is made by the bid events")
        return self.trump_card >> 3

    @property
    def leader(self) -> int:
        """The seat that leads the first trick: the dealer's right, ``(dealer + 1) % 4`` (Notes §IV)."""
        return (self.dealer + 1) % 4

    def telman(self, team: int) -> int:
        """Return the telman's seat of ``team`` (0 or 1)."""
        return next(s.seat for s in self.seats if s.role == "telman" and team_of(s.seat) == team)

    def role(self, seat: int) -> Role:
        """Return the role (``"telman"`` or ``"byspeler"``) of ``seat``."""
        return self.seats[seat].role

    def to_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data in the canonical version-1 form (round-trips)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "seats": [{"seat": s.seat, "name": s.name, "role": s.role} for s in self.seats],
            "dealer": self.dealer,
            "cut": self.cut,
            "deal_pattern": "-".join(map(str, self.deal_pattern)) if self.deal_pattern else None,
            "hands": [[CARD_NAMES[c] for c in cards] for cards in self.hand_cards],
            "trump_card": None if self.trump_card is None else CARD_NAMES[self.trump_card],
            "state_before": {
                "old_play": self.state_before.old_play,
                "tallies": list(self.state_before.tallies),
                "roem": list(self.state_before.roem),
                "strokes": list(self.state_before.strokes),
            },
            "events": [event_to_dict(e) for e in self.events],
        }
        if self.trump_card is None:
            del out["trump_card"]
        if self.state_before.scores != (0, 0):
            out["state_before"]["scores"] = list(self.state_before.scores)
        if self.state_before.hands_played:
            out["state_before"]["hands_played"] = self.state_before.hands_played
        if self.state_before.boem_not_erased is not None:
            out["state_before"]["boem_not_erased"] = list(self.state_before.boem_not_erased)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out


def event_to_dict(event: Event) -> dict[str, Any]:
    """Return one event as JSON-ready data (the inverse of parsing it)."""
    d: dict[str, Any]
    if isinstance(event, PlayEvent):
        d = {"type": "play", "seat": event.seat, "card": CARD_NAMES[event.card]}
    elif isinstance(event, RoemEvent):
        d = {"type": "roem", "seat": event.seat, "call": event.calls[0] if len(event.calls) == 1 else list(event.calls)}
    elif isinstance(event, SizeEvent):
        d = {"type": "size", "seat": event.seat, "asked": event.asked}
    elif isinstance(event, SizeAnswerEvent):
        d = {"type": "size_answer", "seat": event.seat, "top": RANKS[event.top]}
    elif isinstance(event, GoodEnoughEvent):
        d = {"type": "good_enough", "seat": event.seat, "asked": list(event.asked)}
        if event.answer is not None:
            d["answer"] = event.answer
    elif isinstance(event, GoOnEvent):
        d = {"type": "go_on", "seat": event.seat, "strokes": event.strokes}
        if event.side != "own":
            d["side"] = event.side
    elif isinstance(event, BidEvent):
        d = {"type": "bid", "seat": event.seat, "suit": BID_SUITS[event.suit]}
    elif isinstance(event, PassEvent):
        d = {"type": "pass", "seat": event.seat}
    elif isinstance(event, DoubleEvent):
        d = {"type": "double", "seat": event.seat}
    elif isinstance(event, MarchEvent):
        d = {"type": "march", "seat": event.seat}
    elif isinstance(event, CloseTrickEvent | DiscardsSurrenderedEvent | ThrowInEvent | ScoreAcceptedEvent):
        d = {"type": event.type, "seat": event.seat}
    elif isinstance(event, ScoreCalledEvent):
        d = {"type": "score_called", "seat": event.seat, "count": list(event.count)}
    elif isinstance(event, PointsCalledEvent):
        d = {"type": "points_called", "seat": event.seat, "points": event.points}
        if event.for_side != "own":
            d["for"] = event.for_side
    elif isinstance(event, CleanBoemEvent):
        d = {"type": "clean_boem", "seat": event.seat}
        if event.part != "all":
            d["part"] = event.part
    else:
        d = {"type": "straf", "claimant": event.claimant, "accused": event.accused}
        if event.offence is not None:
            d["offence"] = event.offence.value
        if event.event is not None:
            d["event"] = event.event
    if event.note:
        d["note"] = event.note
    return d


# ---------------------------------------------------------------------------------------------
# parsing and validation


_TOP_FIELDS = {
    "format",
    "version",
    "ruleset",
    "seats",
    "dealer",
    "cut",
    "deal_pattern",
    "hands",
    "trump_card",
    "state_before",
    "events",
    "meta",
}
_REQUIRED = ("format", "version", "ruleset", "seats", "dealer", "hands", "trump_card", "events")
_EVENT_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields) besides "type" and "note"
    "play": (frozenset({"seat", "card"}), frozenset()),
    "roem": (frozenset({"seat", "call"}), frozenset()),
    "size": (frozenset({"seat", "asked"}), frozenset()),
    "size_answer": (frozenset({"seat", "top"}), frozenset()),
    "good_enough": (frozenset({"seat", "asked"}), frozenset({"answer"})),
    "go_on": (frozenset({"seat", "strokes"}), frozenset({"side"})),
    "straf": (frozenset({"claimant", "accused"}), frozenset({"offence", "event"})),
    "bid": (frozenset({"seat", "suit"}), frozenset()),
    "pass": (frozenset({"seat"}), frozenset()),
    "double": (frozenset({"seat"}), frozenset()),
    "march": (frozenset({"seat"}), frozenset()),
    "close_trick": (frozenset({"seat"}), frozenset()),
    "discards_surrendered": (frozenset({"seat"}), frozenset()),
    "throw_in": (frozenset({"seat"}), frozenset()),
    "score_called": (frozenset({"seat", "count"}), frozenset()),
    "score_accepted": (frozenset({"seat"}), frozenset()),
    "points_called": (frozenset({"seat", "points"}), frozenset({"for"})),
    "clean_boem": (frozenset({"seat"}), frozenset({"part"})),
}
_PATTERN = re.compile(r"^[1-8](-[1-8]){0,7}$")


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(v: object, where: str, p: _Problems) -> int | None:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3:
        p.add(where, f"{v!r} is not a seat (0..3)")
        return None
    return v


def _card(v: object, where: str, p: _Problems) -> int | None:
    """``v`` as a card (``"TD"``), or None after adding the problem at ``where``."""
    try:
        if not isinstance(v, str):
            raise CardParseError(repr(v))
        return parse_card(v)
    except CardParseError:
        p.add(where, f"{v!r} is not a card")
        return None


def _pair(v: object, where: str, p: _Problems, lo: int, hi: int | None) -> tuple[int, int] | None:
    if isinstance(v, list) and len(v) == 2:
        a, b = v
        if _is_int(a) and _is_int(b) and a >= lo and b >= lo and (hi is None or (a <= hi and b <= hi)):
            return (int(a), int(b))
    rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
    p.add(where, f"{v!r} is not a pair of integers ({rng}) for teams 0 and 1")
    return None


def parse_record(data: Mapping[str, Any] | str | bytes) -> HandRecord:
    """Validate a hand record and return it as a :class:`HandRecord`.

    :param data: the decoded JSON object, or JSON text.
    :returns: the frozen record; card names parsed to ints, roles and events checked.
    :raises HandRecordError: listing every problem found, each naming where it is.
    """
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except RecursionError:
            raise HandRecordError(["(document): not JSON this engine reads: nested too deep"]) from None
        except ValueError as e:  # not JSON, not UTF-8, or an integer of more digits than int() converts
            raise HandRecordError([f"(document): not JSON: {e}"]) from None
    if not isinstance(data, Mapping):
        raise HandRecordError([f"(document): expected a JSON object, got {type(data).__name__}"])
    p = _Problems()
    if "format" in data and data["format"] != FORMAT:
        p.add("format", f"{data['format']!r}, expected {FORMAT!r}")
    for key in data:
        if key not in _TOP_FIELDS:
            p.add(str(key), "unknown field")
    rs = RULESETS.get(data["ruleset"]) if isinstance(data.get("ruleset"), str) else None
    turned = rs is None or rs.trump_choice == "turned-card" or rs.upcard
    for key in _REQUIRED:
        if key not in data and (key != "trump_card" or turned):
            p.add(key, "missing")
    if "version" in data and (not _is_int(data["version"]) or data["version"] != VERSION):
        p.add("version", f"{data['version']!r}, expected {VERSION} (this engine reads version {VERSION})")
    ruleset = data.get("ruleset", "sakboc-2004")
    if not isinstance(ruleset, str) or not ruleset:
        p.add("ruleset", f"{ruleset!r} is not a ruleset name")
        ruleset = "sakboc-2004"

    seats = _parse_seats(data.get("seats"), p) if "seats" in data else None
    dealer = _seat(data["dealer"], "dealer", p) if "dealer" in data else None

    cut = data.get("cut")
    if cut is not None and (not _is_int(cut) or not 0 <= cut <= 32):
        p.add("cut", f"{cut!r} is not a number of cards (0..32; outside 2..31 is an offence, SAKBOC 2.1)")
        cut = None

    pattern: tuple[int, ...] | None = None
    dp = data.get("deal_pattern")
    if dp is not None:
        if not isinstance(dp, str) or not _PATTERN.match(dp.strip()):
            p.add("deal_pattern", f"{dp!r} is not a deal pattern like '3-3-2'")
        else:
            pattern = tuple(int(x) for x in dp.strip().split("-"))
            if sum(pattern) != 8:
                p.add("deal_pattern", f"{dp!r} deals {sum(pattern)} cards each, expected 8")
                pattern = None

    hands, hand_cards = _parse_hands(data.get("hands"), p) if "hands" in data else (None, None)

    trump_card: int | None = None
    if "trump_card" in data and not (data["trump_card"] is None and not turned):
        tc = data["trump_card"]
        trump_card = _card(tc, "trump_card", p)
        if trump_card is not None and hands is not None and dealer is not None and not hands[dealer] >> trump_card & 1:
            p.add("trump_card", f"{tc!r} is not in the dealer's hand (seat {dealer})")

    state = _parse_state(data.get("state_before"), p)

    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        p.add("meta", "expected an object")
        meta = {}

    events: list[Event] = []
    if "events" in data:
        if not isinstance(data["events"], list):
            p.add("events", "expected a list")
        else:
            events = _parse_events(data["events"], p, seats, hands, rs)

    if p.items:
        raise HandRecordError(p.items)
    assert seats is not None and dealer is not None and hands is not None and hand_cards is not None
    assert trump_card is not None or not turned
    return HandRecord(
        ruleset=ruleset,
        seats=seats,
        dealer=dealer,
        cut=cut,
        deal_pattern=pattern,
        hands=hands,
        hand_cards=hand_cards,
        trump_card=trump_card,
        state_before=state,
        events=tuple(events),
        meta=dict(meta),
    )


def load_record(path: str | Path) -> HandRecord:
    """Read and validate a hand-record JSON file.

    :raises HandRecordError: if the file is not a valid hand record.
    :raises OSError: if the file cannot be read.
    """
    return parse_record(Path(path).read_bytes())


def _parse_seats(v: object, p: _Problems) -> tuple[Seat, Seat, Seat, Seat] | None:
    if not isinstance(v, list) or len(v) != 4:
        p.add("seats", "expected a list of 4 seats")
        return None
    out: list[Seat | None] = [None] * 4
    ok = True
    for i, s in enumerate(v):
        where = f"seats[{i}]"
        if not isinstance(s, Mapping):
            p.add(where, "expected an object with seat, name and role")
            ok = False
            continue
        for key in s:
            if key not in ("seat", "name", "role"):
                p.add(f"{where}.{key}", "unknown field")
                ok = False
        n = _seat(s.get("seat"), f"{where}.seat", p)
        name = s.get("name", "")
        if not isinstance(name, str):
            p.add(f"{where}.name", "expected a string")
            ok = False
        role = s.get("role")
        if role not in ("telman", "byspeler"):
            p.add(f"{where}.role", f"{role!r} is not a role (telman or byspeler)")
            ok = False
        if n is None:
            ok = False
            continue
        if out[n] is not None:
            p.add(f"{where}.seat", f"seat {n} is listed twice")
            ok = False
            continue
        if ok:
            out[n] = Seat(n, name, role)  # type: ignore[arg-type]
    if not ok or any(s is None for s in out):
        if ok:
            p.add("seats", "every seat 0..3 must be listed once")
        return None
    for team in (0, 1):
        roles = sorted(out[s].role for s in (team, team + 2))  # type: ignore[union-attr]
        if roles != ["byspeler", "telman"]:
            p.add("seats", f"team {team} (seats {team} and {team + 2}) needs one telman and one byspeler, got {roles}")
            return None
    return (out[0], out[1], out[2], out[3])  # type: ignore[return-value]


def _parse_hands(
    v: object, p: _Problems
) -> tuple[tuple[int, int, int, int] | None, tuple[tuple[int, ...], ...] | None]:
    if not isinstance(v, list) or len(v) != 4:
        p.add("hands", "expected a list of 4 hands (index = seat)")
        return None, None
    masks: list[int] = []
    lists: list[tuple[int, ...]] = []
    seen: dict[int, str] = {}
    ok = True
    for i, h in enumerate(v):
        where = f"hands[{i}]"
        if not isinstance(h, list):
            p.add(where, "expected a list of 8 cards")
            ok = False
            continue
        if len(h) != 8:
            p.add(where, f"{len(h)} cards, expected 8")
            ok = False
        mask = 0
        cards: list[int] = []
        for j, tok in enumerate(h):
            c = _card(tok, f"{where}[{j}]", p)
            if c is None:
                ok = False
                continue
            if c in seen:
                p.add(f"{where}[{j}]", f"{CARD_NAMES[c]} is dealt twice (also at {seen[c]})")
                ok = False
                continue
            seen[c] = f"{where}[{j}]"
            mask |= 1 << c
            cards.append(c)
        masks.append(mask)
        lists.append(tuple(cards))
    if not ok:
        return None, None
    return (masks[0], masks[1], masks[2], masks[3]), tuple(lists)


def _parse_state(v: object, p: _Problems) -> StateBefore:
    if v is None:
        return StateBefore()
    if not isinstance(v, Mapping):
        p.add("state_before", "expected an object")
        return StateBefore()
    for key in v:
        if key not in ("old_play", "tallies", "roem", "strokes", "scores", "hands_played", "boem_not_erased"):
            p.add(f"state_before.{key}", "unknown field")
    old = v.get("old_play", False)
    if not isinstance(old, bool):
        p.add("state_before.old_play", f"{old!r} is not true or false")
        old = False
    tallies = _pair(v.get("tallies", [0, 0]), "state_before.tallies", p, 0, None) or (0, 0)
    roem = _pair(v.get("roem", [0, 0]), "state_before.roem", p, 0, None) or (0, 0)
    strokes = _pair(v.get("strokes", [0, 0]), "state_before.strokes", p, 0, 4) or (0, 0)
    if not old:
        if tallies != (0, 0):
            p.add("state_before.tallies", "must be [0, 0] when old_play is false (nothing carries over)")
        if roem != (0, 0):
            p.add("state_before.roem", "must be [0, 0] when old_play is false (nothing carries over)")
    scores = _pair(v.get("scores", [0, 0]), "state_before.scores", p, 0, None) or (0, 0)
    hands_played = v.get("hands_played", 0)
    if not _is_int(hands_played) or hands_played < 0:
        p.add("state_before.hands_played", f"{hands_played!r} is not a number of hands")
        hands_played = 0
    not_erased: tuple[int, ...] | None = None
    raw_ne = v.get("boem_not_erased")
    if raw_ne is not None:
        if (
            isinstance(raw_ne, list)
            and all(_is_int(t) and t in (0, 1) for t in raw_ne)
            and len(set(raw_ne)) == len(raw_ne)
        ):
            not_erased = tuple(sorted(int(t) for t in raw_ne))
        else:
            p.add(
                "state_before.boem_not_erased",
                f"{raw_ne!r} is not a list of teams (0, 1) whose completed boem's strokes were not erased",
            )
    return StateBefore(old, tallies, roem, strokes, scores, int(hands_played), not_erased)


_AFTER_PLAY_TYPES = frozenset(
    {"close_trick", "discards_surrendered", "throw_in", "score_called", "score_accepted", "points_called", "clean_boem"}
)


class _EventState:
    """What the parser tracks across events (cards played, tricks, who was asked, when the hand ended)."""

    def __init__(self) -> None:
        self.played = [0, 0, 0, 0]
        self.trick_seats: set[int] = set()
        self.plays = 0  # cards played so far
        self.closed: dict[int, int] = {}  # trick index -> index of its close_trick event
        self.pending_size: dict[int, int] = {}  # asked seat -> index of the unanswered size question
        self.ended_at: int | None = None  # index of the first go_on or straf: the hand is over
        self.went_on_at: int | None = None
        self.marched: int | None = None  # index of the march event, if any
        self.thrown_in: dict[int, int] = {}  # seat -> index of its throw_in event
        self.score_call: tuple[int, int] | None = None  # (event index, seat) of the score call not yet accepted


def _parse_events(
    raw: list[Any],
    p: _Problems,
    seats: tuple[Seat, Seat, Seat, Seat] | None,
    hands: tuple[int, int, int, int] | None,
    rs: Ruleset | None = None,
) -> list[Event]:
    events: list[Event] = []
    st = _EventState()
    for i, e in enumerate(raw):
        where = f"events[{i}]"
        if not isinstance(e, Mapping):
            p.add(where, "expected an object")
            continue
        etype = e.get("type")
        if not isinstance(etype, str) or etype not in _EVENT_FIELDS:
            p.add(f"{where}.type", f"{etype!r} is not an event type ({', '.join(_EVENT_FIELDS)})")
            continue
        required, optional = _EVENT_FIELDS[etype]
        bad = False
        for key in e:
            if key not in required and key not in optional and key not in ("type", "note"):
                p.add(f"{where}.{key}", f"unknown field for a {etype} event")
                bad = True
        for key in sorted(required):
            if key not in e:
                p.add(f"{where}.{key}", "missing")
                bad = True
        note = e.get("note", "")
        if not isinstance(note, str):
            p.add(f"{where}.note", "expected a string")
            bad = True
        if bad:
            continue
        if etype in ("bid", "pass") and rs is not None and rs.trump_choice != "bidding":
            p.add(f"{where}.type", f"ruleset {rs.name!r} has no bidding (the turned card gives trump)")
            continue
        if etype == "double" and rs is not None and not rs.doubling:
            p.add(f"{where}.type", f"ruleset {rs.name!r} has no doubling")
            continue
        if etype == "march" and rs is not None and not rs.march_announcement:
            p.add(
                f"{where}.type",
                f"ruleset {rs.name!r} has no march announcement (a march is Klammern's, Klammern §March)",
            )
            continue
        if etype == "march" and any(st.played):
            p.add(
                where,
                "a march event after play began: a march is announced before the deal starts, so before the "
                "first card (Klammern §March)",
            )
            continue
        if etype == "march" and st.marched is not None:
            p.add(where, f"a second march event (events[{st.marched}] announced one; Klammern §March)")
            continue
        if etype in ("bid", "pass") and any(st.played):
            p.add(where, f"a {etype} event after play began (the bidding comes before the first card)")
            continue
        if st.ended_at is not None and etype not in AFTER_HAND_EVENTS:
            after = ", ".join(sorted(AFTER_HAND_EVENTS))
            p.add(where, f"a {etype} event after the hand ended at events[{st.ended_at}] (only {after} may follow)")
            continue
        ev = _parse_event(etype, e, where, p, seats, hands, st, i, note)
        if ev is None:
            continue
        if isinstance(ev, GoOnEvent | StrafEvent) and st.ended_at is None:
            st.ended_at = i
        if isinstance(ev, GoOnEvent) and st.went_on_at is None:
            st.went_on_at = i
        if isinstance(ev, MarchEvent):
            st.marched = i
        events.append(ev)
    return events


def _telman_seat(seat: int, seats: tuple[Seat, Seat, Seat, Seat] | None, where: str, what: str, p: _Problems) -> bool:
    """True if ``seat`` is a telman (or the seats are unknown); else add the problem and return False."""
    if seats is not None and seats[seat].role != "telman":
        p.add(f"{where}.seat", f"seat {seat} is a byspeler; only the telman {what}")
        return False
    return True


def _parse_after_play(
    etype: str,
    e: Mapping[str, Any],
    where: str,
    p: _Problems,
    seats: tuple[Seat, Seat, Seat, Seat] | None,
    hands: tuple[int, int, int, int] | None,
    st: _EventState,
    index: int,
    note: str,
    seat: int,
) -> Event | None:
    """The issue-17 events: the moments after (and around) the play that a ruling depends on."""
    if etype == "close_trick":
        done = st.plays // 4
        if done == 0:
            p.add(where, f"no completed trick to close (trick 1 has {st.plays} card(s))")
            return None
        last = done - 1
        if last in st.closed:
            open_cards = st.plays % 4
            p.add(
                where,
                f"trick {last + 1} is already closed (events[{st.closed[last]}])"
                + (f" and trick {last + 2} has {open_cards} card(s)" if open_cards else ""),
            )
            return None
        st.closed[last] = index
        return CloseTrickEvent(seat, note)
    if etype == "discards_surrendered":
        if st.went_on_at is None:
            p.add(where, "discards are surrendered after going on (SAKBOC 10.2), and no go_on comes before")
            return None
        if not _telman_seat(seat, seats, where, "surrenders the discards (SAKBOC 10.2)", p):
            return None
        return DiscardsSurrenderedEvent(seat, note)
    if etype == "throw_in":
        if seat in st.thrown_in:
            p.add(where, f"seat {seat} already threw its cards in at events[{st.thrown_in[seat]}]")
            return None
        st.thrown_in[seat] = index
        return ThrowInEvent(seat, note)
    if etype == "score_called":
        if not _telman_seat(seat, seats, where, "(counter) calls the score", p):
            return None
        raw = e["count"]
        ok = isinstance(raw, list) and len(raw) == 2 and any(c is not None for c in raw)
        ok = ok and all(c is None or (_is_int(c) and 0 <= c <= 10_000) for c in raw)
        if not ok:
            p.add(
                f"{where}.count",
                f"{raw!r} is not a pair of counts [team 0, team 1] (whole numbers; null for a side not called)",
            )
            return None
        st.score_call = (index, seat)
        return ScoreCalledEvent(seat, (raw[0], raw[1]), note)
    if etype == "score_accepted":
        if st.score_call is None:
            p.add(where, "no score was called for this seat to accept (a score_called event comes first)")
            return None
        called_at, caller = st.score_call
        if team_of(seat) == team_of(caller):
            p.add(
                f"{where}.seat",
                f"seat {seat} is on the side that called the score at events[{called_at}]; the opposing counter "
                "accepts it",
            )
            return None
        if not _telman_seat(seat, seats, where, "(counter) accepts the score", p):
            return None
        st.score_call = None
        return ScoreAcceptedEvent(seat, note)
    if etype == "points_called":
        if not _telman_seat(seat, seats, where, "(counter) calls points (SAKBOC 6.1, 6.8)", p):
            return None
        pts = e["points"]
        if not _is_int(pts) or not 0 <= pts <= 100:
            p.add(f"{where}.points", f"{pts!r} is not a number of points (0..100; other than 2 or 4 is an offence)")
            return None
        side = e.get("for", "own")
        if side not in ("own", "opponents", "non-playing"):
            p.add(f"{where}.for", f"{side!r} is not 'own', 'opponents' or 'non-playing' (SAKBOC 6.3, 6.4)")
            return None
        return PointsCalledEvent(seat, int(pts), side, note)
    # clean_boem
    if not _telman_seat(seat, seats, where, "(counter) cleans the boem", p):
        return None
    part = e.get("part", "all")
    if part not in ("all", "part"):
        p.add(f"{where}.part", f"{part!r} is not 'all' or 'part' (SAKBOC 7.2)")
        return None
    return CleanBoemEvent(seat, part, note)


def _parse_event(
    etype: str,
    e: Mapping[str, Any],
    where: str,
    p: _Problems,
    seats: tuple[Seat, Seat, Seat, Seat] | None,
    hands: tuple[int, int, int, int] | None,
    st: _EventState,
    index: int,
    note: str,
) -> Event | None:
    n_problems = len(p.items)
    if etype == "straf":
        claimant = _seat(e["claimant"], f"{where}.claimant", p)
        accused = _seat(e["accused"], f"{where}.accused", p)
        offence: Offence | None = None
        raw_offence = e.get("offence")
        if raw_offence is not None and raw_offence != "":
            try:
                if not isinstance(raw_offence, str):
                    raise UnknownOffenceError(repr(raw_offence))
                offence = offence_from_code(raw_offence)
            except UnknownOffenceError:
                p.add(
                    f"{where}.offence",
                    f'{raw_offence!r} is not an offence code (see engine/offences.py; omit it, or null or "", '
                    'for an "af" that names none)',
                )
        about = e.get("event")
        if about is not None and (not _is_int(about) or not 0 <= about < index):
            p.add(f"{where}.event", f"{about!r} is not the index of an earlier event")
        if claimant is not None and accused is not None and team_of(claimant) == team_of(accused):
            p.add(f"{where}.accused", f"seat {accused} is seat {claimant}'s partner (a straf is against an opponent)")
        if len(p.items) > n_problems:
            return None
        assert claimant is not None and accused is not None
        return StrafEvent(claimant, accused, offence, about, note)

    seat = _seat(e["seat"], f"{where}.seat", p)
    if seat is None:
        return None
    if etype in _AFTER_PLAY_TYPES:
        return _parse_after_play(etype, e, where, p, seats, hands, st, index, note, seat)
    if etype == "bid":
        suit = e["suit"]
        name = suit.strip().upper() if isinstance(suit, str) else None
        if name in ("NO-TRUMPS", "NT", "NO TRUMPS", "SANS"):
            name = "no-trumps"
        if name not in BID_SUITS:
            p.add(f"{where}.suit", f"{suit!r} is not a suit (S H D C) or 'no-trumps'")
            return None
        return BidEvent(seat, BID_SUITS.index(name), note)
    if etype == "pass":
        return PassEvent(seat, note)
    if etype == "double":
        return DoubleEvent(seat, note)
    if etype == "march":
        return MarchEvent(seat, note)
    if etype == "play":
        c = _card(e["card"], f"{where}.card", p)
        if c is None:
            return None
        if hands is not None:
            if not hands[seat] >> c & 1:
                holder = next(s for s in range(4) if hands[s] >> c & 1)
                p.add(f"{where}.card", f"{CARD_NAMES[c]} is not in seat {seat}'s hand (seat {holder} holds it)")
                return None
            if st.played[seat] >> c & 1:
                p.add(f"{where}.card", f"{CARD_NAMES[c]} was already played by seat {seat}")
                return None
        if seat in st.thrown_in:
            p.add(f"{where}.seat", f"seat {seat} threw its cards in at events[{st.thrown_in[seat]}] and cannot play")
            return None
        if seat in st.trick_seats:
            p.add(f"{where}.seat", f"seat {seat} already played to this trick")
            return None
        st.played[seat] |= 1 << c
        st.trick_seats.add(seat)
        st.plays += 1
        if len(st.trick_seats) == 4:
            st.trick_seats.clear()
        return PlayEvent(seat, c, note)
    if etype == "roem":
        call = e["call"]
        calls = [call] if isinstance(call, str) else call
        if not isinstance(calls, list) or not calls or len(calls) > 4:
            p.add(f"{where}.call", f"{call!r} is not a roem call or a list of 1..4 calls")
            return None
        norm: list[str] = []
        for j, c in enumerate(calls):
            name = c.strip().lower().replace("_", "-").replace(" ", "-") if isinstance(c, str) else c
            if name not in ROEM_CALLS:
                sub = f"{where}.call" if isinstance(call, str) else f"{where}.call[{j}]"
                p.add(sub, f"{c!r} is not a roem call ({', '.join(ROEM_CALLS)})")
                return None
            norm.append(name)
        if norm.count("sturk") > 1:
            p.add(f"{where}.call", "sturk appears twice")
            return None
        return RoemEvent(seat, tuple(norm), note)
    if etype == "size":
        asked = _seat(e["asked"], f"{where}.asked", p)
        if asked is None:
            return None
        if asked == seat:
            p.add(f"{where}.asked", "a player cannot size her/his own roemte")
            return None
        st.pending_size[asked] = index
        return SizeEvent(seat, asked, note)
    if etype == "size_answer":
        top = e["top"]
        t = top.strip().upper() if isinstance(top, str) else None
        if t == "10":
            t = "T"
        if t is None or len(t) != 1 or t not in RANKS:
            p.add(f"{where}.top", f"{top!r} is not a rank (A K Q J T 9 8 7)")
            return None
        if seat not in st.pending_size:
            p.add(where, f"seat {seat} answers a size question nobody asked")
            return None
        del st.pending_size[seat]
        return SizeAnswerEvent(seat, RANKS.index(t), note)
    if etype == "good_enough":
        asked_raw = e["asked"]
        if not isinstance(asked_raw, list) or not asked_raw:
            p.add(f"{where}.asked", f"{asked_raw!r} is not a non-empty list of seats")
            return None
        asked_list: list[int] = []
        for j, a in enumerate(asked_raw):
            s = _seat(a, f"{where}.asked[{j}]", p)
            if s is None:
                return None
            if s == seat or s in asked_list:
                p.add(f"{where}.asked[{j}]", f"seat {s} cannot be asked here (own seat or listed twice)")
                return None
            asked_list.append(s)
        answer = e.get("answer")
        if answer is not None and answer not in ("good", "not-good"):
            p.add(f"{where}.answer", f"{answer!r} is not 'good' or 'not-good'")
            return None
        return GoodEnoughEvent(seat, tuple(asked_list), answer, note)
    # go_on
    strokes = e["strokes"]
    if not _is_int(strokes) or not 1 <= strokes <= 5:
        p.add(f"{where}.strokes", f"{strokes!r} is not a number of strokes (1..5; more than 2 is an offence)")
        return None
    if not _telman_seat(seat, seats, where, "goes on", p):
        return None
    side = e.get("side", "own")
    if side not in ("own", "opponents"):
        p.add(f"{where}.side", f"{side!r} is not 'own' or 'opponents' (the side of the boem, SAKBOC 7.1)")
        return None
    return GoOnEvent(seat, int(strokes), note, side=side)


EXAMPLE_RECORD: dict[str, Any] = {
    "format": FORMAT,
    "version": VERSION,
    "ruleset": "sakboc-2004",
    "seats": [
        {"seat": 0, "name": "Ayesha Jacobs", "role": "telman"},
        {"seat": 1, "name": "Brandon Petersen", "role": "telman"},
        {"seat": 2, "name": "Chantal Adams", "role": "byspeler"},
        {"seat": 3, "name": "Dawood Hendricks", "role": "byspeler"},
    ],
    "dealer": 3,
    "cut": 12,
    "deal_pattern": "3-3-2",
    "hands": [
        ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
        ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
        ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"],
    ],
    "trump_card": "7C",
    "events": [
        {"type": "play", "seat": 0, "card": "AS"},
        {"type": "play", "seat": 1, "card": "AH"},
        {"type": "play", "seat": 2, "card": "AD"},
        {"type": "play", "seat": 3, "card": "7C"},
    ],
}
"""A small valid record (doctest and documentation)."""
