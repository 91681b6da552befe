"""The boem tree drawn as SVG (Notes §V): a vertical line, five rungs, one diagonal per going-on."""

import re
import xml.etree.ElementTree as ET

import pytest

from matches.night.boem_svg import BoemDrawing, BoemDrawingError, boem_svg, rung_y, side_marks

NS = {"svg": "http://www.w3.org/2000/svg"}


def _lines(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter("{http://www.w3.org/2000/svg}line") if cls in e.get("class", "").split()]


def test_tree_has_one_axis_and_five_rungs():
    svg = boem_svg(BoemDrawing(left_label="DB", right_label="CD"))
    assert len(_lines(svg, "boem-axis")) == 1
    assert len(_lines(svg, "boem-rung")) == 5


def test_notes_v_example_db_five_cd_three():
    """Notes §V's example: DB go on 1, 2 then 2 from the top; CD go on 2 then 1 from the bottom."""
    svg = boem_svg(BoemDrawing(left_label="DB", right_label="CD", left=[1, 2, 2], right=[2, 1], outcome="5–3"))
    left, right = _lines(svg, "stroke-left"), _lines(svg, "stroke-right")
    assert len(left) == 3 and len(right) == 2
    # The left side's first going-on crosses the top rung only; its second crosses rungs 2 and 3.
    y1, y2 = float(left[0].get("y1")), float(left[0].get("y2"))
    assert y1 < rung_y(0) < y2 < rung_y(1)
    y1, y2 = float(left[1].get("y1")), float(left[1].get("y2"))
    assert y1 < rung_y(1) and y2 > rung_y(2) and y2 < rung_y(3)
    # The right side starts from the bottom rung: its 2 strokes cross rungs 5 and 4.
    ys = sorted((float(right[0].get("y1")), float(right[0].get("y2"))))
    assert ys[0] < rung_y(3) and ys[1] > rung_y(4)
    # Each stroke is a diagonal: x and y both change.
    for line in left + right:
        assert line.get("x1") != line.get("x2") and line.get("y1") != line.get("y2")
    assert "DB 5, CD 3" in svg


def test_svg_is_accessible_and_free_of_inline_styles_and_scripts():
    svg = boem_svg(BoemDrawing(left_label="<Home>", right_label="Away", left=[2], straf_side="left",
                               outcome="straf: 4 points"))
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.find("svg:title", NS).text.startswith("Boem: <Home> 2, Away 0")
    assert "<Home>" not in svg and "&lt;Home&gt;" in svg
    assert not re.search(r"style=|<script|on\w+=", svg)
    assert "af" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize(("left", "right"), [([3], []), ([2, 2, 2], []), ([], [0]), ([], [2, 2, 1, 1])])
def test_impossible_goings_on_are_refused(left, right):
    with pytest.raises(BoemDrawingError):
        BoemDrawing(left_label="A", right_label="B", left=left, right=right)


def _texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"))


def test_every_label_is_at_least_11_px_and_no_name_is_cut():
    svg = boem_svg(BoemDrawing(left_label="Athlone Aces A", right_label="Bonteheuwel Boere", left=[2],
                               straf_side="left", outcome="unfinished at time"))
    texts = _texts(svg)
    assert texts and all(float(t.get("font-size")) >= 11 for t in texts)
    assert "…" not in svg and "Athlone Ac" not in "".join(t.text for t in texts)
    marks = [t.text for t in texts if "side-mark" in t.get("class", "")]
    assert marks == ["AAA", "BB"]
    assert "unfinished at time" in [t.text for t in texts]
    # The full names stay in the accessible title.
    assert ET.fromstring(svg).find("svg:title", NS).text.startswith("Boem: Athlone Aces A 2, Bonteheuwel Boere 0")


def test_teams_with_the_same_initials_get_numbered_marks():
    assert side_marks("Athlone Aces", "Atlantis Aces") == ("AA1", "AA2")
    assert side_marks("x" * 300, "Bonteheuwel Boere") == ("X", "BB")


def test_legend_names_each_side_in_full():
    from matches.templatetags.boem_trees import boem_legend

    long_name = "Hanover Park Sturks " + "z" * 280
    html = boem_legend(long_name, "<Bonteheuwel> Boere", "dashed: waiting to be confirmed")
    assert long_name in html and "&lt;Bonteheuwel&gt; Boere" in html
    assert '<span class="side-key left">HPS</span>' in html and "(left, green)" in html
    assert "dashed: waiting to be confirmed" in html
