"""Issue 17, "Messages as codes": every finding carries a code from the engine's catalogue (``MESSAGE_CODES``), its
params and its clause, so that the pages can render it in the user's language; the English text is the CLI's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.adjudicate import GOING_ON_CODES, MESSAGE_CODES, NOTE_CODES, OFFENCE_MESSAGES, STRAF_CODES, adjudicate
from engine.offences import Offence
from engine.record import parse_record
from engine.ruleset import ruleset_by_name

ROOT = Path(__file__).resolve().parents[2]


def _records() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(name, record, settings)`` of every case (SAKBOC's and the relatives') and every documented example."""
    cases = ROOT / "tests" / "engine" / "cases"
    paths = sorted(cases.glob("*.json")) + sorted(cases.glob("relatives/*.json"))
    for path in paths + sorted((ROOT / "docs" / "examples").glob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data.get("hands"), list) and data["hands"] and "record" in data["hands"][0]:
            for n, hand in enumerate(data["hands"]):
                yield f"{path.name}[{n}]", hand["record"], hand.get("settings", {})
        elif "record" in data:
            yield path.name, data["record"], data.get("settings", {})
        elif data.get("format") == "klawerjas-hand":
            yield path.name, data, {}


def _findings(verdict: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in ("offences", "forfeits"):
        for f in verdict[kind]:
            yield f["message"], f
    for kind in ("strafs", "going_on", "end_check", "note_details"):
        for f in verdict[kind]:
            yield f["code"], f


def test_every_finding_of_every_case_carries_a_catalogued_code_params_and_clause() -> None:
    seen: set[str] = set()
    count = 0
    for name, record, settings in _records():
        try:
            parsed = parse_record(record)
            verdict = adjudicate(parsed, ruleset_by_name(parsed.ruleset).replace(**settings)).to_dict()
        except ValueError:
            continue  # the malformed-record cases
        count += 1
        for code, finding in _findings(verdict):
            assert code in MESSAGE_CODES, (name, code)
            assert isinstance(finding["params"], dict), (name, code)
            assert "clause" in finding and isinstance(finding["rules"], list), (name, code)
            if code.split(".")[0] in {o.value for o in Offence}:
                assert finding["clause"] == finding["rules"][0], (name, code)
            seen.add(code)
    assert count > 150
    # the cases reach every straf decision but the relatives' claim after the hand ended
    assert set(STRAF_CODES) - seen <= {"straf.after_hand_ended"}, sorted(set(STRAF_CODES) - seen)
    assert {"note.false_roem_counted", "note.wrong_score_accepted", "going_on.counts", "wrong_straf.late"} <= seen


def test_every_code_written_in_the_engine_is_catalogued() -> None:
    offences = "|".join(o.value for o in Offence)
    pattern = re.compile(rf'"((?:note|going_on|straf|{offences})\.[a-z_]+)"')
    written = set()
    for path in (ROOT / "engine").glob("*.py"):
        written |= set(pattern.findall(path.read_text()))
    assert written, "no codes found: the pattern is wrong"
    assert written <= set(MESSAGE_CODES), sorted(written - set(MESSAGE_CODES))
    assert len(MESSAGE_CODES) == len(set(MESSAGE_CODES))
    assert set(GOING_ON_CODES) | set(NOTE_CODES) | set(OFFENCE_MESSAGES) <= set(MESSAGE_CODES)
