"""A table's boem sheet: the lines its telmen write in a match night, and the boems and points they make.

The paper score-sheet of a table (Notes §V) is a run of lines in the order they happened: a side's telman
goes on 1 or 2 strokes, a side punishes ("af", a straf), the referee rules a straf wrong, time is called.
:func:`score_sheet` replays such a run under a :class:`~engine.ruleset.Ruleset` and returns every boem with
its strokes, how it ended, who won it and the points; it is the one place the product turns a sheet into
points, so the table's device, the referee's ruling and the match report all score alike:

* **stroke**: ``team`` goes on 1 or 2 strokes, never more at once (SAKBOC 7.3); the first side to 5 strokes
  wins the boem: 2 points, 4 when the opponents have none ("five strokes clear", SAKBOC 6.1).
* **straf**: ``team`` punishes; the boem ends in its favour with the points of SAKBOC 6.2 as the ruleset
  reads it (DOMAIN.md interpretation 2, :func:`engine.scoring.straf_points`). A sheet that says which points
  the counter claimed is checked: only 2 or 4 may be claimed (6.5), and only what 6.2 allows.
* **wrong-straf**: the straf on the line just before was wrong: the punisher is punished instead (Notes
  §VII): the boem goes to ``team``, the side wrongly punished, with :func:`wrong_straf_points` (6.2, and 6.6's
  another 2 when its telman had claimed points).
* **time**: time is called (SAKBOC 2.2) or the table is stopped (12.1): a boem in progress is unfinished and
  scores what :func:`unfinished_boem_points` gives (nothing by default, DOMAIN.md interpretation 3); its
  strokes stay on the sheet.

Teams are 0 and 1 (the league maps its home side to 0). Nothing here knows a database.

>>> sheet = score_sheet([SheetLine("stroke", 0, 2), SheetLine("stroke", 0, 2), SheetLine("stroke", 0, 1)])
>>> sheet.boems[0].strokes, sheet.boems[0].winner, sheet.boems[0].points, sheet.points
((5, 0), 0, 4, (4, 0))
>>> score_sheet([SheetLine("stroke", 1, 2), SheetLine("stroke", 0, 1), SheetLine("straf", 1)]).points
(0, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.ruleset import SAKBOC_2004, Ruleset
from engine.scoring import BoemState, boem_points, straf_points

__all__ = [
    "BoemScore",
    "SheetError",
    "SheetKind",
    "SheetLine",
    "SheetScore",
    "score_sheet",
    "unfinished_boem_points",
    "wrong_straf_points",
]

SheetKind = Literal["stroke", "straf", "wrong-straf", "time"]
EndedBy = Literal["strokes", "straf", "wrong-straf", "time"]


class SheetError(ValueError):
    """A line the sheet cannot take. ``index`` is the line's position in the input, ``rule`` the clause it
    breaks (``"SAKBOC 7.3"``); the message says what is wrong in words a referee reads."""

    def __init__(self, index: int, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.index = index
        self.rule = rule


@dataclass(frozen=True)
class SheetLine:
    """One line of a boem sheet.

    :ivar kind: ``"stroke"``, ``"straf"``, ``"wrong-straf"`` or ``"time"``.
    :ivar team: 0 or 1: who went on (stroke), who punished (straf), the side wrongly punished and so the
        winner (wrong-straf); ``None`` for time.
    :ivar strokes: strokes gone on (stroke only): 1 or 2.
    :ivar claimed: the points the punishing counter claimed (straf only), or ``None`` when the sheet does not
        say; checked against SAKBOC 6.5 and 6.2.
    :ivar points_claimed: wrong-straf only: the side wrongly punished had already claimed points (SAKBOC 6.6).
    """

    kind: SheetKind
    team: int | None = None
    strokes: int = 0
    claimed: int | None = None
    points_claimed: bool = False


@dataclass(frozen=True)
class BoemScore:
    """One boem of a sheet.

    :ivar number: 1, 2, ... in sheet order.
    :ivar lines: indices of the input lines that belong to it, in order.
    :ivar strokes: strokes of team 0 and team 1.
    :ivar ended_by: ``"strokes"`` (5 reached), ``"straf"``, ``"wrong-straf"``, ``"time"`` (unfinished), or
        ``None`` while it is in progress.
    :ivar winner: the team the points go to, or ``None``.
    :ivar points: match points to ``winner`` (0 when none).
    :ivar rule: the clause the points rest on (``"SAKBOC 6.1"``), ``""`` while in progress.
    """

    number: int
    lines: tuple[int, ...]
    strokes: tuple[int, int]
    ended_by: EndedBy | None
    winner: int | None
    points: int
    rule: str

    @property
    def in_progress(self) -> bool:
        """True while no line has ended the boem."""
        return self.ended_by is None


@dataclass(frozen=True)
class SheetScore:
    """A scored sheet.

    :ivar boems: every boem, in order; the last may be in progress.
    :ivar line_boem: for each input line, the number of its boem (``None`` for a time line with no boem to
        close).
    :ivar line_points: for each input line, the points it carries on the sheet: a straf's or a wrong straf's
        award, or the points a stroke or time line ended its boem with (0 for the others).
    :ivar points: match points of team 0 and team 1 over every boem.
    """

    boems: tuple[BoemScore, ...]
    line_boem: tuple[int | None, ...]
    line_points: tuple[int, ...]
    points: tuple[int, int]

    @property
    def current(self) -> BoemScore | None:
        """The boem in progress, if any."""
        return self.boems[-1] if self.boems and self.boems[-1].in_progress else None


def wrong_straf_points(
    victim_strokes: int, punisher_strokes: int, *, points_claimed: bool, ruleset: Ruleset = SAKBOC_2004
) -> int:
    """Points of a boem that a wrong straf gives to the side wrongly punished (Notes §VII: the punisher is
    punished): what a straf by that side would earn from its position (SAKBOC 6.2, :func:`straf_points`), and
    another 2 when its telman had already claimed points (SAKBOC 6.6).

    >>> wrong_straf_points(3, 0, points_claimed=False), wrong_straf_points(3, 0, points_claimed=True)
    (4, 6)
    """
    return straf_points(victim_strokes, punisher_strokes, ruleset) + (2 if points_claimed else 0)


def unfinished_boem_points(strokes: tuple[int, int], ruleset: Ruleset = SAKBOC_2004) -> tuple[int, int]:
    """Points of a boem unfinished when time is called or the table is stopped (DOMAIN.md interpretation 3):
    nothing by default; with ``ruleset.unfinished_boem_scores`` (a union's setting) the side ahead on strokes
    scores 2, and a level boem nothing.

    >>> unfinished_boem_points((4, 1)), unfinished_boem_points((4, 1), SAKBOC_2004.replace(unfinished_boem_scores=True))
    ((0, 0), (2, 0))
    """
    if not ruleset.unfinished_boem_scores or strokes[0] == strokes[1]:
        return (0, 0)
    return (2, 0) if strokes[0] > strokes[1] else (0, 2)


def _team(line: SheetLine, index: int) -> int:
    if line.team not in (0, 1):
        raise SheetError(index, "Notes §V", f"a {line.kind} line names team 0 or 1, not {line.team!r}")
    assert line.team is not None
    return line.team


@dataclass
class _Open:
    """The boem being written."""

    number: int
    lines: list[int]
    state: BoemState


def score_sheet(lines: Sequence[SheetLine], ruleset: Ruleset = SAKBOC_2004) -> SheetScore:
    """Replay a table's boem-sheet lines in order and score every boem (see the module's rules).

    :param lines: the sheet's lines in the order they happened.
    :param ruleset: the rules to score under (a union's reading of SAKBOC 2004, say).
    :returns: a :class:`SheetScore`.
    :raises SheetError: the first line the sheet cannot take: going on other than 1 or 2 strokes (SAKBOC 7.3),
        a straf claiming other than 2 or 4 (6.5) or more than 6.2 allows, a wrong straf that does not follow a
        straf of the other side (Notes §VII), a team other than 0 or 1; ``index`` names the line.
    """
    boems: list[BoemScore] = []
    line_boem: list[int | None] = [None] * len(lines)
    line_points = [0] * len(lines)
    current: _Open | None = None
    last_straf: int | None = None  # index of a straf line that ended the last boem, until another line

    def close(open_boem: _Open, ended_by: EndedBy, winner: int | None, points: int, rule: str) -> None:
        boems.append(BoemScore(open_boem.number, tuple(open_boem.lines), open_boem.state.strokes, ended_by,
                               winner, points, rule))

    for index, line in enumerate(lines):
        previous_straf, last_straf = last_straf, None
        if line.kind == "time":
            if current is not None:
                pair = unfinished_boem_points(current.state.strokes, ruleset)
                winner = 0 if pair[0] else 1 if pair[1] else None
                points = max(pair)
                current.lines.append(index)
                line_boem[index], line_points[index] = current.number, points
                close(current, "time", winner, points, "DOMAIN.md interpretation 3")
                current = None
            continue
        if line.kind == "wrong-straf":
            team = _team(line, index)
            if previous_straf is None or lines[previous_straf].team == team or not boems:
                raise SheetError(index, "Notes §VII",
                                 "only the straf on the line just before can be ruled wrong, in favour of the side "
                                 "it punished")
            ended = boems.pop()
            mine, theirs = ended.strokes[team], ended.strokes[1 - team]
            points = wrong_straf_points(mine, theirs, points_claimed=line.points_claimed, ruleset=ruleset)
            rule = "Notes §VII, SAKBOC 6.2" + (", 6.6" if line.points_claimed else "")
            boems.append(BoemScore(ended.number, (*ended.lines, index), ended.strokes, "wrong-straf", team, points,
                                   rule))
            line_boem[index], line_points[index] = ended.number, points
            continue
        if line.kind not in ("stroke", "straf"):
            raise SheetError(index, "Notes §V", f"{line.kind!r} is not a boem-sheet line")
        team = _team(line, index)
        if line.kind == "stroke" and not 1 <= line.strokes <= ruleset.max_strokes_at_once:
            raise SheetError(index, "SAKBOC 7.3",
                             f"a counter goes on 1 or {ruleset.max_strokes_at_once} strokes at a time, never "
                             f"{line.strokes}")
        if current is None:
            number = boems[-1].number + 1 if boems else 1
            current = _Open(number, [], BoemState((0, 0), ruleset.boem_strokes))
        current.lines.append(index)
        line_boem[index] = current.number
        if line.kind == "stroke":
            current.state = current.state.go_on(team, line.strokes, ruleset)
            if current.state.finished:
                pair = boem_points(current.state.strokes, ruleset.boem_strokes)
                line_points[index] = pair[team]
                close(current, "strokes", team, pair[team], "SAKBOC 6.1")
                current = None
            continue
        mine, theirs = current.state.strokes[team], current.state.strokes[1 - team]
        earned = straf_points(mine, theirs, ruleset)
        if line.claimed is not None and line.claimed not in ruleset.straf_points:
            allowed = " or ".join(str(p) for p in ruleset.straf_points)
            raise SheetError(index, "SAKBOC 6.5", f"a counter may claim only {allowed} points, not {line.claimed}")
        if line.claimed is not None and line.claimed != earned:
            raise SheetError(index, "SAKBOC 6.2",
                             f"with {mine} strokes against {theirs} a straf earns {earned} points, not "
                             f"{line.claimed}")
        line_points[index] = earned
        close(current, "straf", team, earned, "SAKBOC 6.2")
        current = None
        last_straf = index
    if current is not None:
        boems.append(BoemScore(current.number, tuple(current.lines), current.state.strokes, None, None, 0, ""))
    totals = [0, 0]
    for boem in boems:
        if boem.winner is not None:
            totals[boem.winner] += boem.points
    return SheetScore(tuple(boems), tuple(line_boem), tuple(line_points), (totals[0], totals[1]))
