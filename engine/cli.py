"""Command line: ``python -m engine adjudicate FILE.json`` (or ``-`` for standard input).

Prints the verdict of :func:`engine.adjudicate.adjudicate` for a person, or as JSON with ``--json``
(:meth:`engine.adjudicate.Verdict.to_dict`). The record's ``"ruleset"`` chooses the rules; ``--ruleset NAME``
applies another registered ruleset (``rotterdam``, ``amsterdam``, ``wikipedia-klaverjas``, ``klammern``,
``sakboc-2004`` ...).

The text keeps apart the straf claims ("af") and how each was decided, and the offences the record shows that
nobody claimed (each offence says whether a claim was upheld on it, came too late, or none was made).

Exit status (also documented in ``docs/hand-record.md``, "The command line"):

* ``0`` (:data:`EXIT_CLEAN`): the record is valid and shows no offence (forfeits such as a stroke on the
  wrong side, SAKBOC 7.1, are not offences);
* ``1`` (:data:`EXIT_OFFENCES`): the record is valid and shows at least one offence, claimed or not
  (a wrong straf included);
* ``2`` (:data:`EXIT_BAD_RECORD`): the record is malformed, cannot be read, names an unknown ruleset, or
  the command line is wrong; the problems, each naming where it is (``events[7].card: ...``), go to
  standard error and nothing to standard output.

``--help`` prints the usage and exits 0. Only the engine's own messages are printed; nothing else writes to
standard error.

:func:`main` never calls :func:`sys.exit`, so a Django management command can call it and return its
status: ``return engine.cli.main(["adjudicate", path])``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.adjudicate import Verdict, adjudicate
from engine.cards import CARD_NAMES
from engine.record import HandRecord, HandRecordError, parse_record
from engine.ruleset import RULESETS, UnknownRulesetError, ruleset_by_name

__all__ = ["EXIT_BAD_RECORD", "EXIT_CLEAN", "EXIT_OFFENCES", "format_verdict", "main"]

EXIT_CLEAN = 0
"""Exit status: the record is valid and shows no offence."""
EXIT_OFFENCES = 1
"""Exit status: the record is valid and shows at least one offence (claimed or not)."""
EXIT_BAD_RECORD = 2
"""Exit status: the record is malformed or unreadable, the ruleset unknown, or the command line wrong."""

_SUITS = ("spades", "hearts", "diamonds", "clubs", "no trumps")


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
    a.add_argument(
        "--ruleset",
        metavar="NAME",
        help=f"apply this ruleset instead of the record's ({', '.join(sorted(RULESETS))})",
    )
    return p


def _seat(rec: HandRecord, seat: int) -> str:
    s = rec.seats[seat]
    return f"seat {seat} ({s.name}, {s.role})" if s.name else f"seat {seat} ({s.role})"


def format_verdict(rec: HandRecord, verdict: Verdict) -> str:
    """Return the verdict as readable text for a person (referee, player)."""
    lines: list[str] = []
    add = lines.append
    res = verdict.result
    trumps = _SUITS[verdict.trump] if verdict.trump >= 0 else "not made"
    turned = f" ({CARD_NAMES[rec.trump_card]} turned by seat {rec.dealer})" if rec.trump_card is not None else ""
    made_by = f", made by seat {res.maker}" if res is not None and res.maker is not None else ""
    add(
        f"Ruleset {verdict.ruleset}; trumps {trumps}{turned}{made_by}; seat {verdict.leader} leads"
        + ("; old play (ou jol)" if rec.state_before.old_play else "")
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
    if res is not None:
        add("")
        add("Hand score")
        add(f"  {res.reason} [{', '.join(res.rules)}]")
        add(
            f"  points: team 0 {res.points[0]}, team 1 {res.points[1]}"
            + (f"; small points {res.small_points[0]}:{res.small_points[1]}" if any(res.small_points) else "")
            + f"; game {res.scores_after[0]}:{res.scores_after[1]} after {res.hands_played} hand(s)"
            + (f"; game over, team {res.game_winner} wins" if res.game_over and res.game_winner is not None else "")
        )
    elif verdict.complete or not verdict.going_on:
        add("")
        add("At the end of the record")
        for g in verdict.end_check:
            may = f"may go on {g.allowed}" if g.allowed else "may not go on"
            add(f"  team {g.team} {may}: {g.reason}")
        if verdict.old_play_next:
            add(f"  neither side reached 100: old play (ou jol) follows; team {verdict.next_dealer_team} deals")
    add("")
    if verdict.strafs:
        add(f"Straf claims ({len(verdict.strafs)})")
        for s in verdict.strafs:
            named = s.offence.value if s.offence is not None else '"af" (no offence named)'
            head = f"  events[{s.event}] {_seat(rec, s.claimant)} punished {_seat(rec, s.accused)} for {named}: "
            if s.upheld is None:
                add(head + "REFEREE'S JUDGEMENT -- " + s.reason)
            else:
                word = "UPHELD" if s.upheld else s.decision.upper() + (" (LATE)" if s.code == "straf.late" else "")
                on = f" on {s.matched.value}" if s.upheld and s.matched is not None else ""
                add(
                    head + f"{word}{on}; team {s.punished_team} punished, team {s.awarded_team} awarded {s.points} "
                    f"points [{', '.join(s.rules)}] -- {s.reason}"
                )
        add("")
    claimed = [o for o in verdict.offences if o.status != "unclaimed"]
    if claimed:
        add(f"Offences decided by the claims ({len(claimed)})")
        for o in claimed:
            where = f"events[{o.event}]" if o.event is not None else "deal"
            how = {
                "punished": f"punished by the claim at events[{o.claimed_by}]",
                "claimed-late": f"claimed too late at events[{o.claimed_by}]",
                "decided-with-claim": "the claim itself, decided with it",
            }.get(o.status, o.status)
            add(f"  {where} {_seat(rec, o.seat)}: {o.code.value} ({how}) [{', '.join(o.rules)}] -- {o.evidence}")
        add("")
    unclaimed = verdict.unclaimed
    if unclaimed:
        add(f"Offences found that nobody claimed ({len(unclaimed)})")
        for o in unclaimed:
            where = f"events[{o.event}]" if o.event is not None else "deal"
            add(f"  {where} {_seat(rec, o.seat)}: {o.code.value} [{', '.join(o.rules)}] -- {o.evidence}")
    elif not verdict.offences:
        add("Offences: none")
    else:
        add("Offences found that nobody claimed: none")
    if verdict.forfeits:
        add("")
        add("Forfeits (not punishable)")
        for f in verdict.forfeits:
            add(f"  events[{f.event}] {_seat(rec, f.seat)}: {f.code.value} [{', '.join(f.rules)}] -- {f.evidence}")
    sa = verdict.state_after
    if sa is not None:
        add("")
        if sa.boem_over:
            nxt = "the boem is over; a new boem starts"
        elif sa.old_play:
            nxt = (
                f"old play (ou jol) follows, carrying team 0 {sa.tallies[0]} + roem {sa.roem[0]}, "
                f"team 1 {sa.tallies[1]} + roem {sa.roem[1]}"
            )
        else:
            nxt = "a new game starts"
        dealer = f"; team {sa.dealer_team} deals" if sa.dealer_team is not None else ""
        add(f"Next hand: {nxt}; strokes {sa.strokes[0]}:{sa.strokes[1]}{dealer}")
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
        if args.ruleset is not None:
            try:
                override = ruleset_by_name(args.ruleset)
            except UnknownRulesetError as e:
                print(f"--ruleset: {e}", file=stderr)
                return EXIT_BAD_RECORD
            rec = dataclasses.replace(rec, ruleset=override.name)
            rec = parse_record(rec.to_dict())
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
