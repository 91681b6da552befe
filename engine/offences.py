"""Punishable offences of SAKBOC Klawerjas: codes, rule citations and who may punish them.

Every offence the product knows has a stable code (the value of :class:`Offence`, used in hand
records as ``{"type": "straf", ..., "offence": "versak"}`` and in verdicts), and an
:class:`OffenceInfo` saying

* which rules it cites (``"SAKBOC 3.3"``, ``"Notes §VII"``);
* whether it is a *counting* offence, which only the telman may punish (SAKBOC 6.8: "Under no
  circumstances shall a by-speler punish in connection with counting or with points scored on the
  boom"; Notes §II "Byspeler", §VII);
* whether a hand record can show it. Offences a record cannot show (talking, signs, slacking,
  tapping, flipped cards, ...) are the referee's judgement (DOMAIN.md interpretation 5): the engine
  records a claim of them but never decides it.

The list follows Notes §VII "List of Punishable Offences" and the SAKBOC rules it refers to.

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

__all__ = ["OFFENCE_INFO", "Offence", "OffenceInfo", "UnknownOffenceError", "offence_from_code"]


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
    * ``wrong_straf``: punishing where there is no offence (Notes §VII).

    The referee's judgement (a record cannot show them, DOMAIN.md interpretation 5): ``signs``
    (talking or signs, 1.16), ``slacking`` (4.6), ``tapping`` (failure to play in time, 5.1),
    ``flipped_cards`` (4.5), ``played_closed`` (4.1), ``more_than_one_card`` (4.2),
    ``played_before_trick_closed`` (9.8), ``trump_card_picked_up`` (3.1), ``wrong_roemte_cards``
    (8.11, 8.16), ``overcalled_roemte_not_cancelled`` (8.3, 8.14), ``wrong_roem_term`` (8.8),
    ``information_sought`` (8.26), ``wrong_score_given`` (Notes §VII), ``wrong_points_claimed``
    (6.5), ``boem_cleaned`` (7.2), ``stroke_between_lines`` (7.5), ``opponents_trick_picked_up``
    (9.6), ``telman_changed`` (11.3), ``unnecessary_knocking`` (6.7).
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
    """

    rules: tuple[str, ...]
    description: str
    counting: bool = False
    recordable: bool = True


def _i(rules: str, description: str, *, counting: bool = False, recordable: bool = True) -> OffenceInfo:
    return OffenceInfo(tuple(r.strip() for r in rules.split(";")), description, counting, recordable)


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
    Offence.SIGNS: _i("SAKBOC 1.16; Notes §VII", "talking or signs to a partner", recordable=False),
    Offence.SLACKING: _i("SAKBOC 4.6; Notes §VII", "slacking cards", recordable=False),
    Offence.TAPPING: _i("SAKBOC 5.1; Notes §VII", "failed to play in time (tapped out)", recordable=False),
    Offence.FLIPPED_CARDS: _i("SAKBOC 4.5", "own roemte-cards or tricks flipped open", recordable=False),
    Offence.PLAYED_CLOSED: _i("SAKBOC 4.1", "played on a card played closed", recordable=False),
    Offence.MORE_THAN_ONE_CARD: _i("SAKBOC 4.2; Notes §VII", "played more than 1 card at a time", recordable=False),
    Offence.PLAYED_BEFORE_TRICK_CLOSED: _i(
        "SAKBOC 9.8", "played before the counter closed the trick", recordable=False
    ),
    Offence.TRUMP_CARD_PICKED_UP: _i(
        "SAKBOC 3.1", "picked up the trump-card before the second trick closed", recordable=False
    ),
    Offence.WRONG_ROEMTE_CARDS: _i(
        "SAKBOC 8.11; SAKBOC 8.16; Notes §VII", "opened wrong roemte-cards", counting=True, recordable=False
    ),
    Offence.OVERCALLED_ROEMTE_NOT_CANCELLED: _i(
        "SAKBOC 8.3; SAKBOC 8.14; Notes §VII",
        "overcalled roemte not cancelled in time",
        counting=True,
        recordable=False,
    ),
    Offence.WRONG_ROEM_TERM: _i("SAKBOC 8.8", "roemed vyf-eenderse by another name", recordable=False),
    Offence.INFORMATION_SOUGHT: _i("SAKBOC 8.26", "sought information during play", recordable=False),
    Offence.WRONG_SCORE_GIVEN: _i(
        "Notes §VII", "gave an incorrect score when challenged", counting=True, recordable=False
    ),
    Offence.WRONG_POINTS_CLAIMED: _i("SAKBOC 6.5", "claimed other than 2 or 4 points", counting=True, recordable=False),
    Offence.BOEM_CLEANED: _i("SAKBOC 7.2", "cleaned the boem too early", counting=True, recordable=False),
    Offence.STROKE_BETWEEN_LINES: _i("SAKBOC 7.5", "started a stroke between lines", counting=True, recordable=False),
    Offence.OPPONENTS_TRICK_PICKED_UP: _i(
        "SAKBOC 9.6; SAKBOC 9.2; Notes §VII", "picked up the opponents' trick", recordable=False
    ),
    Offence.TELMAN_CHANGED: _i("SAKBOC 11.3; Notes §VII", "changed the designated telman", recordable=False),
    Offence.UNNECESSARY_KNOCKING: _i("SAKBOC 6.7", "unnecessary knocking on the table", recordable=False),
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
