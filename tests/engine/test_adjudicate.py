"""The adjudicator's API: inputs, the frozen Verdict and its JSON form, rulesets as values, early stops."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine.adjudicate import Verdict, adjudicate
from engine.offences import Offence
from engine.record import HandRecordError, parse_record
from engine.ruleset import SAKBOC_2004

ROOT = Path(__file__).resolve().parents[2]
CLEAN = json.loads((ROOT / "docs" / "examples" / "clean-hand.json").read_text())
REVOKE = json.loads((ROOT / "docs" / "examples" / "revoke-upheld.json").read_text())


def test_accepts_a_record_its_json_text_or_its_data() -> None:
    a = adjudicate(CLEAN)
    assert adjudicate(json.dumps(CLEAN)) == a == adjudicate(parse_record(CLEAN))
    assert isinstance(a, Verdict) and a.clean and a.complete


def test_verdict_is_frozen_and_json_ready() -> None:
    v = adjudicate(REVOKE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.complete = True  # type: ignore[misc]
    d = json.loads(json.dumps(v.to_dict()))
    assert d["offences"][0] == {
        "event": 1,
        "seat": 1,
        "team": 1,
        "code": "versak",
        "rules": ["SAKBOC 3.3", "Notes §VII"],
        "evidence": "seat 1: held KD, 9D, 8D when diamonds were led, and QS is neither a diamond nor a trump",
        "counting": False,
        "message": "versak",
        "params": {
            "seat": 1,
            "card": "QS",
            "led": "D",
            "trumps_led": False,
            "held_led": ["KD", "9D", "8D"],
            "trick": 1,
        },
        "clause": "SAKBOC 3.3",
        "status": "punished",
        "claimed_by": 4,
    }
    assert d["unclaimed"] == [] and d["upheld_claims"] == [4]
    assert d["strafs"][0]["points"] == 4 and d["trump"] == "H"


def test_totals_of_a_full_hand_are_146() -> None:
    v = adjudicate(CLEAN)
    assert sum(t.card_points for t in v.teams) == SAKBOC_2004.hand_total == 146
    assert [t.winner for t in v.tricks] == [3, 1, 2, 2, 3, 1, 3, 1]
    assert v.teams[1].last_trick and v.next_dealer_team == 1


def test_record_that_stops_mid_trick() -> None:
    rec = dict(CLEAN, events=CLEAN["events"][:6])
    v = adjudicate(rec)
    assert not v.complete and v.tricks[-1].winner is None and len(v.tricks[-1].plays) == 2


def test_ruleset_is_a_value() -> None:
    # SAKBOC 3.3 lets a player trump while holding the suit led; a ruleset value without that flag (as in
    # the Dutch game) makes the same card a revoke, with no change to the caller.
    rec = json.loads((ROOT / "tests" / "engine" / "cases" / "play_01_trump_while_holding_led_suit.json").read_text())
    assert adjudicate(rec["record"]).clean
    dutch_like = SAKBOC_2004.replace(name="test-follow-first", trump_may_replace_follow=False)
    v = adjudicate(rec["record"], dutch_like)
    assert [(o.code, o.event) for o in v.offences] == [(Offence.VERSAK, 1)]


def test_bad_record_raises() -> None:
    with pytest.raises(HandRecordError):
        adjudicate({"format": "klawerjas-hand"})
