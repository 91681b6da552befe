"""A table's boem sheet scored by the engine (SAKBOC 6.1, 6.2, 6.5, 6.6, 7.3; Notes §V, §VII; interpretation 3).

Each case is a sheet as its lines (``"0+2"``: team 0 goes on 2 strokes; ``"1af"``: team 1 punishes; ``"1af4"``:
team 1 punishes claiming 4; ``"0wrong"``: the straf just before was wrong, the boem goes to team 0; ``"0wrong*"``:
the same, team 0's telman had claimed points; ``"time"``) and what the engine must make of it.
"""

from __future__ import annotations

import random

import pytest

from engine.boem_sheet import SheetError, SheetLine, score_sheet, unfinished_boem_points, wrong_straf_points
from engine.ruleset import SAKBOC_2004
from engine.scoring import straf_points

CLEAR = SAKBOC_2004.replace(straf_four_points="three-or-four-strokes-clear")
LEADER_SCORES = SAKBOC_2004.replace(unfinished_boem_scores=True)


def lines(*codes: str) -> list[SheetLine]:
    out = []
    for code in codes:
        if code == "time":
            out.append(SheetLine("time"))
        elif "+" in code:
            team, strokes = code.split("+")
            out.append(SheetLine("stroke", int(team), int(strokes)))
        elif "af" in code:
            team, claimed = code.split("af")
            out.append(SheetLine("straf", int(team), claimed=int(claimed) if claimed else None))
        elif code.endswith("wrong*") or code.endswith("wrong"):
            out.append(SheetLine("wrong-straf", int(code[0]), points_claimed=code.endswith("*")))
        else:
            raise AssertionError(code)
    return out


# codes, ruleset, expected boems as (strokes, ended_by, winner, points), expected totals
CASES = [
    pytest.param(["0+2", "0+2", "0+1"], SAKBOC_2004, [((5, 0), "strokes", 0, 4)], (4, 0), id="6.1-five-nil-4"),
    pytest.param(["0+2", "1+1", "0+2", "0+1"], SAKBOC_2004, [((5, 1), "strokes", 0, 2)], (2, 0), id="6.1-five-one-2"),
    pytest.param(["1+2", "1+2", "0+2", "1+2"], SAKBOC_2004, [((2, 5), "strokes", 1, 2)], (0, 2),
                 id="6.1-the-boem-stops-at-5"),
    pytest.param(["0+2", "0+1", "0af"], SAKBOC_2004, [((3, 0), "straf", 0, 4)], (4, 0), id="6.2-three-nil-4"),
    pytest.param(["0+2", "0+2", "1+1", "0af"], SAKBOC_2004, [((4, 1), "straf", 0, 2)], (2, 0),
                 id="6.2-opponents-on-2"),
    pytest.param(["0+2", "0+2", "1+1", "0af"], CLEAR, [((4, 1), "straf", 0, 4)], (4, 0),
                 id="6.2-other-reading-three-clear-4"),
    pytest.param(["1af"], SAKBOC_2004, [((0, 0), "straf", 1, 2)], (0, 2), id="6.2-fresh-boem-2"),
    pytest.param(["0+2", "0+1", "0af4"], SAKBOC_2004, [((3, 0), "straf", 0, 4)], (4, 0), id="6.5-claims-4-rightly"),
    pytest.param(["1+2", "1+1", "0af", "1wrong"], SAKBOC_2004, [((0, 3), "wrong-straf", 1, 4)], (0, 4),
                 id="notes-vii-wrong-straf-to-the-punished"),
    pytest.param(["1+2", "1+1", "0af", "1wrong*"], SAKBOC_2004, [((0, 3), "wrong-straf", 1, 6)], (0, 6),
                 id="6.6-another-2"),
    pytest.param(["0+2", "1+1", "time"], SAKBOC_2004, [((2, 1), "time", None, 0)], (0, 0),
                 id="interpretation-3-unfinished-nothing"),
    pytest.param(["0+2", "1+1", "time"], LEADER_SCORES, [((2, 1), "time", 0, 2)], (2, 0),
                 id="interpretation-3-other-reading-leader-2"),
    pytest.param(["0+1", "1+1", "time"], LEADER_SCORES, [((1, 1), "time", None, 0)], (0, 0),
                 id="interpretation-3-level-nothing"),
    pytest.param(["time"], SAKBOC_2004, [], (0, 0), id="time-with-no-boem"),
    pytest.param(["0+2", "0+2", "0+1", "1+2", "time", "1+1"], SAKBOC_2004,
                 [((5, 0), "strokes", 0, 4), ((0, 2), "time", None, 0), ((0, 1), None, None, 0)], (4, 0),
                 id="boems-back-to-back-and-extra-time"),
]


