"""Printable paper (issue 38), the fallback on a night without power: A4 PDFs in the reader's language.

* :func:`score_sheets_pdf` — the blank SAKBOC boem score sheet of one table, or of all four in one PDF (one page
  each): the match, the table, each side's partnership (telman and byspeler, from the team sheets after
  substitutions), blank boem trees labelled with the teams (Notes §V: home goes on from the top rung on the
  left, away from the bottom rung on the right), lines for the hands (each side's count, who went on and how
  many strokes, SAKBOC 7.3), room for queries (SAKBOC 1.10: "queries can be noted on the score-sheet") and the
  telmen's and the referee's signatures.
* :func:`team_sheet_pdf` — a team's squad with registration numbers and blank lines for the night: four
  tables of a telman and a byspeler (SAKBOC 11.3: seats fixed for the night) and up to three half-time
  substitutions (SAKBOC 11.4).
* :func:`fixture_list_pdf` — a team's matches in date order: date, time, round, home or away, opponent, venue,
  and the score once there is one.

Everything is rendered from ``templates/documents/`` by ``plumbing.documents`` (WeasyPrint).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.safestring import SafeString, mark_safe

from clubs.models import Team
from matches.models import TABLES_PER_MATCH, Match
from matches.night import boem_svg
from matches.night.boem_svg import BoemDrawing
from matches.night.live import Partnership, table_partnerships
from plumbing import documents

#: Blank boem trees per half on a score sheet, and lines for hands (two columns of this many).
TREES_PER_HALF = 6
HAND_LINES = 14


class PaperError(ValueError):
    """A sheet that cannot be printed: a table number outside 1–4 (SAKBOC: four tables a night)."""


@dataclass(frozen=True)
class ScoreSheet:
    """One table's paper score sheet: its number and each side's partnership (``None``: no team sheet yet, the
    names are written in by hand)."""

    number: int
    home: Partnership | None
    away: Partnership | None


def score_sheets(*, match: Match, table: int | None = None) -> list[ScoreSheet]:
    """The sheets to print: table ``table`` alone, or all four in table order (1 query, the seats).

    :raises PaperError: ``table`` is not 1–4.
    """
    if table is not None and not 1 <= table <= TABLES_PER_MATCH:
        raise PaperError(f"A match has tables 1 to {TABLES_PER_MATCH}.")
    pairs = table_partnerships(match=match)
    numbers = [table] if table is not None else list(range(1, TABLES_PER_MATCH + 1))
    return [ScoreSheet(number=n, home=pairs.get(n, {}).get("home"), away=pairs.get(n, {}).get("away"))
            for n in numbers]


def _blank_tree(match: Match) -> SafeString:
    drawing = BoemDrawing(left_label=match.home.name, right_label=match.away.name, outcome=" ")  # no caption
    return mark_safe(boem_svg.boem_svg(drawing))  # noqa: S308 -- boem_svg escapes every name it draws


def score_sheets_pdf(*, match: Match, table: int | None = None) -> bytes:
    """The blank score sheet of ``table`` (or of all four tables, one A4 page each) as PDF bytes.

    :raises PaperError: ``table`` is not 1–4.
    """
    sheets = score_sheets(match=match, table=table)
    left_mark, right_mark = boem_svg.side_marks(match.home.name, match.away.name)
    tree = _blank_tree(match)
    return documents.pdf_bytes(template="documents/score_sheet.html", context={
        "match": match, "sheets": sheets, "left_mark": left_mark, "right_mark": right_mark,
        "trees": [tree] * TREES_PER_HALF,
        "hand_rows": [(n, n + HAND_LINES) for n in range(1, HAND_LINES + 1)],
    })


def team_squad(*, team: Team) -> list[dict[str, Any]]:
    """``team``'s squad by surname: ``{"name", "registration_number", "captain"}`` (1 query)."""
    return [{"name": f"{first} {last}", "registration_number": number, "captain": player_id == team.captain_id}
            for player_id, first, last, number in team.memberships.order_by("player__last_name", "player__first_name")
            .values_list("player_id", "player__first_name", "player__last_name", "player__registration_number")]


def team_sheet_pdf(*, team: Team) -> bytes:
    """``team``'s paper team sheet as PDF bytes: the squad with registration numbers (SAKBOC 1.5), blank lines
    for the night's four partnerships (SAKBOC 11.3) and three substitutions (SAKBOC 11.4)."""
    return documents.pdf_bytes(template="documents/team_sheet.html", context={
        "team": team, "squad": team_squad(team=team), "tables": range(1, TABLES_PER_MATCH + 1),
        "substitutions": range(1, 4),
    })


def team_fixtures(*, team: Team) -> list[dict[str, Any]]:
    """``team``'s matches in date order: ``{"match", "home" (bool), "opponent", "score"}``; ``score`` is
    "for–against" once the match has a result, else empty (1 query)."""
    matches = (Match.objects.filter(Q(home=team) | Q(away=team)).select_related("home", "away")
               .order_by("scheduled_start", "id"))
    out = []
    for match in matches:
        home = match.home_id == team.pk
        scored = match.result_status != Match.ResultStatus.NONE
        ours, theirs = (match.home_score, match.away_score) if home else (match.away_score, match.home_score)
        out.append({"match": match, "home": home, "opponent": (match.away if home else match.home).name,
                    "score": f"{ours}–{theirs}" if scored else ""})
    return out


def fixture_list_pdf(*, team: Team) -> bytes:
    """``team``'s fixture list as PDF bytes (one table, its header row repeated on every page)."""
    return documents.pdf_bytes(template="documents/fixture_list.html", context={
        "team": team, "fixtures": team_fixtures(team=team)})
