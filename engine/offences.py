"""Punishable offences of SAKBOC Klawerjas: codes, rule citations and who may punish them.

Every offence the product knows has a stable code (the value of :class:`Offence`, used in hand
records as ``{"type": "straf", ..., "offence": "versak"}`` and in verdicts), and an
:class:`OffenceInfo` saying

* which rules it cites (``"SAKBOC 3.3"``, ``"Notes §VII"``);
* whether it is a *counting* offence, which only the telman may punish (SAKBOC 6.8: "Under no
  circumstances shall a by-speler punish in connection with counting or with points scored on the
  boom"; Notes §II "Byspeler", §VII);
* whether a hand record can show it. Offences a record cannot show (talking, signs, tapping, flipped
  cards, ...) are the referee's judgement (DOMAIN.md interpretation 5): the engine records a claim of
  them but never decides it;
* whether it is *punishable* at all. A few mistakes are not punished but forfeit something (SAKBOC 6.3,
  6.4: points called for the wrong team; 7.1: a stroke on the wrong side of the boem): the engine applies
  the forfeit, and a straf claimed for one of them is a wrong straf ("it is not punishable", 7.1).

The list follows Notes §VII "List of Punishable Offences", Notes §II, and every SAKBOC rule 1.16 to 11.3
that names an offence, a penalty or a forfeit at the table (the match rules 1.1-1.15 and 12 are the
referee's and the union's, not a straf). :func:`offences_for` gives the ones a ruleset's console offers.

>>> Offence("versak").info.rules
('SAKBOC 3.3', 'Notes §VII')
>>> Offence.GO_ON_NOT_ALLOWED.info.counting
True
>>> Offence.SIGNS.info.recordable
False
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "OFFENCE_INFO",
    "RELATIVES_OFFENCES",
    "Offence",
    "OffenceInfo",
    "UnknownOffenceError",
    "offence_from_code",
    "offences_for",
]


class UnknownOffenceError(ValueError):
    """A string is not an offence code of :class:`Offence`; the message names it."""


class Offence(StrEnum):
    """Offence codes (stable strings, used in hand records and verdicts).

    Shown by a record (the adjudicator finds them):

    * ``versak``: revoke, not following the suit led while holding it and not trumping (SAKBOC 3.3).
    * ``ondertroef``: undertrump on a side-suit trick already trumped higher, holding other cards (3.4).
    * ``out_of_turn``: playing out of turn; punishable only until that trick is closed (4.4).
    * ``wrong_cut``: cutting fewer than 2 or more than 31 cards (2.1, Notes §IV).
    * ``wrong_deal``: a deal other than 3-3-2, 3-2-3 or 2-3-3 (1.7, Notes §IV).
    * ``false_roem``: roeming roemte the player does not hold (Notes §VI, §VII).
    * ``roem_not_with_first_card``: roem before the card is played (4.3) or after the first round
      (Notes §VI).
    * ``sturk_wrong_time``: sturk not roemed with the first of K/Q of trumps played (Notes §II, §VI).
    * ``overroem_not_higher``: a later roem that does not outrank the standing one (Notes §VI, 8.2).
    * ``overroem_without_sizing``: an equal-value overroem without sizing first, when not holding a
      trump-ace-high roemte (Notes §VI, 8.2).
    * ``illegal_sizing``: sizing with a trump-ace-high roemte (8.10), after the highest roemte was given
      (8.5), with a roemte of higher value (Notes §VI), or with no roemte that could overroem (8.2, 8.26).
    * ``wrong_size_answer``: naming other than the highest card of one's roemte (8.2).
    * ``outright_roem_then_played``: a counter who roemed vyf-eenderse or four of a kind that was good
      and then played a card (8.7).
    * ``good_enough_wrongly``: "good enough?" asked when the roemte cannot reach 100 (8.20), of an
      opponent who has already played (8.23, 8.25), or on sturk in old play before a trick (Notes §VI).
    * ``go_on_not_allowed``: going on under 100, or in old play without a trick (8.19), with sturk
      before a trick in old play (8.12), after two fifties before a trick (8.21), or without asking
      "good enough?" in old play (8.24) (Notes §VII).
    * ``go_on_too_many``: going on by more strokes than allowed (Notes §VII).
    * ``three_strokes``: pulling on 3 strokes (7.3).
    * ``byspeler_punishes_counting``: a byspeler punishing a counting offence (6.8, Notes §VII).
    * ``wrong_straf``: punishing where there is no offence, or too late (Notes §VII; 4.4, 7.4, 9.2).
    * ``opponents_trick_picked_up``: a ``close_trick`` event by a seat whose side did not win the trick
      (9.6); punishable until either counter closes another trick (9.2).
    * ``played_before_trick_closed``: a card played before the previous trick's ``close_trick`` (9.8).
    * ``slacking``: a ``throw_in`` of unplayed cards while play goes on (4.6, Notes §VII).
    * ``wrong_score_given``: a ``score_called`` other than the count (Notes §VII); punishable until the
      opposing counter accepts the score (``score_accepted``, Notes §VIII as issue 17 reads it).
    * ``wrong_points_claimed``: ``points_called`` of other than 2 or 4 (6.5); the points are disallowed.
    * ``points_without_af``: points called for one's own side that has neither said "af" nor completed
      the boem (6.7).
    * ``boem_cleaned``: a ``clean_boem`` before the boem was completed or before points were called (7.2).
    * ``boem_not_erased``: the strokes of a completed boem still up when the hand was dealt
      (``state_before.boem_not_erased``); punishable until the first trick is closed (7.4).
    * ``illegal_bid``: the relatives' bidding: out of turn, a suit the round does not offer, after the
      bidding ended (cited to the ruleset's own section, e.g. "Klammern §Deal and trumps").
    * ``illegal_double``: Contra/Re out of order or too late (Klammern §First trick).

    Not punishable, a forfeit the engine applies (a claim of them is a wrong straf):
    ``stroke_wrong_side`` (7.1: the strokes go to the opponents), ``points_for_opponents`` (6.3: the
    points and the cards go to the opponents), ``points_for_non_playing_team`` (6.4: no points either
    side; the caller keeps the cards).

    The referee's judgement (a record cannot show them, DOMAIN.md interpretation 5): ``signs``
    (talking or signs, 1.16), ``tapping`` (failure to play in time, 5.1), ``flipped_cards`` (4.5),
    ``played_closed`` (4.1), ``more_than_one_card`` (4.2), ``trump_card_picked_up`` (3.1),
    ``roemte_not_closed`` (3.5), ``wrong_roemte_cards`` (8.11, 8.16), ``overcalled_roemte_not_cancelled``
    (8.3, 8.14, 8.22), ``sturk_cancelled`` (Notes §II), ``roem_combination_demanded`` (Notes §II),
    ``wrong_roem_term`` (8.8), ``information_sought`` (8.26), ``stroke_between_lines`` (7.5),
    ``tricks_out_of_order`` (9.1), ``first_trick_not_closed`` (9.3), ``opponents_trick_seen`` (9.5),
    ``discards_not_surrendered`` (10.2), ``telman_changed`` (11.3), ``unnecessary_knocking`` (6.7).
    """

    VERSAK = "versak"
    ONDERTROEF = "ondertroef"
    OUT_OF_TURN = "out_of_turn"
    WRONG_CUT = "wrong_cut"
    WRONG_DEAL = "wrong_deal"
    FALSE_ROEM = "false_roem"
    ROEM_NOT_WITH_FIRST_CARD = "roem_not_with_first_card"
    STURK_WRONG_TIME = "sturk_wrong_time"
    OVERROEM_NOT_HIGHER = "overroem_not_higher"
    OVERROEM_WITHOUT_SIZING = "overroem_without_sizing"
    ILLEGAL_SIZING = "illegal_sizing"
    WRONG_SIZE_ANSWER = "wrong_size_answer"
    OUTRIGHT_ROEM_THEN_PLAYED = "outright_roem_then_played"
    GOOD_ENOUGH_WRONGLY = "good_enough_wrongly"
    GO_ON_NOT_ALLOWED = "go_on_not_allowed"
    GO_ON_TOO_MANY = "go_on_too_many"
    THREE_STROKES = "three_strokes"
    BYSPELER_PUNISHES_COUNTING = "byspeler_punishes_counting"
    WRONG_STRAF = "wrong_straf"
    ILLEGAL_BID = "illegal_bid"
    ILLEGAL_DOUBLE = "illegal_double"
    # the referee's judgement
    SIGNS = "signs"
    SLACKING = "slacking"
    TAPPING = "tapping"
    FLIPPED_CARDS = "flipped_cards"
    PLAYED_CLOSED = "played_closed"
    MORE_THAN_ONE_CARD = "more_than_one_card"
    PLAYED_BEFORE_TRICK_CLOSED = "played_before_trick_closed"
    TRUMP_CARD_PICKED_UP = "trump_card_picked_up"
    WRONG_ROEMTE_CARDS = "wrong_roemte_cards"
    OVERCALLED_ROEMTE_NOT_CANCELLED = "overcalled_roemte_not_cancelled"
    WRONG_ROEM_TERM = "wrong_roem_term"
    INFORMATION_SOUGHT = "information_sought"
    WRONG_SCORE_GIVEN = "wrong_score_given"
    WRONG_POINTS_CLAIMED = "wrong_points_claimed"
    BOEM_CLEANED = "boem_cleaned"
    STROKE_BETWEEN_LINES = "stroke_between_lines"
    OPPONENTS_TRICK_PICKED_UP = "opponents_trick_picked_up"
    TELMAN_CHANGED = "telman_changed"
    UNNECESSARY_KNOCKING = "unnecessary_knocking"
    # issue 17: the rest of the straf list
    POINTS_WITHOUT_AF = "points_without_af"
    BOEM_NOT_ERASED = "boem_not_erased"
    ROEMTE_NOT_CLOSED = "roemte_not_closed"
    STURK_CANCELLED = "sturk_cancelled"
    ROEM_COMBINATION_DEMANDED = "roem_combination_demanded"
    TRICKS_OUT_OF_ORDER = "tricks_out_of_order"
    FIRST_TRICK_NOT_CLOSED = "first_trick_not_closed"
    OPPONENTS_TRICK_SEEN = "opponents_trick_seen"
    DISCARDS_NOT_SURRENDERED = "discards_not_surrendered"
    # not punishable: forfeits
    STROKE_WRONG_SIDE = "stroke_wrong_side"
    POINTS_FOR_OPPONENTS = "points_for_opponents"
    POINTS_FOR_NON_PLAYING_TEAM = "points_for_non_playing_team"

    @property
    def info(self) -> OffenceInfo:
        """The :class:`OffenceInfo` (rules, counting, recordable, description) of this offence."""
        return OFFENCE_INFO[self]


@dataclass(frozen=True)
class OffenceInfo:
    """What the rules say about one offence.

    :ivar rules: rule citations, most specific first (``("SAKBOC 3.3", "Notes §VII")``).
    :ivar description: one English line for people (UI, CLI).
    :ivar counting: True if only the telman may punish it (SAKBOC 6.8): counting, going on, the boem
        and the roemte cards.
    :ivar recordable: True if a hand record can show it, so the adjudicator decides it; False if it is
        the referee's judgement (DOMAIN.md interpretation 5).
    :ivar punishable: False for a forfeit that is "not punishable" (SAKBOC 6.3, 6.4, 7.1): the engine
        applies the forfeit, and a straf claimed for it is a wrong straf.
    :ivar shown_by: the record events (or ``state_before`` fields) that can show it, for an offence a
        version-1 record may lack them for (``("close_trick",)``): a record holding none of them cannot show
        the offence, so a claim of it is the referee's judgement, as before issue 17. Empty: any record shows it.
    """

    rules: tuple[str, ...]
    description: str
    counting: bool = False
    recordable: bool = True
    punishable: bool = True
    shown_by: tuple[str, ...] = ()

    @property
    def clause(self) -> str:
        """The most specific rule citation (``"SAKBOC 3.3"``)."""
        return self.rules[0]


def _i(
    rules: str,
    description: str,
    *,
    counting: bool = False,
    recordable: bool = True,
    punishable: bool = True,
    shown_by: tuple[str, ...] = (),
) -> OffenceInfo:
    return OffenceInfo(
        tuple(r.strip() for r in rules.split(";")), description, counting, recordable, punishable, shown_by
    )


OFFENCE_INFO: dict[Offence, OffenceInfo] = {
    Offence.VERSAK: _i("SAKBOC 3.3; Notes §VII", "revoke (versak): did not follow the suit led, nor trump"),
    Offence.ONDERTROEF: _i("SAKBOC 3.4; Notes §II", "undertrump (ondertroef) while holding other cards"),
    Offence.OUT_OF_TURN: _i("SAKBOC 4.4; Notes §VII", "played out of turn"),
    Offence.WRONG_CUT: _i("SAKBOC 2.1; Notes §IV; Notes §VII", "cut fewer than 2 or more than 31 cards"),
    Offence.WRONG_DEAL: _i("SAKBOC 1.7; Notes §IV; Notes §VII", "dealt other than 3-3-2, 3-2-3 or 2-3-3"),
    Offence.FALSE_ROEM: _i("Notes §VI; Notes §VII", "roemed roemte not held"),
    Offence.ROEM_NOT_WITH_FIRST_CARD: _i(
        "SAKBOC 4.3; Notes §VI", "roemed before playing the card, or after the first round"
    ),
    Offence.STURK_WRONG_TIME: _i(
        "Notes §II; Notes §VI", "sturk roemed other than with the first of King/Queen of trumps played"
    ),
    Offence.OVERROEM_NOT_HIGHER: _i("Notes §VI; SAKBOC 8.2", "overroemed with roemte that does not outrank"),
    Offence.OVERROEM_WITHOUT_SIZING: _i("Notes §VI; SAKBOC 8.2", "overroemed equal roemte without sizing it first"),
    Offence.ILLEGAL_SIZING: _i("SAKBOC 8.10; SAKBOC 8.5; SAKBOC 8.2; Notes §VI", "sized roemte when not allowed"),
    Offence.WRONG_SIZE_ANSWER: _i("SAKBOC 8.2", "named a card other than the highest of the roemte when sized"),
    Offence.OUTRIGHT_ROEM_THEN_PLAYED: _i(
        "SAKBOC 8.7", "roemed good vyf-eenderse or four of a kind and then played a card", counting=True
    ),
    Offence.GOOD_ENOUGH_WRONGLY: _i(
        "SAKBOC 8.20; SAKBOC 8.23; SAKBOC 8.25; Notes §VI; Notes §VII", 'asked "good enough?" wrongly', counting=True
    ),
    Offence.GO_ON_NOT_ALLOWED: _i(
        "Notes §VII; SAKBOC 8.19; SAKBOC 8.21; SAKBOC 8.12; SAKBOC 8.24", "went on when not allowed", counting=True
    ),
    Offence.GO_ON_TOO_MANY: _i("Notes §VII; SAKBOC 7.3", "went on by more strokes than allowed", counting=True),
    Offence.THREE_STROKES: _i("SAKBOC 7.3", "pulled on 3 strokes", counting=True),
    Offence.BYSPELER_PUNISHES_COUNTING: _i(
        "SAKBOC 6.8; Notes §VII", "byspeler punished a counting offence (only the telman may)"
    ),
    Offence.WRONG_STRAF: _i("Notes §VII", "punished where there was no offence"),
    Offence.ILLEGAL_BID: _i(
        "Rotterdam §The Deal; Wikipedia §Playing the game; Klammern §Deal and trumps",
        "bid or passed out of turn, or bid what the round does not offer",
    ),
    Offence.ILLEGAL_DOUBLE: _i("Klammern §First trick", "doubled (Contra/Re) out of order or too late"),
    Offence.SIGNS: _i("SAKBOC 1.16; Notes §VII", "talking or signs to a partner", recordable=False),
    Offence.SLACKING: _i(
        "SAKBOC 4.6; Notes §VII", "slacking cards (thrown in before the end of play)", shown_by=("throw_in",)
    ),
    Offence.TAPPING: _i("SAKBOC 5.1; Notes §VII", "failed to play in time (tapped out)", recordable=False),
    Offence.FLIPPED_CARDS: _i("SAKBOC 4.5", "own roemte-cards or tricks flipped open", recordable=False),
    Offence.PLAYED_CLOSED: _i("SAKBOC 4.1", "played on a card played closed", recordable=False),
    Offence.MORE_THAN_ONE_CARD: _i("SAKBOC 4.2; Notes §VII", "played more than 1 card at a time", recordable=False),
    Offence.PLAYED_BEFORE_TRICK_CLOSED: _i(
        "SAKBOC 9.8", "played before the counter closed the trick", shown_by=("close_trick",)
    ),
    Offence.TRUMP_CARD_PICKED_UP: _i(
        "SAKBOC 3.1", "picked up the trump-card before the second trick closed", recordable=False
    ),
    Offence.WRONG_ROEMTE_CARDS: _i(
        "SAKBOC 8.11; SAKBOC 8.16; Notes §VII", "opened wrong roemte-cards", counting=True, recordable=False
    ),
    Offence.OVERCALLED_ROEMTE_NOT_CANCELLED: _i(
        "SAKBOC 8.3; SAKBOC 8.14; SAKBOC 8.22; Notes §VII",
        "overcalled roemte not cancelled in time",
        counting=True,
        recordable=False,
    ),
    Offence.WRONG_ROEM_TERM: _i("SAKBOC 8.8", "roemed vyf-eenderse by another name", recordable=False),
    Offence.INFORMATION_SOUGHT: _i("SAKBOC 8.26", "sought information during play", recordable=False),
    Offence.WRONG_SCORE_GIVEN: _i(
        "Notes §VII; Notes §VIII", "gave an incorrect score when challenged", counting=True, shown_by=("score_called",)
    ),
    Offence.WRONG_POINTS_CLAIMED: _i(
        "SAKBOC 6.5", "claimed other than 2 or 4 points", counting=True, shown_by=("points_called",)
    ),
    Offence.BOEM_CLEANED: _i("SAKBOC 7.2", "cleaned the boem too early", counting=True, shown_by=("clean_boem",)),
    Offence.STROKE_BETWEEN_LINES: _i("SAKBOC 7.5", "started a stroke between lines", counting=True, recordable=False),
    Offence.OPPONENTS_TRICK_PICKED_UP: _i(
        "SAKBOC 9.6; SAKBOC 9.2; Notes §VII", "picked up the opponents' trick", shown_by=("close_trick",)
    ),
    Offence.TELMAN_CHANGED: _i("SAKBOC 11.3; Notes §VII", "changed the designated telman", recordable=False),
    Offence.UNNECESSARY_KNOCKING: _i("SAKBOC 6.7", "unnecessary knocking on the table", recordable=False),
    Offence.POINTS_WITHOUT_AF: _i(
        "SAKBOC 6.7",
        'claimed points without saying "af" or completing the boem',
        counting=True,
        shown_by=("points_called",),
    ),
    Offence.BOEM_NOT_ERASED: _i(
        "SAKBOC 7.4; SAKBOC 7.2",
        "the strokes of a completed boem were not erased",
        counting=True,
        shown_by=("boem_not_erased",),
    ),
    Offence.ROEMTE_NOT_CLOSED: _i(
        "SAKBOC 3.5",
        "roemte not closed before the trump-card of the new hand was opened",
        counting=True,
        recordable=False,
    ),
    Offence.STURK_CANCELLED: _i("Notes §II", "cancelled sturk once roemed", counting=True, recordable=False),
    Offence.ROEM_COMBINATION_DEMANDED: _i(
        "Notes §II; SAKBOC 8.13", "demanded that a roem combination be called one way", recordable=False
    ),
    Offence.TRICKS_OUT_OF_ORDER: _i(
        "SAKBOC 9.1", "tricks not kept in the order picked up", counting=True, recordable=False
    ),
    Offence.FIRST_TRICK_NOT_CLOSED: _i(
        "SAKBOC 9.3",
        "looked at the first trick wrongly or did not close it in time",
        counting=True,
        recordable=False,
    ),
    Offence.OPPONENTS_TRICK_SEEN: _i("SAKBOC 9.5", "looked at the opponents' closed trick", recordable=False),
    Offence.DISCARDS_NOT_SURRENDERED: _i(
        "SAKBOC 10.2; SAKBOC 10.1",
        "did not surrender the discards after going on",
        counting=True,
        recordable=False,
    ),
    Offence.STROKE_WRONG_SIDE: _i(
        "SAKBOC 7.1; Notes §V; Notes §VII",
        "went on the wrong side of the boem (the strokes go to the opponents)",
        counting=True,
        punishable=False,
    ),
    Offence.POINTS_FOR_OPPONENTS: _i(
        "SAKBOC 6.3",
        "called points for the opponents (the points and the cards go to them)",
        counting=True,
        punishable=False,
    ),
    Offence.POINTS_FOR_NON_PLAYING_TEAM: _i(
        "SAKBOC 6.4",
        "called points for a team not playing (no points either side)",
        counting=True,
        punishable=False,
    ),
}
"""Rules, description and flags of every :class:`Offence`."""


def offence_from_code(code: str) -> Offence:
    """Return the :class:`Offence` with this code (``"versak"``); ``-`` is read as ``_``.

    :raises UnknownOffenceError: naming the code if it is not an offence.
    """
    try:
        return Offence(code.strip().lower().replace("-", "_"))
    except ValueError:
        raise UnknownOffenceError(f"{code!r} is not an offence code") from None


RELATIVES_OFFENCES: tuple[Offence, ...] = (
    Offence.VERSAK,
    Offence.OUT_OF_TURN,
    Offence.WRONG_CUT,
    Offence.WRONG_DEAL,
    Offence.FALSE_ROEM,
    Offence.ROEM_NOT_WITH_FIRST_CARD,
    Offence.STURK_WRONG_TIME,
    Offence.ILLEGAL_BID,
    Offence.ILLEGAL_DOUBLE,
)
"""The offences :mod:`engine.makers` finds in the relatives' games (their seeds list no others)."""


def offences_for(ruleset: Any) -> tuple[Offence, ...]:
    """Return the offences a straf may name under ``ruleset``, in :class:`Offence` order.

    For the console's list of offences (DOMAIN.md: "the console offers only the offences of the union's
    ruleset"). SAKBOC (``hand_scoring == "going-on"``): every punishable offence but the relatives'
    ``illegal_bid`` and ``illegal_double``; the forfeits (6.3, 6.4, 7.1) are left out, as "it is not
    punishable". The relatives (``"makers"``): :data:`RELATIVES_OFFENCES`, with ``illegal_bid`` only when
    the ruleset bids for trumps and ``illegal_double`` only with doubling.

    :param ruleset: an :class:`engine.ruleset.Ruleset` (typed loosely: this module does not import it).
    :returns: the offences, each with :attr:`Offence.info`.
    """
    if getattr(ruleset, "hand_scoring", "going-on") == "makers":
        allowed = set(RELATIVES_OFFENCES)
        if getattr(ruleset, "trump_choice", "") != "bidding":
            allowed.discard(Offence.ILLEGAL_BID)
        if not getattr(ruleset, "doubling", False):
            allowed.discard(Offence.ILLEGAL_DOUBLE)
        return tuple(o for o in Offence if o in allowed)
    skip = {Offence.ILLEGAL_BID, Offence.ILLEGAL_DOUBLE}
    return tuple(o for o in Offence if o not in skip and o.info.punishable)
