"""Charts drawn on the server as SVG: a line chart of positions round by round, and a bar chart of boems won
and lost per match night.

Pure (no Django import), like ``matches/night/boem_svg.py``: plain numbers and names in, SVG markup out, every name
escaped. The drawing is 360 user units wide and scales to its box (``width="100%"``); every text is 12 units,
so about 11 px on a 375-px phone and never smaller. Each chart says what it shows in its ``<title>`` and
``<desc>`` (``role="img"``); the pages put a table with the same numbers beside it, for screen readers and
for anyone who would rather read.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.translation import gettext as _

WIDTH = 360
FONT = 12
#: Ten colours told apart by people with the common colour blindnesses (Okabe–Ito, then Tol's muted);
#: from the eleventh line on they repeat, dashed.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#882255", "#44AA99",
           "#999933")
WON_COLOUR = "#0f6b3a"
LOST_COLOUR = "#a4431b"


def series_colour(index: int) -> tuple[str, str]:
    """The colour and dash pattern (``""`` for solid) of the ``index``-th line (0-based)."""
    return PALETTE[index % len(PALETTE)], "" if index < len(PALETTE) else "5 3"


def _every(count: int, room: int) -> int:
    """Label every n-th of ``count`` ticks so that at most ``room`` labels are drawn."""
    return max(1, -(-count // max(room, 1)))


def positions_chart(*, rounds: Sequence[int], series: Sequence[tuple[str, Sequence[int]]], title: str) -> str:
    """A line per team: its position (1 at the top) after each round.

    :param rounds: the round numbers along the x axis.
    :param series: ``(team name, positions)``, one position per round.
    :raises ValueError: a series whose length is not the number of rounds.
    """
    teams = len(series)
    for name, positions in series:
        if len(positions) != len(rounds):
            raise ValueError(f"{name}: {len(positions)} positions for {len(rounds)} rounds")
    left, right, top, bottom = 30, 14, 10, 34
    step_y = max(22, 150 // max(teams - 1, 1)) if teams <= 12 else max(6, 264 // max(teams - 1, 1))
    height = top + bottom + step_y * max(teams - 1, 1)
    plot_w = WIDTH - left - right
    step_x = plot_w / max(len(rounds) - 1, 1)

    def x(i: int) -> float:
        return left + (i * step_x if len(rounds) > 1 else plot_w / 2)

    def y(position: int) -> float:
        return top + (position - 1) * step_y

    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
           f'aria-labelledby="chart-positions-title" xmlns="http://www.w3.org/2000/svg" font-size="{FONT}" '
           f'font-family="system-ui, sans-serif">',
           f'<title id="chart-positions-title">{escape(title)}</title>',
           "<desc>" + escape(_("Position after each round, 1 at the top; %(teams)s teams over %(rounds)s rounds. "
                               "The table below gives the same positions.")
                             % {"teams": teams, "rounds": len(rounds)}) + "</desc>"]
    label_every = _every(teams, 12)
    for position in range(1, teams + 1):
        out.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y(position):.1f}" y2="{y(position):.1f}" '
                   'stroke="#d6dbd3" stroke-width="0.5"/>')
        if position == 1 or position % label_every == 0:
            out.append(f'<text x="{left - 6}" y="{y(position) + 4:.1f}" text-anchor="end" fill="#5d6b62">'
                       f'{position}</text>')
    round_every = _every(len(rounds), 10)
    for i, number in enumerate(rounds):
        if i % round_every == 0 or i == len(rounds) - 1:
            out.append(f'<text x="{x(i):.1f}" y="{height - bottom + 18}" text-anchor="middle" fill="#5d6b62">'
                       f'{number}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" text-anchor="middle" fill="#5d6b62">'
               f'{escape(_("Round"))}</text>')
    for index, (name, positions) in enumerate(series):
        colour, dash = series_colour(index)
        points = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(positions))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g><title>{escape(name)}: {", ".join(str(p) for p in positions)}</title>'
                   f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"'
                   f' stroke-linejoin="round"{dash_attr}/>')
        out.extend(f'<circle cx="{x(i):.1f}" cy="{y(p):.1f}" r="3" fill="{colour}"/>' for i, p in enumerate(positions))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def boems_per_night_chart(*, nights: Sequence[tuple[str, int, int]], title: str) -> str:
    """Bars per match night: boems won above the line (green), boems lost below it (red).

    :param nights: ``(label, won, lost)`` in date order; the label is short (``"12 Mar"``).
    """
    left, right, top, bottom = 30, 8, 12, 22
    most = max([1, *(max(won, lost) for _, won, lost in nights)])
    half = 80
    height = top + 2 * half + bottom
    axis = top + half
    plot_w = WIDTH - left - right
    slot = plot_w / max(len(nights), 1)
    bar = max(2.0, min(22.0, slot * 0.7))
    scale = half / most

    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
           f'aria-labelledby="chart-boems-title" xmlns="http://www.w3.org/2000/svg" font-size="{FONT}" '
           f'font-family="system-ui, sans-serif">',
           f'<title id="chart-boems-title">{escape(title)}</title>',
           "<desc>" + escape(_("Boems won (up, green) and lost (down, red) at each of %(count)s match nights. "
                               "The table beside gives the same numbers.") % {"count": len(nights)}) + "</desc>"]
    tick = max(1, -(-most // 4))
    for value in range(0, most + 1, tick):
        for sign in ((1,) if value == 0 else (1, -1)):
            y = axis - sign * value * scale
            out.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d6dbd3" '
                       f'stroke-width="{1 if value == 0 else 0.5}"/>')
            out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end" fill="#5d6b62">{value}</text>')
    label_every = _every(len(nights), 6)
    for i, (label, won, lost) in enumerate(nights):
        cx = left + slot * i + slot / 2
        out.append("<g><title>" + escape(_("%(night)s: %(won)s won, %(lost)s lost")
                                          % {"night": label, "won": won, "lost": lost}) + "</title>")
        if won:
            out.append(f'<rect x="{cx - bar / 2:.1f}" y="{axis - won * scale:.1f}" width="{bar:.1f}" '
                       f'height="{won * scale:.1f}" fill="{WON_COLOUR}"/>')
        if lost:
            out.append(f'<rect x="{cx - bar / 2:.1f}" y="{axis:.1f}" width="{bar:.1f}" height="{lost * scale:.1f}" '
                       f'fill="{LOST_COLOUR}"/>')
        out.append("</g>")
        if i % label_every == 0:
            out.append(f'<text x="{cx:.1f}" y="{height - 6}" text-anchor="middle" fill="#5d6b62">'
                       f'{escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)
