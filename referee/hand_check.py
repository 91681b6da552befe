"""The referee console's bridge to the rules engine: check a hand record as it is entered, replay it
trick by trick, and adjudicate it.

Nothing here touches the database: it takes a hand record (the engine's JSON format ``klawerjas-hand``
version 1, see ``docs/hand-record.md``) as plain data and returns frozen values for the templates.

* :func:`hand_check` runs the engine on a *partial* record (the hand so far) and returns the replay:
  each trick's cards, winner and points, every card played against the rules with the rule it broke
  and the evidence (``SAKBOC 3.3``: "held 7D when diamonds were led, ..."), whose turn it is and which
  cards that seat may play. The card picker calls it after every card (an htmx request), so an illegal
  card is flagged at once.
* :func:`hand_adjudicate` runs ``engine.adjudicate.adjudicate`` on the finished record and returns the
  verdict as JSON-ready data (stored on :class:`referee.models.DisputedHand`).

"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from engine import cards, offences, play
from engine import record as record_mod
from engine import ruleset as rulesets
from engine.adjudicate import adjudicate
from referee.offence_texts import OFFENCE_DESCRIPTIONS

__all__ = [
    "DEALT_OTHERWISE",
    "HandCheck",
    "PlayFlag",
    "TrickReplay",
    "blank_record",
    "deal_pattern_choices",
    "hand_adjudicate",
    "hand_check",
    "offence_choices",
    "offence_counting",
    "offence_rules",
]

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Suit letter to its symbol, for display (``"TD"`` is shown as ``10♦``)."""


def card_label(name: str) -> str:
    """Return a card name as people read it: ``"TD"`` -> ``"10♦"``, ``"JH"`` -> ``"J♥"``."""
    rank, suit = name[0], name[1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit, suit)


@dataclass(frozen=True)
class PlayFlag:
    """An offence the engine found in the record so far.

    :ivar event: index of the event in the record's ``events`` (-1 for the cut and the deal).
    :ivar seat: the offender's seat (0..3).
    :ivar offence: the engine's offence code (``"versak"``).
    :ivar rule: the rule citations, joined (``"SAKBOC 3.3, Notes §VII"``).
    :ivar evidence: what shows it, in the engine's English (``"held AS when spades were led, and KD is ..."``).
    :ivar message: the finding's code (``"versak"``, ``"illegal_sizing.trump_ace_high"``) and :ivar params: its
        plain values, for the page to say it in the user's language (``referee.findings``).
    """

    event: int
    seat: int
    offence: str
    rule: str
    evidence: str
    message: str = ""
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class TrickPlay:
    """One card on a trick: who played it, the card, and the flag if it broke a rule."""

    event: int
    seat: int
    card: str
    points: int
    flag: PlayFlag | None = None

    @property
    def label(self) -> str:
        """The card as people read it (``10♦``)."""
        return card_label(self.card)

    @property
    def red(self) -> bool:
        """True for hearts and diamonds (drawn in red)."""
        return self.card[1] in "HD"


@dataclass(frozen=True)
class TrickReplay:
    """One trick (slaggie) as played: number 1..8, the plays in order, and once complete the winner.

    :ivar winner: the winning seat (None while the trick is open).
    :ivar points: card points on the trick, plus 5 for the last trick (vyf laas trek).
    """

    number: int
    plays: tuple[TrickPlay, ...]
    winner: int | None
    points: int

    @property
    def complete(self) -> bool:
        """True once all four seats have played to it."""
        return len(self.plays) == 4


@dataclass(frozen=True)
class HandCheck:
    """The engine's view of a (possibly partial) hand record.

    :ivar problems: why the record is malformed (the engine's messages, each naming where), else empty.
        When there are problems the other fields are empty.
    :ivar tricks: the tricks so far, in order.
    :ivar flags: every card played against the rules (versak, ondertroef), in order.
    :ivar next_seat: whose turn it is to play (None when the hand is over or the record is malformed).
    :ivar remaining: the cards each seat still holds, in natural order, by seat.
    :ivar legal: the cards ``next_seat`` may legally play now.
    :ivar totals: card points taken so far by team 0 (seats 0, 2) and team 1 (seats 1, 3).
    :ivar ended: True when the hand is over (8 tricks, or going on or a straf claim ended it).
    :ivar trump: the trump suit letter (``"H"``).
    :ivar last_event: index of the record's last event (-1 when there is none).
    """

    problems: tuple[str, ...] = ()
    tricks: tuple[TrickReplay, ...] = ()
    flags: tuple[PlayFlag, ...] = ()
    next_seat: int | None = None
    remaining: tuple[tuple[str, ...], ...] = ((), (), (), ())
    legal: tuple[str, ...] = ()
    totals: tuple[int, int] = (0, 0)
    ended: bool = False
    trump: str = ""
    last_event: int = -1

    @property
    def ok(self) -> bool:
        """True when the record is well formed (it may still hold offences)."""
        return not self.problems

    @property
    def last_flag(self) -> PlayFlag | None:
        """The flag on the last event, if the last event was an illegal card (shown at once)."""
        return self.flags[-1] if self.flags and self.flags[-1].event == self.last_event else None


