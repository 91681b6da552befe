"""Draw a boem as the players draw it on the score-board: an SVG "boem tree" from plain data.

Notes §V ("Procedure for Going On"): the boem is *a vertical line with five horizontal lines drawn across
it*. Each side records the strokes it wins on its own side of the vertical line by drawing a diagonal across
the tips of the rungs: one diagonal per going-on, across one rung for one stroke or two rungs for two.
The left side goes on from the top rung down, the right side from the bottom rung up, and a stroke is drawn
away from the strokes yet to be won (drawing across unwon strokes is punishable, SAKBOC 7.5).

This module is pure: it takes the sides' goings-on as numbers and returns SVG markup. It has no Django
import, so the public pages, the PDF match report and the tests share one drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

RUNGS = 5  # a boem is five strokes (SAKBOC 6.1, Notes §V)
WIDTH = 132
TOP = 28
GAP = 18
AXIS_X = WIDTH // 2
RUNG_HALF = 30
HEIGHT = TOP + GAP * (RUNGS - 1) + 34
FONT_SIZE = 11  # every text, in user units; the tree is drawn 1:1 on screen, so 11 px (readable on a phone)


class BoemDrawingError(ValueError):
    """The goings-on cannot be drawn: a going-on other than 1 or 2 strokes, or a side past 5 strokes."""


@dataclass(frozen=True)
class BoemDrawing:
    """One boem as drawn: the goings-on of each side in order, and how the boem ended.

    ``left`` and ``right`` list each going-on's strokes (1 or 2, SAKBOC 7.3: never more than 2 in one go);
    a side's total is at most 5. ``outcome`` is a short caption such as ``"5–3, 2 points"``,
    ``"straf (SAKBOC 6.2): 4 points"`` or ``"unfinished at time"``; ``straf_side`` is ``"left"`` or
    ``"right"`` when the boem ended in a straf in that side's favour. ``left_pending`` / ``right_pending``
    flag, going-on by going-on, those not yet confirmed by the opposing telman: drawn dashed (provisional).
    """

    left_label: str
    right_label: str
    left: Sequence[int] = field(default_factory=tuple)
    right: Sequence[int] = field(default_factory=tuple)
    outcome: str = ""
    straf_side: str | None = None
    left_pending: Sequence[bool] = field(default_factory=tuple)
    right_pending: Sequence[bool] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for side, goings in (("left", self.left), ("right", self.right)):
            if any(g not in (1, 2) for g in goings):
                raise BoemDrawingError(f"{side}: a going-on is 1 or 2 strokes (SAKBOC 7.3); got {list(goings)}.")
            if sum(goings) > RUNGS:
                raise BoemDrawingError(f"{side}: a boem has {RUNGS} strokes; got {sum(goings)}.")
        if self.straf_side not in (None, "left", "right"):
            raise BoemDrawingError("straf_side is 'left', 'right' or None.")


def rung_y(index: int) -> int:
    """The y coordinate of rung ``index`` (0 = top rung, 4 = bottom rung)."""
    return TOP + GAP * index


def _diagonals(goings: Sequence[int], *, side: str) -> list[tuple[int, int, int, int]]:
    """Return one line ``(x1, y1, x2, y2)`` per going-on for ``side`` ("left" from the top, "right" from the
    bottom), each crossing the tips of the rungs it covers."""
    lines = []
    won = 0
    for strokes in goings:
        covered = range(won, won + strokes)
        won += strokes
        if side == "left":  # top rung down: rungs 0, 1, ...
            first, last = rung_y(covered[0]), rung_y(covered[-1])
            x_outer, x_inner = AXIS_X - RUNG_HALF - 6, AXIS_X - RUNG_HALF + 12
            lines.append((x_outer, first - 7, x_inner, last + 7))
        else:  # bottom rung up: rungs 4, 3, ...
            first, last = rung_y(RUNGS - 1 - covered[0]), rung_y(RUNGS - 1 - covered[-1])
            x_outer, x_inner = AXIS_X + RUNG_HALF + 6, AXIS_X + RUNG_HALF - 12
            lines.append((x_outer, first + 7, x_inner, last - 7))
    return lines


def _initials(name: str) -> str:
    """``"Athlone Aces A"`` -> ``"AAA"``: the first letter (or character) of at most three words, upper case."""
    words = name.split()[:3]
    return "".join(next((c for c in w if c.isalpha()), w[0]) for w in words).upper() or "?"


def side_marks(left_label: str, right_label: str) -> tuple[str, str]:
    """The short marks drawn over each side of a tree, never a cut name: the teams' initials (``"AA"``,
    ``"BB"``), numbered when both teams have the same (``"AA1"``, ``"AA2"``). The full names go in a legend
    beside the trees (:func:`boem_legend_items`)."""
    left, right = _initials(left_label), _initials(right_label)
    if left == right:
        left, right = f"{left}1", f"{right}2"
    return left, right


def boem_legend_items(left_label: str, right_label: str) -> list[tuple[str, str, str]]:
    """``[(side, mark, full name), ...]`` for the legend under a table's trees (left first)."""
    marks = side_marks(left_label, right_label)
    return [("left", marks[0], left_label), ("right", marks[1], right_label)]


