"""Command line: ``python -m engine adjudicate FILE.json`` (or ``-`` for standard input).

Prints the verdict of :func:`engine.adjudicate.adjudicate` for a person, or as JSON with ``--json``.
Exit status: 0 when the hand is clean, 1 when offences were found, 2 for a bad record or bad usage (the
problems, each naming where it is, go to standard error).

:func:`main` never calls :func:`sys.exit`, so a Django management command can call it and return its
status: ``return engine.cli.main(["adjudicate", path])``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.adjudicate import Verdict, adjudicate
from engine.cards import CARD_NAMES
from engine.record import HandRecord, HandRecordError, parse_record

__all__ = ["EXIT_BAD_RECORD", "EXIT_CLEAN", "EXIT_OFFENCES", "format_verdict", "main"]

EXIT_CLEAN = 0
"""Exit status: the record shows no offence."""
EXIT_OFFENCES = 1
"""Exit status: offences were found."""
EXIT_BAD_RECORD = 2
"""Exit status: the record is malformed (or the command line is wrong)."""

_SUITS = ("spades", "hearts", "diamonds", "clubs")


class _UsageError(Exception):
    def __init__(self, message: str, status: int = EXIT_BAD_RECORD) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        raise _UsageError((message or "").strip(), EXIT_CLEAN if status == 0 else EXIT_BAD_RECORD)


def _parser() -> _Parser:
    p = _Parser(prog="python -m engine", description="SAKBOC Klawerjas rules engine.")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("adjudicate", help="replay a hand record and print the verdict")
    a.add_argument("file", help="hand-record JSON file, or - for standard input")
    a.add_argument("--json", action="store_true", help="print the verdict as JSON")
    return p


def _seat(rec: HandRecord, seat: int) -> str:
    s = rec.seats[seat]
    return f"seat {seat} ({s.name}, {s.role})" if s.name else f"seat {seat} ({s.role})"


def format_verdict(rec: HandRecord, verdict: Verdict) -> str:
    """Return the verdict as readable text for a person (referee, player)."""
    lines: list[str] = []
    add = lines.append
    add(
        f"Ruleset {verdict.ruleset}; trumps {_SUITS[verdict.trump]} ({CARD_NAMES[rec.trump_card]} turned by seat "
        f"{rec.dealer}); seat {verdict.leader} leads" + ("; old play (ou jol)" if rec.state_before.old_play else "")
    )
    add("")
    add("Tricks")
    for t in verdict.tricks:
        cards = " ".join(f"{CARD_NAMES[c]}" for _, c in t.plays)
        won = f"seat {t.winner} wins {t.points}" + (" (vyf laas trek included)" if t.last else "")
        add(f"  {t.index + 1}. seat {t.leader} leads: {cards} -> " + (won if t.winner is not None else "unfinished"))
    add("")
    add("Teams")
    for tt in verdict.teams:
        call = f" ({'-'.join(tt.roem_call)})" if tt.roem_call else ""
        carried = f", carried {tt.tally_before} + roem {tt.roem_before}" if rec.state_before.old_play else ""
        add(
            f"  team {tt.team} (seats {tt.team} & {tt.team + 2}): {tt.card_points} card points in {tt.tricks} tricks, "
            f"roem {tt.roem}{call}, sturk {tt.sturk}{carried}: counts {tt.count}; strokes {tt.strokes}"
        )
    if verdict.going_on:
        add("")
        add("Going on")
        for g in verdict.going_on:
            verdict_word = "ok" if g.ok else "NOT ALLOWED" if g.allowed == 0 else "TOO MANY"
            add(
                f"  events[{g.event}] team {g.team} went on {g.strokes}, allowed {g.allowed}: {verdict_word} -- "
                f"{g.reason} [{', '.join(g.rules)}]"
            )
    if verdict.complete or not verdict.going_on:
        add("")
        add("At the end of the record")
        for g in verdict.end_check:
            may = f"may go on {g.allowed}" if g.allowed else "may not go on"
            add(f"  team {g.team} {may}: {g.reason}")
        if verdict.old_play_next:
            add(f"  neither side reached 100: old play (ou jol) follows; team {verdict.next_dealer_team} deals")
    add("")
    if verdict.offences:
        add(f"Offences ({len(verdict.offences)})")
        for o in verdict.offences:
            where = f"events[{o.event}]" if o.event is not None else "deal"
            add(f"  {where} {_seat(rec, o.seat)}: {o.code.value} [{', '.join(o.rules)}] -- {o.evidence}")
    else:
        add("Offences: none")
    if verdict.strafs:
        add("")
        add("Straf claims")
        for s in verdict.strafs:
            head = (
                f"  events[{s.event}] {_seat(rec, s.claimant)} punished {_seat(rec, s.accused)} for {s.offence.value}: "
            )
            if s.upheld is None:
                add(head + "REFEREE'S JUDGEMENT -- " + s.reason)
            else:
                word = "UPHELD" if s.upheld else s.decision.upper()
                add(
                    head + f"{word}; team {s.punished_team} punished, team {s.awarded_team} awarded {s.points} points "
                    f"[{', '.join(s.rules)}] -- {s.reason}"
                )
    for n in verdict.notes:
        add(f"Note: {n}")
    add("")
    add("Verdict: clean" if verdict.clean else f"Verdict: {len(verdict.offences)} offence(s) found")
    return "\n".join(lines)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line and return the exit status (never calls :func:`sys.exit`).

    :param argv: arguments without the program name, e.g. ``["adjudicate", "hand.json", "--json"]``;
        default ``sys.argv[1:]``.
    :returns: :data:`EXIT_CLEAN` (0), :data:`EXIT_OFFENCES` (1) or :data:`EXIT_BAD_RECORD` (2).
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except _UsageError as e:
        if e.status == EXIT_CLEAN:  # --help was printed
            return EXIT_CLEAN
        print(f"usage: python -m engine adjudicate FILE.json [--json]\n{e}".rstrip(), file=stderr)
        return EXIT_BAD_RECORD
    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            text: str | bytes = stdin.read()
        else:
            with open(args.file, "rb") as f:
                text = f.read()
        rec = parse_record(text)
        verdict = adjudicate(rec)
    except OSError as e:
        print(f"{name}: cannot read: {e.strerror or e}", file=stderr)
        return EXIT_BAD_RECORD
    except HandRecordError as e:
        print(f"{name}: not a valid hand record ({len(e.problems)} problem{'s' * (len(e.problems) > 1)}):", file=stderr)
        for p in e.problems:
            print(f"  {p}", file=stderr)
        return EXIT_BAD_RECORD
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False), file=stdout)
    else:
        print(format_verdict(rec, verdict), file=stdout)
    return EXIT_CLEAN if verdict.clean else EXIT_OFFENCES
