"""Hand records: the hand-written validator (engine.record) and the JSON Schema agree on the examples and on
malformed records; every problem says where it is."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.adjudicate import adjudicate
from engine.offences import Offence, UnknownOffenceError, offence_from_code
from engine.record import EXAMPLE_RECORD, HandRecordError, load_record, parse_record

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "engine" / "schema" / "hand-record-1.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
CASES = sorted((ROOT / "tests" / "engine" / "cases").glob("*.json"))


def _base() -> dict[str, Any]:
    return copy.deepcopy(json.loads((ROOT / "docs" / "examples" / "revoke-upheld.json").read_text()))


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_schema_lists_every_offence_code() -> None:
    straf = next(e for e in SCHEMA["$defs"]["event"]["oneOf"] if e["properties"]["type"]["const"] == "straf")
    # every code, then "" and null for an "af" that names none (SAKBOC 6.7, DOMAIN.md interpretation 7)
    assert straf["properties"]["offence"]["enum"] == [o.value for o in Offence] + ["", None]
    assert "offence" not in straf["required"]


@pytest.mark.parametrize("path", EXAMPLES + CASES, ids=[p.stem for p in EXAMPLES + CASES])
def test_examples_and_case_records_are_valid(path: Path) -> None:
    data = json.loads(path.read_text())
    if "title" in data and "hands" in data:  # a case that is a game of consecutive records
        cases = [(h["record"], h["expect"]) for h in data["hands"]]
    else:
        cases = [(data["record"], data["expect"]) if "expect" in data else (data, {})]
    for record, expect in cases:
        VALIDATOR.validate(record)  # a record refused across fields (expect "error") still has the right shape
        if "error" in expect:
            continue
        rec = parse_record(record)
        assert parse_record(rec.to_dict()) == rec  # canonical form round-trips


def test_examples_exist_and_load() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {
        "clean-hand",
        "revoke-upheld",
        "wrong-straf",
        "byspeler-punishes-counting",
        "old-play-hand",
        "disputed-hand",
    } <= names
    for p in EXAMPLES:
        load_record(p)


def test_json_blocks_in_the_format_document_are_valid() -> None:
    text = (ROOT / "docs" / "hand-record.md").read_text()
    blocks = [b for b in re.findall(r"```json\n(.*?)```", text, re.S) if b.lstrip().startswith("{")]
    assert blocks
    for b in blocks:
        rec = json.loads(b)
        VALIDATOR.validate(rec)
        assert parse_record(rec).events


def _set(path: str, value: Any) -> dict[str, Any]:
    rec = _base()
    target: Any = rec
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for k in keys[:-1]:
        target = target[k]
    if value is _DELETE:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return rec


_DELETE = object()

# Malformed in shape: both the hand-written validator and the JSON Schema reject them.
STRUCTURAL = [
    ("format", "klaverjas", "format: 'klaverjas', expected 'klawerjas-hand'"),
    ("version", 2, "version: 2, expected 1"),
    ("dealer", 4, "dealer: 4 is not a seat (0..3)"),
    ("cut", -1, "cut: -1 is not a number of cards"),
    ("cut", "twelve", "cut: 'twelve' is not a number of cards"),
    ("deal_pattern", "three-three-two", "deal_pattern: 'three-three-two' is not a deal pattern"),
    ("trump_card", "XZ", "trump_card: 'XZ' is not a card"),
    ("hands.2", ["QD", "JD", "7D", "KC", "JC", "TC", "8C"], "hands[2]: 7 cards, expected 8"),
    ("hands.2.0", "1D", "hands[2][0]: '1D' is not a card"),
    ("seats.1.role", "captain", "seats[1].role: 'captain' is not a role"),
    ("events.3.card", "XZ", "events[3].card: 'XZ' is not a card"),
    ("events.3.type", "discard", "events[3].type: 'discard' is not an event type"),
    ("events.3.seat", 7, "events[3].seat: 7 is not a seat (0..3)"),
    ("events.4.offence", "cheating", "events[4].offence: 'cheating' is not an offence code"),
    ("events", {"0": 1}, "events: expected a list"),
    ("state_before.strokes", [5, 0], "state_before.strokes: [5, 0] is not a pair of integers (0..4)"),
    ("state_before.old_play", "yes", "state_before.old_play: 'yes' is not true or false"),
    ("hands", _DELETE, "hands: missing"),
    ("surprise", 1, "surprise: unknown field"),
]


@pytest.mark.parametrize(("path", "value", "problem"), STRUCTURAL, ids=[s[2].split(":")[0] for s in STRUCTURAL])
def test_structural_problems_are_rejected_by_both(path: str, value: Any, problem: str) -> None:
    rec = _set(path, value)
    with pytest.raises(HandRecordError) as exc:
        parse_record(rec)
    assert any(p.startswith(problem) for p in exc.value.problems), exc.value.problems
    assert not VALIDATOR.is_valid(rec)


def _with_events(events: list[dict[str, Any]]) -> dict[str, Any]:
    rec = _base()
    rec["events"] = events
    return rec


# Malformed across fields: only the hand-written validator can see them.
SEMANTIC = [
    (_set("hands.3.5", "AD"), "hands[3][5]: AD is dealt twice (also at hands[0][3])"),
    (_set("trump_card", "KS"), "trump_card: 'KS' is not in the dealer's hand (seat 3)"),
    (_set("deal_pattern", "3-3-3"), "deal_pattern: '3-3-3' deals 9 cards each, expected 8"),
    (
        _with_events([{"type": "play", "seat": 0, "card": "KD"}]),
        "events[0].card: KD is not in seat 0's hand (seat 1 holds it)",
    ),
    (
        _with_events([{"type": "play", "seat": 0, "card": "AD"}, {"type": "play", "seat": 0, "card": "TD"}]),
        "events[1].seat: seat 0 already played to this trick",
    ),
    (
        _with_events([{"type": "straf", "claimant": 0, "accused": 2, "offence": "versak"}]),
        "events[0].accused: seat 2 is seat 0's partner",
    ),
    (
        _with_events([{"type": "size_answer", "seat": 0, "top": "A"}]),
        "events[0]: seat 0 answers a size question nobody asked",
    ),
    (
        _with_events([{"type": "go_on", "seat": 2, "strokes": 1}]),
        "events[0].seat: seat 2 is a byspeler; only the telman goes on",
    ),
    (
        _with_events([{"type": "go_on", "seat": 0, "strokes": 1}, {"type": "play", "seat": 0, "card": "AD"}]),
        "events[1]: a play event after the hand ended at events[0]",
    ),
    (
        _with_events([{"type": "straf", "claimant": 0, "accused": 1, "offence": "versak", "event": 3}]),
        "events[0].event: 3 is not the index of an earlier event",
    ),
    (
        _set("state_before", {"old_play": False, "tallies": [10, 0]}),
        "state_before.tallies: must be [0, 0] when old_play is false",
    ),
]


@pytest.mark.parametrize(("rec", "problem"), SEMANTIC, ids=[s[1].split(":")[0] for s in SEMANTIC])
def test_cross_field_problems_are_rejected_with_where(rec: dict[str, Any], problem: str) -> None:
    with pytest.raises(HandRecordError) as exc:
        parse_record(rec)
    assert any(p.startswith(problem) for p in exc.value.problems), exc.value.problems


def test_every_problem_is_reported_at_once() -> None:
    rec = _base()
    rec["hands"][2] = rec["hands"][2][:7]
    rec["events"][2]["card"] = "XZ"
    rec["cut"] = 40
    with pytest.raises(HandRecordError) as exc:
        parse_record(rec)
    assert len(exc.value.problems) == 3
    assert "(+2 more problems)" in str(exc.value)


def test_a_wrong_cut_or_deal_is_an_offence_not_a_format_error() -> None:
    rec = _set("cut", 1)
    rec["deal_pattern"] = "4-4"
    codes = {o.code for o in adjudicate(rec).offences}
    assert {Offence.WRONG_CUT, Offence.WRONG_DEAL} <= codes


def test_text_input_and_not_json() -> None:
    assert parse_record(json.dumps(EXAMPLE_RECORD)).dealer == 3
    with pytest.raises(HandRecordError, match="not JSON"):
        parse_record("{not json")
    with pytest.raises(HandRecordError, match="expected a JSON object"):
        parse_record("[1, 2]")


def test_lenient_spellings_are_normalised() -> None:
    rec = _base()
    rec["hands"][0] = [c.lower() for c in rec["hands"][0]]
    rec["hands"][0][4] = "10d"
    rec["events"][4]["offence"] = "Versak"
    parsed = parse_record(rec)
    assert parsed.to_dict()["hands"][0][4] == "TD"
    assert parsed.to_dict()["events"][4]["offence"] == "versak"


def test_unknown_ruleset_is_a_bad_record() -> None:
    with pytest.raises(HandRecordError, match="ruleset: unknown ruleset 'utrecht'"):
        adjudicate(_set("ruleset", "utrecht"))


def test_offence_codes() -> None:
    assert offence_from_code("go-on-not-allowed") is Offence.GO_ON_NOT_ALLOWED
    with pytest.raises(UnknownOffenceError, match="'cheating'"):
        offence_from_code("cheating")
    for o in Offence:
        assert o.info.rules and o.info.description
        assert o.info.rules[0].startswith(("SAKBOC ", "Notes §", "Rotterdam §", "Klammern §"))
    assert not Offence.SIGNS.info.recordable and Offence.VERSAK.info.recordable
    assert Offence.GO_ON_TOO_MANY.info.counting and not Offence.VERSAK.info.counting


def test_a_march_event_reads_and_writes_back() -> None:
    from engine.record import MarchEvent, event_to_dict

    case = json.loads(
        (Path(__file__).parent / "cases/relatives/klammern_march_01_made_wins_match_from_behind.json").read_text()
    )
    rec = parse_record(case["record"])
    assert rec.events[0] == MarchEvent(0)
    assert event_to_dict(rec.events[0]) == {"type": "march", "seat": 0}


def test_a_march_is_ignored_with_a_note_under_a_ruleset_without_it() -> None:
    from engine.ruleset import KLAMMERN

    case = json.loads((Path(__file__).parent / "cases/relatives/klammern_march_02_fails_at_trick_3.json").read_text())
    v = adjudicate(case["record"], KLAMMERN.replace(march_announcement=False))
    assert v.result is not None and v.result.march_seat is None and not v.result.match_over
    assert any("march event has no meaning" in n for n in v.notes)
