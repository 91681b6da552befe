"""What the public pages show, and their downloads: standings tables and match reports as CSV, ``.xlsx`` and PDF.

* :func:`match_report_load` reads a match with its tables, boems, boem-sheet entries and awards in a fixed
  number of queries; :func:`~matches.night.live.boem_drawing` turns one boem into the plain data
  ``matches.night.boem_svg`` draws.
* :func:`standings_table`, :func:`match_boems_table`, :func:`match_score_table` give each downloadable table as
  fixed headers and rows of one kind (issue 38: the boem rows and the score summary are separate files);
  ``plumbing.spreadsheets`` writes them as CSV with a byte-order mark or ``.xlsx``.
* :func:`standings_pdf`, :func:`match_report_pdf` render ``templates/documents/`` with WeasyPrint
  (``plumbing.documents``): fonts embedded, columns that wrap, page numbers, headings repeated.

Downloads carry no code (issue 16): every spreadsheet cell goes through
:func:`plumbing.spreadsheets.sheet_cell` (OWASP's rule against formulas), and a PDF is rendered by a
template that escapes every name and fetches nothing (no image from the server's disk, no link).

Standings rows are plain dicts with the keys of a published snapshot's ``rows`` (``position``,
``team_name``, ``club_name``, ``played``, ``won``, ``drawn``, ``lost``, ``points_for``, ``points_against``,
``difference``, ``league_points``, ``tiebreak_reason``), so a frozen snapshot and the live table
(:func:`matches.results.selectors.standings_rows`) export alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Sum
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from matches.models import SHEET_ORDER, Award, Boem, BoemEntry, DealLine, Match, MatchTable
from matches.night import boem_svg
from matches.night.boem_svg import BoemDrawing
from matches.night.live import boem_drawing
from matches.results.standings import tiebreak_reason_display
from matches.rules import plays_deals
from plumbing import documents
from plumbing.spreadsheets import sheet_cell

#: The standings' columns: (row key, header). Headers are lazy: a download is in its reader's language.
STANDINGS_COLUMNS = [
    ("position", pgettext_lazy("position", "Pos")), ("team_name", gettext_lazy("Team")),
    ("club_name", gettext_lazy("Club")), ("played", pgettext_lazy("played", "P")),
    ("won", pgettext_lazy("won", "W")), ("drawn", pgettext_lazy("drawn", "D")), ("lost", pgettext_lazy("lost", "L")),
    ("points_for", pgettext_lazy("points for", "For")), ("points_against", pgettext_lazy("points against", "Against")),
    ("difference", pgettext_lazy("difference", "Diff")), ("league_points", pgettext_lazy("points", "Pts")),
    ("tiebreak_reason", gettext_lazy("Tie broken by")),
]


@dataclass(frozen=True)
class TableReport:
    """One table of a match report: the table, its boems with their drawings, and each side's points."""

    table: MatchTable
    boems: list[tuple[Boem, BoemDrawing]]
    home_points: int
    away_points: int


def match_report_load(*, match_id: int) -> Match | None:
    """The match with teams, tables, boems, entries and awards prefetched (5 queries), or ``None``."""
    return (
        Match.objects.select_related("competition__union", "home__club", "away__club")
        .prefetch_related(
            Prefetch("tables", queryset=MatchTable.objects.order_by("number")),
            Prefetch("tables__boems", queryset=Boem.objects.order_by("number")),
            Prefetch("tables__boems__entries", queryset=BoemEntry.objects.order_by(*SHEET_ORDER)),
            Prefetch("awards", queryset=Award.objects.select_related("team").order_by("id")),
        )
        .filter(pk=match_id)
        .first()
    )


def table_reports(match: Match) -> list[TableReport]:
    """Each table's boems as drawings and each side's points there (after a stop's forfeit, SAKBOC 12.1); in a
    game scored deal by deal (issue 24) the points are the table's deals in the game's unit (one query more)."""
    reports = []
    deal_totals: dict[int, tuple[int, int]] = {}
    if plays_deals(match.competition):
        for row in (DealLine.objects.filter(table__match=match).values("table_id")
                    .annotate(home=Sum("home_score"), away=Sum("away_score"))):
            deal_totals[row["table_id"]] = (row["home"] or 0, row["away"] or 0)
    for table in match.tables.all():
        boems = list(table.boems.all())
        home_points = sum(b.points for b in boems if b.winner_id == match.home_id)
        away_points = sum(b.points for b in boems if b.winner_id == match.away_id)
        if table.pk in deal_totals:
            home_points, away_points = deal_totals[table.pk]
        if table.status == MatchTable.Status.STOPPED and table.defaulting_team_id == match.home_id:
            home_points = 0
        if table.status == MatchTable.Status.STOPPED and table.defaulting_team_id == match.away_id:
            away_points = 0
        reports.append(TableReport(table=table, boems=[(b, boem_drawing(boem=b, match=match)) for b in boems],
                                   home_points=home_points, away_points=away_points))
    return reports


# --- Spreadsheets ------------------------------------------------------------------------------------------


def csv_cell(value: Any) -> Any:
    """A value made safe for a CSV cell (:func:`plumbing.spreadsheets.sheet_cell`): text beginning with
    ``= + - @``, a tab or a carriage return gets a leading ``'``; numbers and ``None`` pass unchanged.

    >>> csv_cell("@SUM(A1)"), csv_cell(-4), csv_cell("Athlone Aces")
    ("'@SUM(A1)", -4, 'Athlone Aces')
    """
    return sheet_cell(value, fmt="csv")


