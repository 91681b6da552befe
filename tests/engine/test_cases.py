"""Data-driven adjudication cases: ``tests/engine/cases/*.json``, one hand record and its expected verdict each.

Each file is ``{"title", "rules": [...], "record": {...}, "expect": {...}}``. ``expect`` holds only the parts of
the verdict that matter for the case, in the shape of :meth:`engine.adjudicate.Verdict.to_dict`:

* ``offences``: the exact list of offences found, as ``{"code", "seat", "event"}`` (order does not matter);
* ``strafs``, ``tricks``, ``going_on``, ``end_check``, ``teams``: lists compared item by item (same length,
  except ``tricks`` and ``teams`` which may list a prefix), each item's listed keys only;
* ``error``: the record is refused: :class:`~engine.record.HandRecordError` whose message holds this text
  (no other key is then checked);
* any other key (``clean``, ``complete``, ``old_play_next``, ``next_dealer_team``) compared as is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.adjudicate import adjudicate
from engine.record import HandRecordError

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


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    assert case["title"] and case["rules"], "every case has a title and cites rules"
    if "error" in case["expect"]:
        with pytest.raises(HandRecordError) as refused:
            adjudicate(case["record"])
        assert case["expect"]["error"] in str(refused.value), str(refused.value)
        return
    verdict = adjudicate(case["record"]).to_dict()
    problems: list[str] = []
    for key, want in case["expect"].items():
        got = verdict[key]
        if key == "offences":
            have = sorted((o["code"], o["seat"], -1 if o["event"] is None else o["event"]) for o in got)
            need = sorted((o["code"], o["seat"], -1 if o["event"] is None else o["event"]) for o in want)
            if have != need:
                problems.append(f"offences: expected {need}, got {have}: {[o['evidence'] for o in got]}")
        elif isinstance(want, list):
            if len(got) != len(want) and not (key in PREFIX_LISTS and len(got) >= len(want)):
                problems.append(f"{key}: expected {len(want)} items, got {len(got)}: {got}")
                continue
            for i, item in enumerate(want):
                problems += _subset(item, got[i], f"{key}[{i}]")
        else:
            problems += _subset(want, got, key)
    assert not problems, "\n".join([case["title"], *problems])
