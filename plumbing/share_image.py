"""Preview images for shared pages (issue 38): a PNG of 1200×630 pixels, the size OpenGraph readers (WhatsApp,
Facebook, X) show large, drawn server-side with Pillow from plain values.

Two pictures: :func:`match_preview_png` (the teams, the score, and each table's boem trees drawn as on paper:
a vertical line with five rungs, a diagonal per going-on across one or two rungs, the left side from the top
down and the right side from the bottom up, Notes §V and SAKBOC 6.1/7.3) and :func:`table_preview_png` (the top of
a standings table). The text is set in DejaVu Sans (Debian's ``fonts-dejavu-core``, installed by
``scripts/ensure-fonts-dejavu``; it prints Afrikaans ê, ë and ô); without it, Pillow's own bundled font. This
module imports no app: the callers (``matches.share``) pass names and numbers, and cache the bytes per version of
their page.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
"""The size of every preview, in pixels (OpenGraph's recommended 1.91:1)."""

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
BACKGROUND = (20, 83, 45)
FOREGROUND = (255, 255, 255)
MUTED = (187, 222, 200)
ACCENT = (250, 204, 21)
AWAY = (251, 146, 60)
RUNGS = 5
MARGIN = 60

type Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class TreeGoings:
    """One boem's goings-on: ``left`` and ``right`` list each going-on's strokes (1 or 2; at most 5 a side)."""

    left: tuple[int, ...] = ()
    right: tuple[int, ...] = ()


@functools.cache
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans (bold or not) at ``size`` pixels; Pillow's bundled font when DejaVu is not installed."""
    try:
        return ImageFont.truetype(FONT_DIR + ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), size)
    except OSError:
        return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int, *, bold: bool = False,
         smallest: int = 22) -> tuple[str, Font]:
    """``text`` and the largest font (``size`` down to ``smallest``) it fits ``width`` pixels in; cut with an
    ellipsis when even the smallest is too wide."""
    for step in range(size, smallest - 1, -2):
        face = font(step, bold=bold)
        if draw.textlength(text, font=face) <= width:
            return text, face
    face = font(smallest, bold=bold)
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…", face


def _canvas(brand: str, caption: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, HEIGHT - 14, WIDTH, HEIGHT), fill=ACCENT)
    draw.text((MARGIN, 40), brand, font=font(28, bold=True), fill=ACCENT)
    text, face = _fit(draw, caption, WIDTH - 2 * MARGIN, 30, smallest=20)
    draw.text((MARGIN, 84), text, font=face, fill=MUTED)
    return image, draw


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _tree(draw: ImageDraw.ImageDraw, x: int, top: int, goings: TreeGoings, *, gap: int = 16,
          half: int = 18) -> None:
    """One boem tree with its axis at ``x``: five rungs ``gap`` apart from ``top``, a diagonal per going-on."""
    bottom = top + gap * (RUNGS - 1)
    draw.line((x, top - 8, x, bottom + 8), fill=FOREGROUND, width=3)
    for rung in range(RUNGS):
        y = top + rung * gap
        draw.line((x - half, y, x + half, y), fill=MUTED, width=2)
    rung = 0
    for strokes in goings.left[:RUNGS]:  # the left side goes on from the top rung down, across its half
        first, last = rung, min(rung + strokes, RUNGS) - 1
        draw.line((x - half - 4, top + first * gap - 5, x - 2, top + last * gap + 5), fill=ACCENT, width=4)
        rung = last + 1
    rung = RUNGS - 1
    for strokes in goings.right[:RUNGS]:  # the right side from the bottom rung up
        first, last = rung, max(rung - strokes + 1, 0)
        draw.line((x + half + 4, top + first * gap + 5, x + 2, top + last * gap - 5), fill=AWAY, width=4)
        rung = last - 1