def standings_table(rows: list[dict]) -> tuple[list[str], list[list[Any]]]:
    """Standings as ``(headers, rows)``: the headers of :data:`STANDINGS_COLUMNS` in the reader's language, then
    one row per team in position order, the tiebreak reason said in the reader's language."""
    headers = [str(label) for _key, label in STANDINGS_COLUMNS]
    lines = [[row.get(key, "") for key, _ in STANDINGS_COLUMNS[:-1]]
             + [tiebreak_reason_display(row.get("tiebreak_reason") or "")] for row in rows]
    return headers, lines


def standings_csv(rows: list[dict]) -> str:
    """Standings as the text a spreadsheet reads from the CSV download (the file adds a byte-order mark)."""
    from plumbing.spreadsheets import table_bytes

    headers, lines = standings_table(rows)
    return table_bytes(headers=headers, rows=lines, fmt="csv").decode("utf-8-sig")


#: The boem rows' columns, fixed whatever the teams are called (issue 38): one row per boem.
BOEM_COLUMNS = [
    gettext_lazy("Table"), gettext_lazy("Boem"), gettext_lazy("Home team"), gettext_lazy("Away team"),
    gettext_lazy("Home strokes"), gettext_lazy("Away strokes"), gettext_lazy("Status"), gettext_lazy("Winner"),
    gettext_lazy("Points"),
]

#: The score summary's columns: one row per team (home first).
SCORE_COLUMNS = [
    gettext_lazy("Side"), gettext_lazy("Team"), gettext_lazy("Table 1"), gettext_lazy("Table 2"),
    gettext_lazy("Table 3"), gettext_lazy("Table 4"), gettext_lazy("Awards"), gettext_lazy("Match score"),
    gettext_lazy("Result"), gettext_lazy("Status"),
]


def match_boems_table(match: Match) -> tuple[list[str], list[list[Any]]]:
    """A match's boems as ``(headers, rows)``: one row per boem (:data:`BOEM_COLUMNS`): table number, boem
    number, the two teams, each side's strokes (SAKBOC 6.1: five win a boem), status, winner and points."""
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    rows = [[report.table.number, boem.number, match.home.name, match.away.name, boem.home_strokes,
             boem.away_strokes, str(boem.get_status_display()),
             names.get(boem.winner_id, "") if boem.winner_id is not None else "", boem.points]
            for report in table_reports(match) for boem, _drawing in report.boems]
    return [str(header) for header in BOEM_COLUMNS], rows


def match_score_table(match: Match) -> tuple[list[str], list[list[Any]]]:
    """A match's score summary as ``(headers, rows)``: one row per team (:data:`SCORE_COLUMNS`): its points at
    each of the four tables, its award points (SAKBOC 1.13, 11.2, 12.1, 12.3), its match score, won / drawn /
    lost once the match is over (else empty), and the result's status."""
    reports = {report.table.number: report for report in table_reports(match)}
    awards = {match.home_id: 0, match.away_id: 0}
    for award in match.awards.all():
        awards[award.team_id] = awards.get(award.team_id, 0) + award.points
    finished = match.phase == Match.Phase.FINISHED
    rows = []
    for side, team, score in ((gettext("home"), match.home, match.home_score),
                              (gettext("away"), match.away, match.away_score)):
        tables = [(reports[n].home_points if team.pk == match.home_id else reports[n].away_points)
                  if n in reports else "" for n in range(1, 5)]
        if not finished:
            result = ""
        elif match.winner_id is None:
            result = gettext("drawn")
        else:
            result = gettext("won") if match.winner_id == team.pk else gettext("lost")
        rows.append([side, team.name, *tables, awards.get(team.pk, 0), score, result, str(match.status_label)])
    return [str(header) for header in SCORE_COLUMNS], rows


# --- PDF ---------------------------------------------------------------------------------------------------


def standings_pdf(*, title: str, subtitle: str, rows: list[dict]) -> bytes:
    """Standings as an A4 PDF (``templates/documents/standings.html``) in the active language: the table with
    its tiebreak reasons, long names wrapped in their column, the header row repeated on every page, numbered
    pages. Returns the PDF bytes."""
    headers, lines = standings_table(rows)
    return documents.pdf_bytes(template="documents/standings.html",
                               context={"title": title, "subtitle": subtitle, "headers": headers, "rows": lines})


def table_status_label(*, table: MatchTable, match: Match) -> str:
    """A table's status for people, as the match page says it (``matches.night.live.LiveTable.status_label``): a table
    still "playing" when time was called (SAKBOC 2.2) has "Played" once the match is over."""
    if table.status == MatchTable.Status.PLAYING:
        if match.phase == Match.Phase.FINISHED:
            return pgettext("table status", "Played")
        if match.phase == Match.Phase.AWAITING_EXTRA_TIME:
            return pgettext("table status", "Time")
    return str(table.get_status_display())


def _svg(drawing: BoemDrawing) -> SafeString:
    return mark_safe(boem_svg.boem_svg(drawing))  # noqa: S308 -- boem_svg escapes every name it draws


def match_report_pdf(match: Match) -> bytes:
    """A match report as an A4 PDF (``templates/documents/match_report.html``): the score and status, each
    table's status ("Played" once over), points and boem trees with a legend naming the teams beside their
    marks (Notes §V: home on the left, away on the right), and the awards. Returns the PDF bytes."""
    left_mark, right_mark = boem_svg.side_marks(match.home.name, match.away.name)
    tables = [{"number": report.table.number, "status": table_status_label(table=report.table, match=match),
               "home_points": report.home_points, "away_points": report.away_points,
               "trees": [_svg(drawing) for _boem, drawing in report.boems]}
              for report in table_reports(match)]
    return documents.pdf_bytes(template="documents/match_report.html", context={
        "match": match, "tables": tables, "awards": list(match.awards.all()),
        "left_mark": left_mark, "right_mark": right_mark,
        "approved": match.result_status == Match.ResultStatus.APPROVED,
    })
