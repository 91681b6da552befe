"""Write issue 17's data-driven cases ("Rules fidelity II") to ``cases/fid_*.json``.

Run: ``python tests/engine/build_fidelity_cases.py``. Every expectation below is written by hand from the rules it
cites (SAKBOC 2004, the Notes, DOMAIN.md interpretations 6 and 7); the script only fills in the record boilerplate
and, for ``auto``, plays the rest of a hand taking each seat's first legal card in the order the hand is listed.
Each file name ends with the clause it is about, and each title names it.

Deals (dealer seat 3, so seat 0 leads; the dealer's last card, the trump card, is listed last in seat 3's hand):

* A: seat0 KS JS 8S AD TD AC QC 9C / seat1 JH 9H KH QS TS KD 9D 8D / seat2 QD JD 7D KC JC TC 8C 7C /
  seat3 AH QH TH 8H AS 9S 7S 7H: hearts trumps; nobody holds roemte.
* B: seat0 AS 8S AD KD TD AC QC 9C / seat1 JS TS 9S QD 9D 8D KH 8H / seat2 QS 7S JH 7D KC JC TC 8C /
  seat3 KS 7C AH QH JD TH 9H 7H: hearts trumps; only seat 1 holds roemte (a twenty J-T-9 of spades). Played out
  with ``auto``: team 0 takes 49 in 2 tricks, team 1 97 in 6 and the last trick (seat 3).
* R: seat0 AS KS QS AD 7D 8H 7C 8C / seat1 JS TS 9S KD QD 8D 7H AC / seat2 8S 7S AH KH QH TD 9D KC /
  seat3 JH 9H JD JC QC TC 9C TH: hearts trumps; seat 0 an Ace-high twenty of spades, seat 1 a Jack-high twenty of
  spades, seat 2 an Ace-high twenty in trumps and sturk, seat 3 a Jack-high twenty in trumps and a Queen-high fifty.

A: dealt by seat 1 with the trump card 8D (diamonds trumps), it is the second hand of the worked game.

Tokens: ``S:CARD`` play; ``rS:call[,call]`` roem; ``zS>A`` size; ``aS:R`` size answer; ``gS>A[,B][=good]`` good
enough; ``oS:N[:opponents]`` go on; ``fC>A[:offence][@E]`` straf ("af", the offence optional); ``c`` the trick just
completed closed by its winners' telman, ``cS`` closed by seat S; ``dS`` discards surrendered; ``tS`` thrown in;
``scS:a,b`` score called (``-`` for a side not called); ``saS`` score accepted; ``ptS:N[:for]`` points called;
``cbS[:part]`` boem cleaned; ``auto`` (``autoc``: closing every trick) plays the rest of the hand; ``autoN`` plays N
cards.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.cards import parse_card  # noqa: E402
from engine.play import legal_mask, trick_winner  # noqa: E402
from engine.ruleset import SAKBOC_2004  # noqa: E402

OUT = Path(__file__).resolve().parent / "cases"

DEALS = {
    "A": ["KS JS 8S AD TD AC QC 9C", "JH 9H KH QS TS KD 9D 8D", "QD JD 7D KC JC TC 8C 7C", "AH QH TH 8H AS 9S 7S 7H"],
    "B": ["AS 8S AD KD TD AC QC 9C", "JS TS 9S QD 9D 8D KH 8H", "QS 7S JH 7D KC JC TC 8C", "KS 7C AH QH JD TH 9H 7H"],
    "R": ["AS KS QS AD 7D 8H 7C 8C", "JS TS 9S KD QD 8D 7H AC", "8S 7S AH KH QH TD 9D KC", "JH 9H JD JC QC TC 9C TH"],
}
SEATS = [
    {"seat": 0, "name": "Ayesha Jacobs", "role": "telman"},
    {"seat": 1, "name": "Brandon Petersen", "role": "telman"},
    {"seat": 2, "name": "Chantal Adams", "role": "byspeler"},
    {"seat": 3, "name": "Dawood Hendricks", "role": "byspeler"},
]
TELMAN = {0: 0, 1: 1}


class _Table:
    """Plays the tokens, tracking tricks so that ``c`` and ``auto`` know who won."""

    def __init__(self, deal: list[str], trump_card: str, dealer: int) -> None:
        self.hands = [d.split() for d in deal]
        self.trump = parse_card(trump_card) >> 3
        self.played: set[str] = set()
        self.trick: list[tuple[int, int]] = []
        self.leader = (dealer + 1) % 4
        self.events: list[dict[str, Any]] = []

    def winner(self) -> int:
        return self.trick[trick_winner([c for _, c in self.trick], self.trump, SAKBOC_2004)][0]

    def play(self, seat: int, card: str) -> None:
        if len(self.trick) == 4:
            self.leader = self.winner()
            self.trick = []
        self.events.append({"type": "play", "seat": seat, "card": card})
        self.played.add(card)
        self.trick.append((seat, parse_card(card)))

    def auto(self, n: int | None, close: bool) -> None:
        count = 0
        while len(self.played) < 32 and (n is None or count < n):
            if len(self.trick) == 4:
                self.leader = self.winner()
                self.trick = []
            seat = (self.leader + len(self.trick)) % 4
            held = [c for c in self.hands[seat] if c not in self.played]
            mask = sum(1 << parse_card(c) for c in held)
            on = [x for _, x in self.trick]
            card = next(c for c in held if legal_mask(mask, on, self.trump, SAKBOC_2004) >> parse_card(c) & 1)
            self.play(seat, card)
            count += 1
            if close and len(self.trick) == 4:
                self.close(None)

    def close(self, seat: int | None) -> None:
        if seat is None:
            seat = TELMAN[self.winner() % 2]
        self.events.append({"type": "close_trick", "seat": seat})

    def token(self, tok: str) -> None:
        ev = self.events
        if tok.startswith("auto"):
            rest = tok[4:]
            close = rest.startswith("c")
            rest = rest[1:] if close else rest
            self.auto(int(rest) if rest else None, close)
        elif tok == "c" or (tok[0] == "c" and tok[1:].isdigit()):
            self.close(int(tok[1:]) if len(tok) > 1 else None)
        elif tok.startswith("cb"):
            seat, _, part = tok[2:].partition(":")
            ev.append({"type": "clean_boem", "seat": int(seat), **({"part": part} if part else {})})
        elif tok.startswith("sc"):
            seat, counts = tok[2:].split(":")
            ev.append(
                {
                    "type": "score_called",
                    "seat": int(seat),
                    "count": [None if x == "-" else int(x) for x in counts.split(",")],
                }
            )
        elif tok.startswith("sa"):
            ev.append({"type": "score_accepted", "seat": int(tok[2:])})
        elif tok.startswith("pt"):
            seat, pts, *side = tok[2:].split(":")
            ev.append(
                {"type": "points_called", "seat": int(seat), "points": int(pts), **({"for": side[0]} if side else {})}
            )
        elif tok[0] == "r":
            seat, calls = tok[1:].split(":")
            names = calls.split(",")
            ev.append({"type": "roem", "seat": int(seat), "call": names[0] if len(names) == 1 else names})
        elif tok[0] == "z":
            seat, asked = tok[1:].split(">")
            ev.append({"type": "size", "seat": int(seat), "asked": int(asked)})
        elif tok[0] == "a":
            seat, top = tok[1:].split(":")
            ev.append({"type": "size_answer", "seat": int(seat), "top": top})
        elif tok[0] == "g":
            head, _, answer = tok[1:].partition("=")
            seat, asked = head.split(">")
            ge: dict[str, Any] = {"type": "good_enough", "seat": int(seat), "asked": [int(x) for x in asked.split(",")]}
            if answer:
                ge["answer"] = answer
            ev.append(ge)
        elif tok[0] == "o":
            seat, strokes, *side = tok[1:].split(":")
            ev.append(
                {"type": "go_on", "seat": int(seat), "strokes": int(strokes), **({"side": side[0]} if side else {})}
            )
        elif tok[0] == "f":
            body, _, about = tok[1:].partition("@")
            who, _, offence = body.partition(":")
            claimant, accused = who.split(">")
            straf: dict[str, Any] = {"type": "straf", "claimant": int(claimant), "accused": int(accused)}
            if offence:
                straf["offence"] = offence
            if about:
                straf["event"] = int(about)
            ev.append(straf)
        elif tok[0] == "d":
            ev.append({"type": "discards_surrendered", "seat": int(tok[1:])})
        elif tok[0] == "t":
            ev.append({"type": "throw_in", "seat": int(tok[1:])})
        else:
            seat, card = tok.split(":")
            self.play(int(seat), card)


def record(
    deal: str,
    tokens: str,
    *,
    trump_card: str | None = None,
    dealer: int = 3,
    state: dict[str, Any] | None = None,
    hands: list[str] | None = None,
) -> dict[str, Any]:
    """A SAKBOC hand record of ``deal`` (or ``hands``) with the events the tokens describe."""
    cards = hands or DEALS[deal]
    trump = trump_card or cards[3].split()[-1]
    table = _Table(cards, trump, dealer)
    for tok in tokens.split():
        table.token(tok)
    rec: dict[str, Any] = {
        "format": "klawerjas-hand",
        "version": 1,
        "ruleset": "sakboc-2004",
        "seats": SEATS,
        "dealer": dealer,
        "cut": 12,
        "deal_pattern": "3-3-2",
        "hands": [c.split() for c in cards],
        "trump_card": trump,
        "state_before": state or {"old_play": False, "tallies": [0, 0], "roem": [0, 0], "strokes": [0, 0]},
        "events": table.events,
    }
    return rec


def off(code: str, seat: int, event: int | None, **more: Any) -> dict[str, Any]:
    return {"code": code, "seat": seat, "event": event, **more}


CASES: dict[str, dict[str, Any]] = {}


def case(name: str, title: str, rules: list[str], rec: dict[str, Any], expect: dict[str, Any], **extra: Any) -> None:
    CASES[name] = {"title": title, "rules": rules, "record": rec, "expect": expect, **extra}


_OLD_10 = {"old_play": True, "tallies": [10, 10], "roem": [0, 0], "strokes": [0, 0]}

# ---------------------------------------------------------------------------------------------------------------
# 1. A roem counts as called until punished (DOMAIN.md interpretation 6; Notes §VI, §VII, §VIII; SAKBOC 8.2)

case(
    "fid_01_false_twenty_counts_as_called_notes_vi",
    "DOMAIN interpretation 6 (Notes §VI, §VIII): a false twenty nobody punishes stands in the count as called (20), "
    "and is itself the offence false_roem, unclaimed",
    ["DOMAIN interpretation 6", "Notes §VI", "Notes §VII", "Notes §VIII"],
    record("B", "0:AS r0:twenty 1:9S 2:7S 3:KS"),
    {
        "clean": False,
        "offences": [off("false_roem", 0, 1, status="unclaimed", message="false_roem")],
        "teams": [{"roem": 20, "roem_call": ["twenty"], "card_points": 14, "count": 34}, {"roem": 0, "count": 0}],
        "note_codes": ["note.false_roem_counted"],
        "unclaimed": [0],
        "upheld_claims": [],
    },
)

case(
    "fid_02_false_twenty_as_held_reading_notes_vi",
    "DOMAIN interpretation 6, the other reading (roem_counts = as-held): the same false twenty counts nothing, though "
    "it is still the offence false_roem",
    ["DOMAIN interpretation 6", "Notes §VI", "Notes §VII"],
    record("B", "0:AS r0:twenty 1:9S 2:7S 3:KS"),
    {
        "offences": [off("false_roem", 0, 1)],
        "teams": [{"roem": 0, "roem_call": ["twenty"], "count": 14}, {"roem": 0}],
        "note_codes": ["note.false_roem_not_counted"],
    },
    settings={"roem_counts": "as-held"},
)

case(
    "fid_03_sizing_a_false_roem_is_no_offence_8_2",
    "SAKBOC 8.2: seat 1, holding a twenty, must ask the size of seat 0's twenty; that the twenty is false never makes "
    "the question the asker's offence; not overcalling after sizing is not punishable (8.4)",
    ["SAKBOC 8.2", "SAKBOC 8.4", "DOMAIN interpretation 6"],
    record("B", "0:AS r0:twenty 1:9S z1>0 a0:K 2:7S 3:KS"),
    {"offences": [off("false_roem", 0, 1)], "teams": [{"roem": 20}, {"roem": 0}]},
)

case(
    "fid_04_overroem_judged_against_the_size_as_called_8_2",
    "SAKBOC 8.2, Notes §VI: an over-roem is judged against the roemte as called: seat 0's false twenty was sized "
    "King-high, so seat 1's Jack-high twenty does not outrank it (overroem_not_higher) and the first stands",
    ["SAKBOC 8.2", "Notes §VI", "DOMAIN interpretation 6"],
    record("B", "0:AS r0:twenty 1:9S z1>0 a0:K r1:twenty 2:7S 3:KS"),
    {
        "offences": [off("false_roem", 0, 1), off("overroem_not_higher", 1, 5)],
        "teams": [{"roem": 20, "roem_call": ["twenty"]}, {"roem": 0}],
    },
)

case(
    "fid_05_overroem_of_a_false_roem_sized_low_notes_vi",
    "Notes §VI, SAKBOC 8.2: seat 0's false twenty, sized 9-high, is outranked by seat 1's Jack-high twenty: the "
    "overroem is in order and stands; seat 0's false roem remains an offence nobody claimed",
    ["Notes §VI", "SAKBOC 8.2", "SAKBOC 8.3", "DOMAIN interpretation 6"],
    record("B", "0:AS r0:twenty 1:9S z1>0 a0:9 r1:twenty 2:7S 3:KS"),
    {"offences": [off("false_roem", 0, 1)], "teams": [{"roem": 0}, {"roem": 20, "roem_call": ["twenty"]}]},
)

case(
    "fid_06_overroem_judged_against_a_wrong_size_answer_8_2",
    "SAKBOC 8.2, Notes §VI: seat 0 holds an Ace-high twenty but answers the size question '10'; seat 1's "
    "Jack-high twenty outranks the roemte as called, so the overroem stands; the wrong answer is the offence",
    ["SAKBOC 8.2", "Notes §VI"],
    record("R", "0:AS r0:twenty 1:9S z1>0 a0:T r1:twenty"),
    {"offences": [off("wrong_size_answer", 0, 4)], "teams": [{"roem": 0}, {"roem": 20}]},
)

case(
    "fid_07_false_roem_punished_by_af_notes_vii",
    'Notes §VII, DOMAIN interpretation 6 and 7: the byspeler says "af" without naming it; the engine finds seat 0\'s '
    "false twenty and upholds the claim; punished, the twenty no longer counts",
    ["Notes §VII", "SAKBOC 6.7", "DOMAIN interpretation 6", "DOMAIN interpretation 7"],
    record("B", "0:AS r0:twenty 1:9S 2:7S 3:KS f3>0"),
    {
        "offences": [off("false_roem", 0, 1, status="punished", claimed_by=5)],
        "strafs": [
            {
                "event": 5,
                "offence": "",
                "upheld": True,
                "decision": "upheld",
                "matched": "false_roem",
                "offence_event": 1,
                "punished_team": 0,
                "awarded_team": 1,
                "points": 2,
                "code": "straf.upheld",
            }
        ],
        "teams": [{"roem": 0}, {"roem": 0}],
        "state_after": {"boem_over": True, "strokes": [0, 0]},
    },
)

# Deal B played out: team 1 takes 97; seat 3's false twenty brings it to 117, so seat 1 goes on 2 (team 0 counts 49,
# under 50). Then seat 0 punishes the false twenty: upheld, but only 2 points as the opponents have gone on (6.2).
_B_FALSE_3 = "0:AS 1:JS 2:QS 3:KS r3:twenty auto"
case(
    "fid_08_false_roem_counts_for_going_on_then_punished_6_2",
    "DOMAIN interpretation 6, SAKBOC 6.2: seat 3's false twenty counts until punished, so team 1 (97 + 20 = 117, team "
    "0 on 49) goes on 2; seat 0's af is then upheld on the false roem, 2 points as the opponents have gone on",
    ["DOMAIN interpretation 6", "Notes §VIII", "SAKBOC 6.2", "Notes §IV", "Notes §VI"],
    record("B", f"{_B_FALSE_3} o1:2 f0>3"),
    {
        "offences": [off("false_roem", 3, 4, status="punished")],
        "going_on": [
            {"event": 33, "team": 1, "strokes": 2, "allowed": 2, "ok": True, "count": 117, "code": "going_on.counts"}
        ],
        "strafs": [{"event": 34, "upheld": True, "matched": "false_roem", "awarded_team": 0, "points": 2}],
        "teams": [{"card_points": 49, "tricks": 2}, {"card_points": 97, "tricks": 6, "strokes": 2}],
    },
)

case(
    "fid_09_false_roem_as_held_going_on_not_allowed_notes_iv",
    "DOMAIN interpretation 6, the other reading (as-held): the same hand, but the false twenty counts nothing, so "
    "team 1 counts 97 and going on is not allowed; seat 0's unnamed af is upheld on the earliest offence",
    ["DOMAIN interpretation 6", "Notes §VII", "Notes §IV"],
    record("B", f"{_B_FALSE_3} o1:2 f0>3"),
    {
        "offences": [off("false_roem", 3, 4, status="punished"), off("go_on_not_allowed", 1, 33, status="unclaimed")],
        "going_on": [{"event": 33, "allowed": 0, "ok": False, "count": 97, "code": "going_on.short"}],
        "strafs": [{"event": 34, "upheld": True, "matched": "false_roem", "awarded_team": 0, "points": 2}],
    },
    settings={"roem_counts": "as-held"},
)

case(
    "fid_10_false_sturk_counts_as_called_notes_ii",
    "Notes §II, §VI, DOMAIN interpretation 6: sturk roemed with the King of trumps by a seat without the Queen is a "
    "false roem (one offence) and counts 20 as called until punished",
    ["Notes §II", "Notes §VI", "DOMAIN interpretation 6"],
    record("A", "0:AD 1:KH r1:sturk 2:7D 3:7H"),
    {
        "offences": [off("false_roem", 1, 2, message="false_roem.sturk"), off("ondertroef", 3, 4)],
        "teams": [{"sturk": 0}, {"sturk": 20}],
        "note_codes": ["note.false_roem_counted"],
    },
)

# ---------------------------------------------------------------------------------------------------------------
# 2. "Af" as the table says it (SAKBOC 6.7, DOMAIN.md interpretation 7)

case(
    "fid_11_af_without_offence_finds_the_versak_6_7",
    'SAKBOC 6.7: "af" need not name the offence; the engine finds the versak at events[1] and upholds the claim',
    ["SAKBOC 6.7", "SAKBOC 3.3", "DOMAIN interpretation 7"],
    record("A", "0:AD 1:QS 2:7D 3:7S f0>1"),
    {
        "offences": [off("versak", 1, 1, status="punished", claimed_by=4)],
        "strafs": [
            {
                "offence": "",
                "upheld": True,
                "matched": "versak",
                "offence_event": 1,
                "findings": [{"code": "versak", "event": 1}],
                "code": "straf.upheld",
                "points": 2,
            }
        ],
        "upheld_claims": [4],
    },
)

case(
    "fid_12_af_without_offence_where_there_is_none_6_7",
    'SAKBOC 6.7, Notes §VII: an "af" where the accused side committed nothing is a wrong straf: the punisher is '
    "punished",
    ["SAKBOC 6.7", "Notes §VII"],
    record("A", "0:AD 1:KD 2:7D 3:7S f0>1"),
    {
        "offences": [off("wrong_straf", 0, 4, message="wrong_straf.no_offence", status="decided-with-claim")],
        "strafs": [{"upheld": False, "decision": "wrong-straf", "code": "straf.no_offence", "awarded_team": 1}],
    },
)

case(
    "fid_13_undertrump_claimed_as_versak_named_is_a_note_6_7",
    "DOMAIN interpretation 7 (default): seat 3's undertrump (SAKBOC 3.4) claimed as a versak is upheld: the named "
    "offence is a note for the referee, not a condition",
    ["DOMAIN interpretation 7", "SAKBOC 3.4", "SAKBOC 6.7"],
    record("A", "0:AD 1:KH 2:7D 3:7H f0>3:versak@3"),
    {
        "offences": [off("ondertroef", 3, 3, status="punished")],
        "strafs": [{"offence": "versak", "upheld": True, "matched": "ondertroef", "offence_event": 3}],
    },
)

case(
    "fid_14_undertrump_claimed_as_versak_must_be_committed_6_7",
    "DOMAIN interpretation 7, the other reading (straf_named_offence = must-be-committed): the undertrump claimed as "
    "a versak fails, and the reason says it was an ondertroef (SAKBOC 3.4), not a legal card",
    ["DOMAIN interpretation 7", "SAKBOC 3.4", "Notes §VII"],
    record("A", "0:AD 1:KH 2:7D 3:7H f0>3:versak@3"),
    {
        "offences": [off("ondertroef", 3, 3, status="unclaimed"), off("wrong_straf", 0, 4)],
        "strafs": [
            {
                "upheld": False,
                "code": "straf.named_not_committed",
                "awarded_team": 1,
                "findings": [{"code": "ondertroef", "event": 3}],
            }
        ],
    },
    settings={"straf_named_offence": "must-be-committed"},
)

case(
    "fid_15_claim_names_the_event_must_be_committed_6_7",
    "DOMAIN interpretation 7, must-be-committed: a claim naming a versak at a clean card (events[3]) fails though "
    "seat 1 revoked at events[1] (the engine before issue 17 read every claim so)",
    ["DOMAIN interpretation 7", "SAKBOC 3.3", "Notes §VII"],
    record("A", "0:AD 1:QS 2:7D 3:7S f0>1:versak@3"),
    {
        "offences": [off("versak", 1, 1), off("wrong_straf", 0, 4)],
        "strafs": [{"upheld": False, "awarded_team": 1, "code": "straf.named_not_committed"}],
    },
    settings={"straf_named_offence": "must-be-committed"},
)

case(
    "fid_16_byspeler_af_only_a_counting_offence_6_8",
    "SAKBOC 6.8: a byspeler's unnamed af where the only offence is a counting one (going on 2 when 1 is allowed) "
    "punishes the byspeler",
    ["SAKBOC 6.8", "SAKBOC 6.7", "Notes §VII"],
    record("B", "auto o1:2 f2>1", state=_OLD_10),
    {
        "offences": [off("go_on_too_many", 1, 32), off("byspeler_punishes_counting", 2, 33)],
        "going_on": [{"count": 107, "opponents_count": 59, "allowed": 1, "ok": False}],
        "strafs": [
            {"decision": "byspeler-may-not-punish-counting", "code": "straf.byspeler_counting", "awarded_team": 1}
        ],
    },
)

case(
    "fid_17_byspeler_af_upheld_on_the_offence_it_may_punish_6_8",
    "SAKBOC 6.8, DOMAIN interpretation 7: the byspeler names a counting offence, but the accused side also "
    "revoked; the af is upheld on the versak, which a byspeler may punish",
    ["SAKBOC 6.8", "SAKBOC 3.3", "DOMAIN interpretation 7"],
    record("A", "0:AD 1:QS 2:7D 3:7S f2>1:go_on_too_many"),
    {
        "offences": [off("versak", 1, 1, status="punished")],
        "strafs": [{"upheld": True, "matched": "versak", "offence": "go_on_too_many"}],
    },
)

# ---------------------------------------------------------------------------------------------------------------
# 3. Every moment a ruling depends on: closing tricks (9.1, 9.2, 9.6, 9.8), 4.4, 7.4, slacking, the score

case(
    "fid_18_out_of_turn_claimed_before_the_trick_is_closed_4_4",
    "SAKBOC 4.4, 9.1: seat 2 played out of turn; the trick is complete but not yet closed (no close_trick), so the "
    "claim is in time and upheld",
    ["SAKBOC 4.4", "SAKBOC 9.1"],
    record("A", "0:AD 2:7D 1:KD 3:7S f1>2"),
    {
        "offences": [off("out_of_turn", 2, 1, status="punished")],
        "strafs": [{"upheld": True, "matched": "out_of_turn", "awarded_team": 1}],
    },
)

case(
    "fid_19_out_of_turn_claimed_after_close_trick_is_late_4_4",
    "SAKBOC 4.4, 9.1: the same out-of-turn play claimed after the trick's close_trick is too late: a wrong straf "
    "with code straf.late",
    ["SAKBOC 4.4", "SAKBOC 9.1", "Notes §VII"],
    record("A", "0:AD 2:7D 1:KD 3:7S c f1>2"),
    {
        "offences": [
            off("out_of_turn", 2, 1, status="claimed-late", claimed_by=5),
            off("wrong_straf", 1, 5, message="wrong_straf.late"),
        ],
        "tricks": [{"winner": 0, "closed_by": 0, "closed_at": 4}],
        "strafs": [{"upheld": False, "decision": "wrong-straf", "code": "straf.late", "awarded_team": 0}],
    },
)

case(
    "fid_20_opponents_trick_picked_up_9_6",
    "SAKBOC 9.6: seat 1 (team 1) picks up and closes the trick seat 0 won; seat 0 says af: upheld",
    ["SAKBOC 9.6", "SAKBOC 9.1", "Notes §VII"],
    record("A", "0:AD 1:KD 2:7D 3:7S c1 f0>1"),
    {
        "offences": [off("opponents_trick_picked_up", 1, 4, status="punished")],
        "tricks": [{"winner": 0, "closed_by": 1}],
        "strafs": [{"upheld": True, "matched": "opponents_trick_picked_up"}],
    },
)

case(
    "fid_21_opponents_trick_picked_up_late_9_2",
    "SAKBOC 9.2: the trick picked up can no longer be punished once either counter has closed another trick",
    ["SAKBOC 9.2", "SAKBOC 9.6", "Notes §VII"],
    record("A", "0:AD 1:KD 2:7D 3:7S c1 autoc4 f0>1"),
    {
        "offences": [off("opponents_trick_picked_up", 1, 4, status="claimed-late"), off("wrong_straf", 0, 10)],
        "strafs": [{"upheld": False, "code": "straf.late", "awarded_team": 1}],
    },
)

case(
    "fid_22_played_before_the_trick_was_closed_9_8",
    "SAKBOC 9.8: seat 0 leads the second trick before the first is closed; the byspeler's af is upheld",
    ["SAKBOC 9.8", "SAKBOC 9.1"],
    record("A", "0:AD 1:KD 2:7D 3:7S 0:TD c f3>0"),
    {
        "offences": [off("played_before_trick_closed", 0, 4, status="punished")],
        "tricks": [{"winner": 0, "closed_at": 5}],
        "strafs": [{"upheld": True, "matched": "played_before_trick_closed", "awarded_team": 1}],
    },
)

_NOT_ERASED = {"old_play": False, "tallies": [0, 0], "roem": [0, 0], "strokes": [0, 0], "boem_not_erased": [1]}
case(
    "fid_23_boem_not_erased_punished_in_time_7_4",
    "SAKBOC 7.4: team 1's strokes of the completed boem were still up when the hand was dealt; seat 0 punishes "
    "before the first trick is closed: upheld",
    ["SAKBOC 7.4", "SAKBOC 7.2"],
    record("A", "0:AD 1:KD f0>1", state=_NOT_ERASED),
    {
        "offences": [off("boem_not_erased", 1, None, status="punished")],
        "strafs": [{"upheld": True, "matched": "boem_not_erased", "offence_event": None}],
    },
)

case(
    "fid_24_boem_not_erased_too_late_7_4",
    "SAKBOC 7.4: once the first slaggie of the new game is closed the opposition may not punish the strokes not erased",
    ["SAKBOC 7.4", "Notes §VII"],
    record("A", "0:AD 1:KD 2:7D 3:7S c f0>1:boem_not_erased", state=_NOT_ERASED),
    {
        "offences": [off("boem_not_erased", 1, None, status="claimed-late"), off("wrong_straf", 0, 5)],
        "strafs": [{"upheld": False, "code": "straf.late", "clause": "SAKBOC 7.4"}],
    },
)

case(
    "fid_25_cards_thrown_in_during_play_are_slacked_4_6",
    "SAKBOC 4.6, Notes §VII: seat 1 throws its cards in while play goes on: slacking, upheld on an af",
    ["SAKBOC 4.6", "Notes §VII"],
    record("A", "0:AD 1:KD 2:7D 3:7S t1 f0>1"),
    {
        "offences": [off("slacking", 1, 4, status="punished", params={"seat": 1, "cards": 7})],
        "strafs": [{"upheld": True, "matched": "slacking"}],
    },
)

case(
    "fid_26_after_going_on_discards_and_throw_in_are_clean_10_2",
    "SAKBOC 10.2, 9.1: after team 1 goes on, its counter surrenders the discards and the cards are thrown in: clean",
    ["SAKBOC 10.2", "SAKBOC 10.1", "SAKBOC 9.1"],
    record("B", "autoc o1:1 d1 t0 t1 t2 t3", state=_OLD_10),
    {
        "clean": True,
        "going_on": [{"team": 1, "strokes": 1, "ok": True, "count": 107}],
        "state_after": {"old_play": False, "strokes": [0, 1], "dealer_team": 1, "boem_over": False},
    },
)

_OLD = {"old_play": True, "tallies": [30, 0], "roem": [0, 0], "strokes": [1, 2]}
case(
    "fid_27_wrong_score_called_in_ou_jol_notes_vii",
    "Notes §VII, §VIII: at the end of an ou jol hand (team 0 counts 30 + 49 = 79, team 1 0 + 97 = 97) team 1's "
    "counter calls the score as 79 to 87: wrong_score_given, punished by the opposing telman",
    ["Notes §VII", "Notes §VIII", "SAKBOC 6.8"],
    record("B", "auto sc1:79,87 f0>1", state=_OLD),
    {
        "offences": [
            off("wrong_score_given", 1, 32, status="punished", params={"called": [79, 87], "count": [79, 97]})
        ],
        "strafs": [{"upheld": True, "matched": "wrong_score_given", "awarded_team": 0, "points": 2}],
    },
)

case(
    "fid_28_wrong_score_accepted_then_punished_late_notes_viii",
    "Notes §VIII (as issue 17 reads it): once the opposing counter accepts the score called, a wrong score can no "
    "longer be punished: the late claim is a wrong straf",
    ["Notes §VIII", "Notes §VII"],
    record("B", "auto sc1:79,87 sa0 f0>1", state=_OLD),
    {
        "offences": [off("wrong_score_given", 1, 32, status="claimed-late"), off("wrong_straf", 0, 34)],
        "strafs": [{"upheld": False, "code": "straf.late", "awarded_team": 1, "points": 2}],
        "note_codes": ["note.wrong_score_accepted"],
    },
)

case(
    "fid_29_score_called_and_accepted_ou_jol_carries_notes_viii",
    "Notes §III, §VIII: neither side reaches 100 (49 and 97); the score is called right and accepted, and ou jol "
    "follows, carrying 49 and 97, dealt by team 1 (seat 3 took the last trick)",
    ["Notes §III", "Notes §VIII", "DOMAIN interpretation 1"],
    record("B", "autoc sc1:49,97 sa0"),
    {
        "clean": True,
        "old_play_next": True,
        "next_dealer_team": 1,
        "teams": [{"count": 49, "tricks": 2}, {"count": 97, "tricks": 6, "last_trick": True}],
        "state_after": {"old_play": True, "tallies": [49, 97], "roem": [0, 0], "strokes": [0, 0], "dealer_team": 1},
    },
)

case(
    "fid_30_close_trick_without_a_trick_is_malformed_9_1",
    "SAKBOC 9.1: a close_trick event needs a completed trick to close; the record is refused with where",
    ["SAKBOC 9.1"],
    record("A", "0:AD c0"),
    {"error": "events[1]: no completed trick to close (trick 1 has 1 card(s))"},
)

case(
    "fid_31_discards_before_going_on_are_malformed_10_2",
    "SAKBOC 10.2: discards are surrendered after going on; before any go_on the record is refused with where",
    ["SAKBOC 10.2"],
    record("A", "0:AD d0"),
    {"error": "events[1]: discards are surrendered after going on (SAKBOC 10.2)"},
)

# ---------------------------------------------------------------------------------------------------------------
# 4. The rest of the straf list: 6.3/6.4, 6.5, 6.7, 7.1, 7.2, 3.5, Notes §II

_FOUR_NIL = {"old_play": True, "tallies": [10, 10], "roem": [0, 0], "strokes": [0, 4]}
case(
    "fid_32_points_called_for_the_opponents_6_3",
    "SAKBOC 6.3: team 1 goes on its fifth stroke, but its counter calls the points for the opponents: the points and "
    "the cards go to team 0 (a forfeit, not an offence)",
    ["SAKBOC 6.3", "SAKBOC 6.1"],
    record("B", "auto o1:1 pt1:2:opponents", state=_FOUR_NIL),
    {
        "clean": True,
        "forfeits": [off("points_for_opponents", 1, 33, params={"points": 2, "from_team": 1, "to_team": 0})],
        "teams": [{"strokes": 0}, {"strokes": 5}],
    },
)

case(
    "fid_33_points_called_for_a_team_not_playing_6_4",
    "SAKBOC 6.4: points called for a team not playing: no points either side; the caller keeps the cards",
    ["SAKBOC 6.4"],
    record("B", "auto o1:1 pt1:2:non-playing", state=_FOUR_NIL),
    {"clean": True, "forfeits": [off("points_for_non_playing_team", 1, 33)]},
)

case(
    "fid_34_one_point_claimed_6_5",
    "SAKBOC 6.5: a counter may claim only 2 or 4 points; claiming 1 is punishable (telman) and disallowed",
    ["SAKBOC 6.5", "SAKBOC 6.8"],
    record("B", "auto o1:1 pt1:1 f0>1", state=_FOUR_NIL),
    {
        "offences": [off("wrong_points_claimed", 1, 33, status="punished")],
        "strafs": [{"upheld": True, "matched": "wrong_points_claimed", "awarded_team": 0, "points": 2}],
    },
)

case(
    "fid_35_stroke_on_the_wrong_side_goes_to_the_opponents_7_1",
    "SAKBOC 7.1, Notes §V: team 1's counter draws its stroke on team 0's side of the boem: the stroke goes to team 0, "
    "and a straf for it is a wrong straf (it is not punishable)",
    ["SAKBOC 7.1", "Notes §V", "Notes §VII"],
    record(
        "B",
        "auto o1:1:opponents f0>1:stroke_wrong_side",
        state={"old_play": True, "tallies": [10, 10], "roem": [0, 0], "strokes": [1, 1]},
    ),
    {
        "forfeits": [off("stroke_wrong_side", 1, 32, params={"strokes": 1, "to_team": 0})],
        "offences": [off("wrong_straf", 0, 33, message="wrong_straf.not_punishable")],
        "teams": [{"strokes": 2}, {"strokes": 1}],
        "strafs": [{"upheld": False, "code": "straf.not_punishable", "clause": "SAKBOC 7.1"}],
    },
)

case(
    "fid_36_boem_cleaned_before_points_called_7_2",
    "SAKBOC 7.2: team 1 completes the boem, and its counter cleans all of its side before calling points: 4 points "
    "to the opponents",
    ["SAKBOC 7.2"],
    record("B", "auto o1:1 cb1 f0>1", state=_FOUR_NIL),
    {
        "offences": [off("boem_cleaned", 1, 33, message="boem_cleaned.before_points_called", status="punished")],
        "strafs": [{"upheld": True, "points": 4, "awarded_team": 0}],
    },
)

case(
    "fid_37_boem_partly_cleaned_before_points_called_7_2",
    "SAKBOC 7.2: cleaning only part of one's side before points are called gives the opponents 2 points",
    ["SAKBOC 7.2"],
    record("B", "auto o1:1 cb1:part f0>1", state=_FOUR_NIL),
    {"offences": [off("boem_cleaned", 1, 33)], "strafs": [{"upheld": True, "points": 2}]},
)

case(
    "fid_38_boem_cleaned_after_points_called_is_clean_7_2",
    "SAKBOC 7.2, 6.1: the boem completed and points called (2), the counter may clean the boem",
    ["SAKBOC 7.2", "SAKBOC 6.1"],
    record("B", "auto o1:1 pt1:2 cb1", state=_FOUR_NIL),
    {"clean": True, "state_after": {"boem_over": True}},
)

case(
    "fid_39_points_claimed_without_af_6_7",
    'SAKBOC 6.7: team 0\'s counter claims points though its side neither said "af" nor completed the boem',
    ["SAKBOC 6.7"],
    record("A", "0:AD 1:KD 2:7D 3:7S pt0:2 f1>0"),
    {"offences": [off("points_without_af", 0, 4, status="punished")], "strafs": [{"upheld": True}]},
)

case(
    "fid_40_demanding_a_roem_combination_referee_judgement_notes_ii",
    "Notes §II: demanding that a player roem a combination one way is punishable, but a record cannot show it: the "
    "referee's judgement",
    ["Notes §II", "SAKBOC 8.13", "DOMAIN interpretation 5"],
    record("A", "0:AD 1:KD f0>1:roem_combination_demanded"),
    {"strafs": [{"upheld": None, "decision": "referee-judgement", "code": "straf.referee_judgement"}]},
)

case(
    "fid_41_roemte_not_closed_referee_judgement_3_5",
    "SAKBOC 3.5: roemte not closed before the trump-card of the new hand is opened: the referee's judgement",
    ["SAKBOC 3.5", "DOMAIN interpretation 5"],
    record("A", "0:AD f1>0:roemte_not_closed"),
    {"strafs": [{"upheld": None, "decision": "referee-judgement", "clause": "SAKBOC 3.5"}]},
)

case(
    "fid_42_picked_up_trick_in_a_record_without_close_events_9_6",
    "SAKBOC 9.6, DOMAIN interpretation 5: a record with no close_trick events cannot show who picked up a trick: a "
    "claim of it stays the referee's judgement, as for version-1 records before issue 17",
    ["SAKBOC 9.6", "DOMAIN interpretation 5"],
    record("A", "0:AD 1:KD 2:7D 3:7S f0>1:opponents_trick_picked_up"),
    {"strafs": [{"upheld": None, "decision": "referee-judgement", "code": "straf.referee_judgement"}]},
)


# ---------------------------------------------------------------------------------------------------------------
# A worked game of two hands (DOMAIN interpretations 1 and 6; Notes §III, §VI, §VIII). The seed of the Notes withholds
# §VIII's "Sample Game" (it is kept back as an acceptance case for the engine), so this is the product's own worked
# game, not the Notes': every number it prints is checked, and each hand starts from the previous one's state_after.

_HAND_1 = record("B", "0:AS r0:twenty autoc sc1:69,97 sa0")
_HAND_2 = record(
    "A",
    "autoc8 o0:1 d0 t0 t1 t2 t3",
    trump_card="8D",
    dealer=1,
    state={"old_play": True, "tallies": [49, 97], "roem": [20, 0], "strokes": [0, 0]},
)
GAMES = {
    "fid_43_worked_game_false_twenty_carried_into_ou_jol_notes_iii": {
        "title": "A worked game of two hands (the product's own; the seed withholds Notes §VIII): seat 0's false "
        "twenty is never punished, so it counts as called (interpretation 6): 49 + 20 = 69 to 97, ou jol, the score "
        "called and accepted, team 1 deals; in the old-play hand team 0 counts 69 + 27 + 36 = 132 after two tricks "
        "and goes on 1 (team 1 counts 97, not under 50); team 0 deals the next game",
        "rules": [
            "DOMAIN interpretation 6",
            "DOMAIN interpretation 1",
            "Notes §III",
            "Notes §VI",
            "Notes §VIII",
            "SAKBOC 8.19",
            "SAKBOC 10.2",
        ],
        "hands": [
            {
                "record": _HAND_1,
                "expect": {
                    "complete": True,
                    "offences": [off("false_roem", 0, 1, status="unclaimed")],
                    "tricks": [
                        {"winner": 0, "points": 17, "closed_by": 0},
                        {"winner": 1, "points": 10, "closed_by": 1},
                        {"winner": 2, "points": 32, "closed_by": 0},
                        {"winner": 3, "points": 16, "closed_by": 1},
                        {"winner": 1, "points": 18, "closed_by": 1},
                        {"winner": 3, "points": 22, "closed_by": 1},
                        {"winner": 3, "points": 26, "closed_by": 1},
                        {"winner": 3, "points": 5, "closed_by": 1, "last": True},
                    ],
                    "teams": [
                        {"card_points": 49, "tricks": 2, "roem": 20, "roem_call": ["twenty"], "count": 69},
                        {"card_points": 97, "tricks": 6, "roem": 0, "count": 97, "last_trick": True},
                    ],
                    "end_check": [{"allowed": 0}, {"allowed": 0}],
                    "old_play_next": True,
                    "next_dealer_team": 1,
                    "state_after": {
                        "old_play": True,
                        "tallies": [49, 97],
                        "roem": [20, 0],
                        "strokes": [0, 0],
                        "dealer_team": 1,
                        "boem_over": False,
                    },
                    "note_codes": ["note.false_roem_counted"],
                },
            },
            {
                "record": _HAND_2,
                "expect": {
                    "clean": True,
                    "tricks": [
                        {"leader": 2, "winner": 0, "points": 27, "closed_by": 0},
                        {"leader": 0, "winner": 2, "points": 36, "closed_by": 0},
                    ],
                    "teams": [
                        {"card_points": 63, "tally_before": 49, "roem_before": 20, "count": 132, "strokes": 1},
                        {"card_points": 0, "tally_before": 97, "count": 97, "strokes": 0},
                    ],
                    "going_on": [
                        {
                            "event": 10,
                            "team": 0,
                            "strokes": 1,
                            "allowed": 1,
                            "count": 132,
                            "opponents_count": 97,
                            "ok": True,
                            "code": "going_on.counts",
                        }
                    ],
                    "state_after": {
                        "old_play": False,
                        "tallies": [0, 0],
                        "roem": [0, 0],
                        "strokes": [1, 0],
                        "dealer_team": 0,
                        "boem_over": False,
                    },
                },
            },
        ],
    }
}


def main() -> None:
    for name, data in {**CASES, **GAMES}.items():
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(CASES) + len(GAMES)} cases to {OUT}")


if __name__ == "__main__":
    main()
