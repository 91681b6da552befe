"""Data-driven adjudication cases: ``tests/engine/cases/*.json``, one hand record and its expected verdict each.

Each file is ``{"title", "rules": [...], "record": {...}, "expect": {...}}``, with an optional ``"settings"``: Ruleset
fields to change for the case (a union's reading, DOMAIN.md "Interpretations": ``{"straf_named_offence":
"must-be-committed"}``), applied with :meth:`engine.ruleset.Ruleset.replace` to the record's ruleset.

A game of several hands is ``{"title", "rules", "hands": [{"record", "expect", "settings"?}, ...]}``: consecutive
records, each hand's ``state_before`` (and its dealer's team) checked against the previous verdict's ``state_after``
(Notes §III, §VIII: ou jol carries the tallies and roem; the side that won the last trick deals).

``expect`` holds only the parts of the verdict that matter for the case, in the shape of
:meth:`engine.adjudicate.Verdict.to_dict`:

* ``offences`` and ``forfeits``: the exact list found, as ``{"code", "seat", "event"}`` (order does not matter);
  an item may list more keys (``status``, ``message``, ``params``...), compared with the found item of the same
  code, seat and event;
* ``strafs``, ``tricks``, ``going_on``, ``end_check``, ``teams``: lists compared item by item (same length,
  except ``tricks`` and ``teams`` which may list a prefix), each item's listed keys only;
* ``note_codes``: the exact list of the codes of ``note_details``, in order;
* ``error``: the record is refused: :class:`~engine.record.HandRecordError` whose message holds this text
  (no other key is then checked);
* any other key (``clean``, ``complete``, ``old_play_next``, ``next_dealer_team``, ``state_after``, ``unclaimed``,
  ``upheld_claims``) compared as is (objects: their listed keys only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.adjudicate import adjudicate
from engine.record import HandRecordError, parse_record
from engine.ruleset import Ruleset, ruleset_by_name

CASES = sorted((Path(__file__).parent / "cases").rglob("*.json"))
"""SAKBOC cases in ``cases/``; the relatives' (issue 9) in ``cases/relatives/``, named ``<ruleset>_*.json``."""
PREFIX_LISTS = {"tricks", "teams"}


def _subset(expected: Any, actual: Any, where: str) -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{where}.{k}: missing")
            else:
                out += _subset(v, actual[k], f"{where}.{k}")
        return out
    if expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def test_there_are_at_least_40_cases() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("ruleset", ["rotterdam", "amsterdam", "wikipedia-klaverjas", "klammern"])
def test_there_are_at_least_15_cases_per_relative(ruleset: str) -> None:
    assert len([p for p in CASES if p.parent.name == "relatives" and p.stem.startswith(ruleset + "_")]) >= 15


def _key(o: dict[str, Any]) -> tuple[str, int, int]:
    return (o["code"], o["seat"], -1 if o["event"] is None else o["event"])


def _ruleset(record: dict[str, Any], settings: dict[str, Any] | None) -> Ruleset | None:
    if not settings:
        return None
    return ruleset_by_name(record["ruleset"]).replace(**settings)


def _check(title: str, record: dict[str, Any], expect: dict[str, Any], settings: dict[str, Any] | None) -> Any:
    """Adjudicate one record and compare with ``expect``; returns the verdict's dict (None if refused)."""
    if "error" in expect:
        with pytest.raises(HandRecordError) as refused:
            adjudicate(record)
        assert expect["error"] in str(refused.value), str(refused.value)
        return None
    verdict = adjudicate(record, _ruleset(record, settings)).to_dict()
    problems: list[str] = []
    for key, want in expect.items():
        if key == "note_codes":
            got_codes = [n["code"] for n in verdict["note_details"]]
            if got_codes != want:
                problems.append(f"note_codes: expected {want}, got {got_codes}: {verdict['notes']}")
            continue
        got = verdict[key]
        if key in ("offences", "forfeits"):
            have = sorted(_key(o) for o in got)
            need = sorted(_key(o) for o in want)
            if have != need:
                problems.append(f"{key}: expected {need}, got {have}: {[o['evidence'] for o in got]}")
                continue
            by_key = {_key(o): o for o in got}
            for item in want:
                problems += _subset(item, by_key[_key(item)], f"{key}[{_key(item)}]")
        elif isinstance(want, list) and key not in ("unclaimed", "upheld_claims"):
            if len(got) != len(want) and not (key in PREFIX_LISTS and len(got) >= len(want)):
                problems.append(f"{key}: expected {len(want)} items, got {len(got)}: {got}")
                continue
            for i, item in enumerate(want):
                problems += _subset(item, got[i], f"{key}[{i}]")
        else:
            problems += _subset(want, got, key)
    assert not problems, "\n".join([title, *problems])
    return verdict


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    assert case["title"] and case["rules"], "every case has a title and cites rules"
    if "hands" in case:
        previous: dict[str, Any] | None = None
        for n, hand in enumerate(case["hands"]):
            record = hand["record"]
            if previous is not None:
                after = previous["state_after"]
                assert after is not None, f"hand {n}: the previous hand left no state to start from"
                sb = parse_record(record).state_before
                have = {
                    "old_play": sb.old_play,
                    "tallies": list(sb.tallies),
                    "roem": list(sb.roem),
                    "strokes": list(sb.strokes),
                }
                want = {k: after[k] for k in have}
                assert have == want, f"hand {n}: state_before {have} is not the previous hand's state_after {want}"
                if after["dealer_team"] is not None:
                    assert record["dealer"] % 2 == after["dealer_team"], f"hand {n}: dealt by the wrong team"
            previous = _check(f"{case['title']} (hand {n})", record, hand["expect"], hand.get("settings"))
        return
    _check(case["title"], case["record"], case["expect"], case.get("settings"))
