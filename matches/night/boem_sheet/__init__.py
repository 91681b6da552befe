"""One home for the boem sheet: every write to a table's sheet of a match night, scored by the rules engine.

A table's boem sheet (Notes §V) is a run of :class:`~matches.models.BoemEntry` lines. Every write here adds or
changes lines, then replays the table's whole sheet through ``engine.boem_sheet.score_sheet`` under the union's
ruleset (``matches.rules.competition_ruleset``), and saves the boems, each line's boem and points, and the match score
as the engine scored them. No arithmetic of SAKBOC 6.1, 6.2, 6.6 or 7.3 lives in the league: the engine's is
the only one, so the table's device, the referee's ruling and the match report always agree.

The writes, each atomic and keyword-only, each locking the match's row and then the table's (two devices at
one table, or a device and the referee, are served one after the other):

* :func:`going_on_record`: a side's telman went on 1 or 2 strokes: from the table's device (provisional until
  the opposing telman confirms), or by the referee on the table's behalf with a written reason (confirmed).
* :func:`entry_confirm`, :func:`entry_dispute`: the opposing telman confirms a going-on on the device, or
  disputes it (a query for the referee); the referee confirms too, which settles a dispute.
* :func:`entry_correct`: the referee corrects a going-on (strokes, side: SAKBOC 7.1) or strikes it off, with a
  written reason; history keeps who, when, why and the old value.
* :func:`straf_record`, :func:`straf_reverse`: the referee's ruling on an "af" (SAKBOC 6.2; Notes §VII, 6.6).
* :func:`time_call`: time is called or the table stopped (SAKBOC 2.2, 12.1): a boem in progress is unfinished.
* :func:`straf_claim_opened`, :func:`straf_claim_closed`: an "af" waits for the referee: the table takes no
  going-on meanwhile (SAKBOC 1.10).
* :func:`sheet_record`, :func:`sheets_record`: a finished run of lines at one table, or at every table of a
  stretch of play, at once, in a few queries (the demo season's bots).

Clock rules at entry (each refusal cites its clause): nothing before play starts (SAKBOC 1.9); during the
interval only the hand already cut when it was called is finished, one at a table (2.2); nothing once time is
called (2.2); a stopped or unplayed table takes nothing (12.1, 1.13). A write based on a sheet that has
changed since (``expected_version`` ≠ the table's ``sheet_version``) is refused with code ``stale`` (409).

The package, each module above the ones it uses: :mod:`~matches.night.boem_sheet.checks` (the clock and the table),
:mod:`~matches.night.boem_sheet.scoring` (the writer and the engine's score of a sheet),
:mod:`~matches.night.boem_sheet.goings_on` (goings-on, confirmations, disputes, corrections, time),
:mod:`~matches.night.boem_sheet.strafs` (the referee's rulings) and :mod:`~matches.night.boem_sheet.runs` (runs of
lines at once, lines from another installation). Callers import the names below from here.
"""

from matches.night.boem_sheet.checks import RECORDING_PHASES, entry_clock_check, entry_phase, table_lock
from matches.night.boem_sheet.goings_on import entry_confirm, entry_correct, entry_dispute, going_on_record, time_call
from matches.night.boem_sheet.runs import (
    BoemLine,
    StrafLine,
    StrafReversalLine,
    StrokeLine,
    sheet_lines_restore,
    sheet_record,
    sheets_record,
)
from matches.night.boem_sheet.scoring import SheetWrite, hand_start, line_reason, sheet_score, sheets_read, strokes_at
from matches.night.boem_sheet.strafs import (
    straf_claim_closed,
    straf_claim_opened,
    straf_record,
    straf_reversal_strike,
    straf_reverse,
)

__all__ = [
    "RECORDING_PHASES",
    "BoemLine",
    "SheetWrite",
    "StrafLine",
    "StrafReversalLine",
    "StrokeLine",
    "entry_clock_check",
    "entry_confirm",
    "entry_correct",
    "entry_dispute",
    "entry_phase",
    "going_on_record",
    "hand_start",
    "line_reason",
    "sheet_lines_restore",
    "sheet_record",
    "sheet_score",
    "sheets_read",
    "sheets_record",
    "straf_claim_closed",
    "straf_claim_opened",
    "straf_record",
    "straf_reversal_strike",
    "straf_reverse",
    "strokes_at",
    "table_lock",
    "time_call",
]