def blank_record(*, seats: Sequence[Mapping[str, Any]], dealer: int = 3, meta: Mapping[str, Any] | None = None) -> dict:
    """Return the start of a hand record for the entry form: seats filled in, no cards yet.

    :param seats: four ``{"seat": n, "name": ..., "role": "telman"|"byspeler"}`` objects.
    """
    record: dict[str, Any] = {
        "format": "klawerjas-hand",
        "version": 1,
        "ruleset": "sakboc-2004",
        "seats": [dict(s) for s in seats],
        "dealer": dealer,
        "cut": None,
        "deal_pattern": None,
        "hands": [[], [], [], []],
        "trump_card": None,
        "state_before": {"old_play": False, "tallies": [0, 0], "roem": [0, 0], "strokes": [0, 0]},
        "events": [],
    }
    if meta:
        record["meta"] = dict(meta)
    return record


def _clean_for_engine(record: Mapping[str, Any]) -> dict[str, Any]:
    """Drop the optional fields the entry form leaves empty (``cut``, ``deal_pattern`` as None)."""
    out = dict(record)
    for key in ("cut", "deal_pattern"):
        if out.get(key) in (None, ""):
            out.pop(key, None)
    return out


def hand_check(*, record: Mapping[str, Any], ruleset: rulesets.Ruleset | None = None) -> HandCheck:
    """Adjudicate a (partial) hand record with the engine and flag every offence found so far.

    :param record: a hand record as decoded JSON; the events may stop anywhere.
    :param ruleset: the rules to apply (a competition's, ``matches.rules.competition_ruleset``); default: the record's.
    :returns: a :class:`HandCheck`; a malformed record gives ``problems`` (the engine's messages, e.g.
        ``"events[7].card: KD is not in seat 2's hand (seat 1 holds it)"``), never an exception.

    Everything comes from ``engine.adjudicate.adjudicate``: a card against the rules is ``versak`` (follow
    suit or trump, SAKBOC 3.3) or ``ondertroef`` (3.4), with the evidence; roem, sizing and going-on
    offences are flagged on their events too. The cards ``next_seat`` may play come from
    ``engine.play.legal_mask`` (the Boer never forced, 3.2).
    """
    try:
        parsed = record_mod.parse_record(_clean_for_engine(record))
        verdict = adjudicate(parsed, ruleset)
    except record_mod.HandRecordError as error:
        return HandCheck(problems=tuple(error.problems))
    ruleset = ruleset or rulesets.ruleset_by_name(parsed.ruleset)
    names = cards.CARD_NAMES
    trump = parsed.trump
    flags = tuple(
        PlayFlag(o.event if o.event is not None else -1, o.seat, o.code.value, ", ".join(o.rules), o.evidence,
                 found["message"], found["params"])
        for o, found in ((o, o.to_dict()) for o in verdict.offences)
    )
    by_event = {f.event: f for f in flags if f.event >= 0}
    held = [list(parsed.hand_cards[s]) for s in range(4)]
    play_events = [i for i, e in enumerate(parsed.events) if e.type == "play"]
    tricks: list[TrickReplay] = []
    n = 0
    for trick in verdict.tricks:
        plays = []
        for seat, card in trick.plays:
            index = play_events[n]
            n += 1
            held[seat].remove(card)
            points = play.card_points(card, trump, ruleset)
            plays.append(TrickPlay(index, seat, names[card], points, by_event.get(index)))
        tricks.append(TrickReplay(trick.index + 1, tuple(plays), trick.winner, trick.points))
    ended = verdict.complete or any(e.type in ("go_on", "straf") for e in parsed.events)
    next_seat: int | None = None
    legal: tuple[str, ...] = ()
    if not ended:
        if tricks and not tricks[-1].complete:
            open_trick = verdict.tricks[-1]
            next_seat = (open_trick.leader + len(open_trick.plays)) % 4
            on_trick = [c for _, c in open_trick.plays]
        else:
            next_seat = tricks[-1].winner if tricks else parsed.leader
            on_trick = []
        assert next_seat is not None  # the last trick is complete here, so it has its winner
        mask = play.legal_mask(cards.card_mask(held[next_seat]), on_trick, trump, ruleset)
        legal = tuple(names[c] for c in cards.cards_of(mask))
    return HandCheck(
        tricks=tuple(tricks),
        flags=flags,
        next_seat=next_seat,
        remaining=tuple(tuple(names[c] for c in sorted(h)) for h in held),
        legal=legal,
        totals=(verdict.teams[0].count, verdict.teams[1].count),
        ended=ended,
        trump=cards.SUITS[trump],
        last_event=len(parsed.events) - 1,
    )


