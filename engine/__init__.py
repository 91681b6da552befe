"""klawerjas-league rules engine: SAKBOC Klawerjas as a pure-Python, standard-library-only library.

No Django (or any other framework) is imported here; a test proves it in a subprocess.

Modules: :mod:`engine.cards` (encoding, notation), :mod:`engine.ruleset` (the Ruleset value,
SAKBOC 2004 by default), :mod:`engine.play` (legal cards, trick winner, card points),
:mod:`engine.roem` (roemte and competing roem), :mod:`engine.scoring` (going on, strokes, ou jol,
boem), :mod:`engine.boem_sheet` (a table's sheet of goings-on and strafs, scored),
:mod:`engine.simulate` (deals, bot, hands, boems, sessions), :mod:`engine.record` (hand records),
:mod:`engine.adjudicate` (the verdict on a record:
offences, forfeits, straf outcomes and notes, each with a stable code, params and clauses; the relatives' games
through :mod:`engine.makers`, both on the one replay of :mod:`engine.replay`, into the values of
:mod:`engine.verdict`), :mod:`engine.offences` (the straf list), :mod:`engine.cli` (the command line).
The benchmark's fast loop of random hands is not the product's: it lives in ``bench/fastplay.py``.
"""

from __future__ import annotations

from engine.adjudicate import adjudicate
from engine.boem_sheet import BoemScore, SheetError, SheetLine, SheetScore, score_sheet
from engine.cards import CardParseError, format_card, format_hand, parse_card, parse_cards, parse_hand
from engine.offences import Offence, offences_for
from engine.play import card_points, legal_mask, trick_points, trick_winner
from engine.record import HandRecord, HandRecordError, load_record, parse_record
from engine.roem import RoemCall, Roemte, best_call, call_from_names, outranks, roemte_in_hand
from engine.ruleset import SAKBOC_2004, Ruleset, UnknownRulesetError, ruleset_by_name
from engine.scoring import BoemState, GameState, SideCount, may_go_on, outright_strokes, strokes_for
from engine.simulate import BoemResult, HandResult, deal, play_boem, play_hand, play_session
from engine.verdict import Note, StateAfter, Verdict

__all__ = [
    "SAKBOC_2004",
    "BoemResult",
    "BoemScore",
    "BoemState",
    "CardParseError",
    "GameState",
    "HandRecord",
    "HandRecordError",
    "HandResult",
    "Note",
    "Offence",
    "Roemte",
    "RoemCall",
    "SheetError",
    "SheetLine",
    "SheetScore",
    "StateAfter",
    "Ruleset",
    "SideCount",
    "UnknownRulesetError",
    "Verdict",
    "adjudicate",
    "best_call",
    "call_from_names",
    "card_points",
    "deal",
    "format_card",
    "format_hand",
    "legal_mask",
    "load_record",
    "may_go_on",
    "offences_for",
    "outranks",
    "outright_strokes",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_record",
    "play_boem",
    "play_hand",
    "play_session",
    "roemte_in_hand",
    "score_sheet",
    "ruleset_by_name",
    "strokes_for",
    "trick_points",
    "trick_winner",
]
