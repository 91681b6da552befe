"""The command line: readable and JSON verdicts, exit 0/1/2, standard input, no sys.exit from main."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from engine.cli import EXIT_BAD_RECORD, EXIT_CLEAN, EXIT_OFFENCES, main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_clean_hand_exits_0_with_a_readable_verdict() -> None:
    code, out, err = _run(["adjudicate", str(EXAMPLES / "clean-hand.json")])
    assert code == EXIT_CLEAN and not err
    assert "Verdict: clean" in out and "seat 1 wins 32 (vyf laas trek included)" in out
    assert "went on 2, allowed 2: ok" in out


def test_offences_exit_1_and_cite_rules() -> None:
    code, out, _ = _run(["adjudicate", str(EXAMPLES / "revoke-upheld.json")])
    assert code == EXIT_OFFENCES
    assert "versak (punished by the claim at events[4]) [SAKBOC 3.3" in out
    assert "held KD, 9D, 8D when diamonds were led" in out
    assert "UPHELD on versak; team 1 punished, team 0 awarded 4 points" in out
    assert "Offences found that nobody claimed: none" in out


def test_referee_judgement_is_shown() -> None:
    case = json.loads((ROOT / "tests" / "engine" / "cases" / "straf_05_signs_referee_judgement.json").read_text())
    code, out, _ = _run(["adjudicate", "-"], json.dumps(case["record"]))
    assert "REFEREE'S JUDGEMENT" in out and code in (EXIT_CLEAN, EXIT_OFFENCES)


def test_unclaimed_offences_are_kept_apart_from_upheld_claims() -> None:
    # issue 17: an offence nobody claimed is listed apart from the claims and how they were decided
    path = ROOT / "tests" / "engine" / "cases" / "fid_01_false_twenty_counts_as_called_notes_vi.json"
    case = json.loads(path.read_text())
    code, out, _ = _run(["adjudicate", "-"], json.dumps(case["record"]))
    assert code == EXIT_OFFENCES
    assert "Offences found that nobody claimed (1)" in out and "false_roem" in out and "Straf claims" not in out
    code, out, _ = _run(["adjudicate", "-", "--json"], json.dumps(case["record"]))
    data = json.loads(out)
    assert data["unclaimed"] == [0] and data["upheld_claims"] == [] and data["offences"][0]["status"] == "unclaimed"


def test_exit_codes_are_documented() -> None:
    import engine.cli

    doc = engine.cli.__doc__ or ""
    text = (ROOT / "docs" / "hand-record.md").read_text()
    for status in ("``0``", "``1``", "``2``"):
        assert status in doc
    assert "## The command line" in text and "| `2` |" in text


def test_json_output_from_stdin() -> None:
    code, out, _ = _run(["adjudicate", "-", "--json"], (EXAMPLES / "wrong-straf.json").read_text())
    assert code == EXIT_OFFENCES
    data = json.loads(out)
    assert data["clean"] is False
    assert data["strafs"][0]["decision"] == "wrong-straf" and data["strafs"][0]["awarded_team"] == 1


def test_bad_record_exits_2_naming_the_problems() -> None:
    rec = json.loads((EXAMPLES / "clean-hand.json").read_text())
    rec["events"][7]["card"] = "XZ"
    rec["hands"][2] = rec["hands"][2][:7]
    code, out, err = _run(["adjudicate", "-"], json.dumps(rec))
    assert code == EXIT_BAD_RECORD and not out
    assert "events[7].card: 'XZ' is not a card" in err and "hands[2]: 7 cards, expected 8" in err


def test_unreadable_file_and_bad_usage_exit_2() -> None:
    assert _run(["adjudicate", str(ROOT / "no-such-file.json")])[0] == EXIT_BAD_RECORD
    assert _run(["adjudicate", "-"], "not json")[0] == EXIT_BAD_RECORD
    code, _, err = _run(["frobnicate"])
    assert code == EXIT_BAD_RECORD and "usage" in err
    assert _run([])[0] == EXIT_BAD_RECORD


def test_python_dash_m_engine() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "adjudicate", str(EXAMPLES / "revoke-upheld.json"), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["offences"][0]["code"] == "versak"