@pytest.mark.parametrize(("codes", "ruleset", "expected", "totals"), CASES)
def test_sheet_cases(codes, ruleset, expected, totals) -> None:
    sheet = score_sheet(lines(*codes), ruleset)
    assert [(b.strokes, b.ended_by, b.winner, b.points) for b in sheet.boems] == expected
    assert sheet.points == totals
    assert [b.number for b in sheet.boems] == list(range(1, len(expected) + 1))


def test_each_line_knows_its_boem_and_its_points() -> None:
    sheet = score_sheet(lines("0+2", "0+2", "0+1", "1+2", "0af", "1wrong", "time", "0+1"))
    assert sheet.line_boem == (1, 1, 1, 2, 2, 2, None, 3)
    assert sheet.line_points == (0, 0, 4, 0, 2, 2, 0, 0)
    assert sheet.current is not None and sheet.current.number == 3 and sheet.current.strokes == (1, 0)
    assert sheet.boems[1].rule == "Notes §VII, SAKBOC 6.2"


@pytest.mark.parametrize(("codes", "index", "rule"), [
    (["0+1", "0+3"], 1, "SAKBOC 7.3"),
    (["0+0"], 0, "SAKBOC 7.3"),
    (["0af1"], 0, "SAKBOC 6.5"),
    (["0+2", "0af4"], 1, "SAKBOC 6.2"),
    (["0+1", "1wrong"], 1, "Notes §VII"),
    (["0af", "0wrong"], 1, "Notes §VII"),
    (["0af", "time", "1wrong"], 2, "Notes §VII"),
])
def test_a_line_the_sheet_cannot_take_names_its_index_and_clause(codes, index, rule) -> None:
    with pytest.raises(SheetError) as raised:
        score_sheet(lines(*codes))
    assert (raised.value.index, raised.value.rule) == (index, rule)
    assert str(raised.value).startswith(rule)


def test_a_team_must_be_0_or_1() -> None:
    with pytest.raises(SheetError, match="team 0 or 1"):
        score_sheet([SheetLine("stroke", 2, 1)])


def test_wrong_straf_points_are_the_victims_6_2_points_and_6_6s_2() -> None:
    for mine in range(5):
        for theirs in range(5):
            assert wrong_straf_points(mine, theirs, points_claimed=False) == straf_points(mine, theirs)
            assert wrong_straf_points(mine, theirs, points_claimed=True) == straf_points(mine, theirs) + 2
    assert unfinished_boem_points((3, 3), LEADER_SCORES) == (0, 0)


def test_random_sheets_total_their_boems_and_never_exceed_5_strokes() -> None:
    rng = random.Random(7)
    for _ in range(500):
        codes = [rng.choice(["0+1", "0+2", "1+1", "1+2", "0af", "1af", "time"]) for _ in range(rng.randint(1, 30))]
        sheet = score_sheet(lines(*codes), rng.choice([SAKBOC_2004, CLEAR, LEADER_SCORES]))
        assert sheet.points[0] == sum(b.points for b in sheet.boems if b.winner == 0)
        assert sheet.points[1] == sum(b.points for b in sheet.boems if b.winner == 1)
        for boem in sheet.boems:
            assert max(boem.strokes) <= 5
            assert boem.points in ((0,) if boem.winner is None else (2, 4))
            assert (boem.ended_by == "strokes") == (max(boem.strokes) == 5)
        assert all(b.ended_by is not None for b in sheet.boems[:-1])