def match_preview_png(*, brand: str, caption: str, home: str, away: str, score: str,
                      tables: Sequence[tuple[str, Sequence[TreeGoings]]], legend: str = "") -> bytes:
    """The preview of a match report: ``brand`` and ``caption`` (competition, date) on top, ``home``, ``score``
    (``"7 – 3"``, or ``"v"`` before play) and ``away`` across the middle, ``legend`` (which side of a tree is
    whose) and a row of boem trees per table (``(label, trees)``, at most four tables and as many trees as fit).
    Returns PNG bytes, 1200×630."""
    image, draw = _canvas(brand, caption)
    score_face = font(96, bold=True)
    score_width = int(draw.textlength(score, font=score_face))
    middle_y = 205  # the middle of the score line: the names are centred on it too
    draw.text((WIDTH // 2, middle_y), score, font=score_face, fill=FOREGROUND, anchor="mm")
    side_width = (WIDTH - 2 * MARGIN - score_width) // 2 - 30
    for name, anchor_x, anchor in ((home, MARGIN, "lm"), (away, WIDTH - MARGIN, "rm")):
        text, face = _fit(draw, name, side_width, 48, bold=True)
        draw.text((anchor_x, middle_y), text, font=face, fill=FOREGROUND, anchor=anchor)
    shown = [t for t in tables if t[1]][:4]
    if shown and legend:
        text, face = _fit(draw, legend, WIDTH - 2 * MARGIN, 22, smallest=16)
        draw.text((MARGIN, 272), text, font=face, fill=MUTED)
    if shown:
        row_height = (HEIGHT - 300 - 30) // len(shown)
        gap = max(8, min(16, (row_height - 30) // (RUNGS - 1)))
        for index, (label, trees) in enumerate(shown):
            top = 300 + index * row_height + 14
            draw.text((MARGIN, top + gap), label, font=font(24), fill=MUTED)
            x = MARGIN + 190
            for goings in trees:
                if x > WIDTH - MARGIN - 30:
                    break
                _tree(draw, x, top, goings, gap=gap, half=max(12, gap + 2))
                x += 4 * max(12, gap + 2) + 20
    return _png(image)


def table_preview_png(*, brand: str, caption: str, heading: Sequence[str],
                      rows: Sequence[Sequence[str]]) -> bytes:
    """The preview of a standings table: ``brand`` and ``caption`` (the competition) on top, then ``heading``
    (position, team, played, points) and the first ``rows`` that fit (six). The team column takes the room the
    numbers leave; a long name is shrunk, then cut with an ellipsis. Returns PNG bytes, 1200×630."""
    image, draw = _canvas(brand, caption)
    number_width = 150
    team_x, team_width = MARGIN + 90, WIDTH - 2 * MARGIN - 90 - 2 * number_width
    columns = (MARGIN, team_x, WIDTH - MARGIN - number_width, WIDTH - MARGIN)  # the numbers' right edges
    top, line = 150, 66
    head_face = font(26, bold=True)
    for column, (x, text) in enumerate(zip(columns, heading, strict=False)):
        draw.text((x, top), text, font=head_face, fill=MUTED, anchor="ra" if column >= 2 else "la")
    for index, row in enumerate(rows[:6]):
        y = top + 46 + index * line
        if index % 2 == 0:
            draw.rectangle((MARGIN - 14, y - 10, WIDTH - MARGIN + 14, y + line - 14), fill=(28, 100, 56))
        position, team, played, points = (list(row) + ["", "", "", ""])[:4]
        draw.text((MARGIN, y), position, font=font(38, bold=True), fill=ACCENT)
        text, face = _fit(draw, team, team_width - 20, 38, smallest=22)
        draw.text((team_x, y), text, font=face, fill=FOREGROUND)
        draw.text((columns[2], y), played, font=font(38), fill=FOREGROUND, anchor="ra")
        draw.text((columns[3], y), points, font=font(38, bold=True), fill=FOREGROUND, anchor="ra")
    return _png(image)