def _jsonable(value: Any) -> Any:
    """Turn the engine's verdict (frozen dataclasses, enums, tuples) into JSON-ready data."""
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return _jsonable(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    return value


def hand_adjudicate(*, record: Mapping[str, Any], ruleset: rulesets.Ruleset | None = None) -> dict[str, Any]:
    """Adjudicate a finished hand record with ``engine.adjudicate.adjudicate`` under ``ruleset`` (a union's,
    ``matches.rules.competition_ruleset``; default: the record's) and return the verdict as JSON-ready data (the
    engine's own shape, stored as is on the disputed hand).

    :raises ValueError: the engine's ``HandRecordError`` (a ``ValueError``) for a malformed record; its
        ``problems`` say where.
    """
    parsed = record_mod.parse_record(_clean_for_engine(record))
    return _jsonable(adjudicate(parsed, ruleset))


def _rules_of(ruleset: rulesets.Ruleset | None) -> rulesets.Ruleset:
    return ruleset if ruleset is not None else rulesets.SAKBOC_2004


def offence_choices(ruleset: rulesets.Ruleset | None = None) -> list[tuple[str, Any]]:
    """The offences a straf can be claimed for under ``ruleset`` (a competition's,
    ``matches.rules.competition_ruleset``; default SAKBOC 2004), as ``(code, "description (rules)")`` form choices: only
    ``engine.offences.offences_for(ruleset)`` (Notes §VII and SAKBOC rules 2 to 12; never the relatives' bidding
    offences, nor the forfeits of SAKBOC 6.3, 6.4 and 7.1, which "are not punishable").
    """
    return [
        (offence.value, format_lazy("{} ({})", OFFENCE_DESCRIPTIONS.get(offence.value, offence.info.description),
                                    ", ".join(offence.info.rules)))
        for offence in offences.offences_for(_rules_of(ruleset))
    ]


SAKBOC_OFFENCE_CHOICES: list[tuple[str, Any]] = offence_choices()
"""The offence choices of SAKBOC 2004 (:func:`offence_choices` with the default ruleset): the API schema's
``StrafOffenceEnum`` (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``)."""


def offence_rules(code: str, ruleset: rulesets.Ruleset | None = None) -> tuple[str, ...]:
    """Return the rule citations of an offence code (``"versak"`` -> ``("SAKBOC 3.3", "Notes §VII")``).

    :param ruleset: when given (a union's), the code must be one of its offences (:func:`offence_choices`).
    :raises ValueError: if the code is not an offence (the engine's ``UnknownOffenceError``), or not one of
        ``ruleset``'s.
    """
    offence = offences.offence_from_code(code)
    if ruleset is not None and offence not in offences.offences_for(ruleset):
        raise offences.UnknownOffenceError(f"{code!r} is not an offence a straf may name under {ruleset.name}")
    return offence.info.rules


def offence_counting(code: str) -> bool:
    """True if ``code`` is a counting or going-on offence, which only the telman may punish (SAKBOC 6.8: "Under
    no circumstances shall a by-speler punish in connection with counting or with points scored on the boom");
    False for any other code, an unknown one or ``""`` too."""
    try:
        return offences.offence_from_code(code).info.counting if code else False
    except offences.UnknownOffenceError:
        return False


DEALT_OTHERWISE = "other"
"""The deal-pattern choice for a deal the ruleset does not allow (the dealer's offence ``wrong_deal``, SAKBOC 1.7):
the pattern itself is then typed in."""


def deal_pattern_choices(ruleset: rulesets.Ruleset | None = None) -> list[tuple[str, Any]]:
    """The deal patterns the console offers under ``ruleset`` (a union's; default SAKBOC 2004): "not recorded",
    the ruleset's own (``Ruleset.deal_pattern_names``: 3-3-2, 3-2-3, 2-3-3 under SAKBOC 1.7), and "dealt
    otherwise", for a wrong deal to be recorded as the pattern dealt."""
    return [
        ("", gettext_lazy("not recorded")),
        *((name, name) for name in _rules_of(ruleset).deal_pattern_names),
        (DEALT_OTHERWISE, gettext_lazy("dealt otherwise (the dealer's offence, SAKBOC 1.7): type the pattern")),
    ]