def boem_svg(drawing: BoemDrawing, *, title: str = "") -> str:
    """Return an accessible SVG of one boem tree (``role="img"``, a ``<title>`` saying the score).

    Shape: ``WIDTH`` × ``HEIGHT`` user units, scalable (``viewBox``); the vertical line, five rungs, one
    diagonal ``<line class="stroke stroke-left|stroke-right">`` per going-on, each side's mark at the top (the
    team's initials, :func:`side_marks`; the full names are in the ``<title>`` and the page's legend) and the
    outcome caption at the bottom, all in ``FONT_SIZE``. No inline styles or scripts (the site's CSP forbids them):
    presentation attributes only, so the drawing also prints and embeds in the PDF report unchanged.
    """
    left_total, right_total = sum(drawing.left), sum(drawing.right)
    summary = title or (
        f"Boem: {drawing.left_label} {left_total}, {drawing.right_label} {right_total}"
        + (f"; {drawing.outcome}" if drawing.outcome else "")
    )
    left_mark, right_mark = side_marks(drawing.left_label, drawing.right_label)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="boem-tree" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(summary)}">',
        f"<title>{escape(summary)}</title>",
        f'<text class="side-mark side-left" x="{AXIS_X - 4}" y="13" text-anchor="end" font-size="{FONT_SIZE}" '
        f'font-weight="bold" fill="#0f6b3a">{escape(left_mark)}</text>',
        f'<text class="side-mark side-right" x="{AXIS_X + 4}" y="13" text-anchor="start" font-size="{FONT_SIZE}" '
        f'font-weight="bold" fill="#a4431b">{escape(right_mark)}</text>',
        f'<line class="boem-axis" x1="{AXIS_X}" y1="{TOP - 10}" x2="{AXIS_X}" y2="{rung_y(RUNGS - 1) + 10}" '
        'stroke="#1d2a22" stroke-width="2"/>',
    ]
    for index in range(RUNGS):
        y = rung_y(index)
        parts.append(
            f'<line class="boem-rung" x1="{AXIS_X - RUNG_HALF}" y1="{y}" x2="{AXIS_X + RUNG_HALF}" y2="{y}" '
            'stroke="#1d2a22" stroke-width="1.5"/>'
        )
    for side, goings, pending, colour in (("left", drawing.left, drawing.left_pending, "#0f6b3a"),
                                          ("right", drawing.right, drawing.right_pending, "#a4431b")):
        for index, (x1, y1, x2, y2) in enumerate(_diagonals(goings, side=side)):
            provisional = index < len(pending) and pending[index]
            dash = ' stroke-dasharray="3 3" opacity="0.75"' if provisional else ""
            parts.append(
                f'<line class="stroke stroke-{side}{" provisional" if provisional else ""}" x1="{x1}" y1="{y1}" '
                f'x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="2.5" stroke-linecap="round"{dash}/>'
            )
    if drawing.straf_side:
        x = AXIS_X - RUNG_HALF - 16 if drawing.straf_side == "left" else AXIS_X + RUNG_HALF + 16
        parts.append(
            f'<text class="straf-mark" x="{x}" y="{rung_y(2) + 4}" text-anchor="middle" '
            f'font-size="{FONT_SIZE}" font-weight="bold" fill="#a4431b">af</text>'
        )
    caption = drawing.outcome or f"{left_total}–{right_total}"
    parts.append(
        f'<text class="outcome" x="{AXIS_X}" y="{HEIGHT - 6}" text-anchor="middle" font-size="{FONT_SIZE}" '
        f'fill="#5d6b62">{escape(caption)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
