"""What the public pages show, and their CSV and PDF downloads: standings tables and match reports.

* :func:`match_report_load` reads a match with its tables, boems, boem-sheet entries and awards in a fixed
  number of queries; :func:`boem_drawing` turns one boem into the plain data ``matches.boem_svg`` draws.
* :func:`standings_csv`, :func:`standings_pdf`, :func:`match_report_csv`, :func:`match_report_pdf` build the
  downloads (PDF with reportlab; the boem trees are drawn with the same geometry as the SVG).

Downloads carry no code (issue 16): every CSV cell goes through :func:`csv_cell`, which neutralises a text cell
a spreadsheet would read as a formula (OWASP's rule), and all user text in a PDF paragraph goes through
:func:`pdf_text`, which escapes reportlab's paragraph markup (no ``<img src>``, no ``<a href="javascript:">``,
no broken markup that fails the build).

Standings rows are plain dicts with the keys of a published snapshot's ``rows`` (``position``,
``team_name``, ``club_name``, ``played``, ``won``, ``drawn``, ``lost``, ``points_for``, ``points_against``,
``difference``, ``league_points``, ``tiebreak_reason``), so a frozen snapshot and the live table
(:func:`matches.selectors.standings_rows`) export alike.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from django.db.models import Prefetch, Sum
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from matches import boem_svg
from matches.boem_svg import BoemDrawing
from matches.models import SHEET_ORDER, Award, Boem, BoemEntry, DealLine, Match, MatchTable
from matches.rules import plays_deals
from matches.standings import tiebreak_reason_display

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


def boem_drawing(*, boem: Boem, match: Match, entries: list[BoemEntry] | None = None) -> BoemDrawing:
    """Plain data for one boem: home on the left (from the top rung), away on the right (Notes §V).

    Goings-on come from the boem sheet's ``stroke`` entries in order (``entries``, or the boem's prefetched
    ones); when a boem's counts were entered without lines (a paper result), its ``home_strokes``/
    ``away_strokes`` are drawn as single strokes. Goings-on not yet confirmed are flagged (drawn dashed).
    """
    home, away = [], []
    home_pending, away_pending = [], []
    straf_side = None
    for entry in (entries if entries is not None else boem.entries.all()):
        side = "left" if entry.team_id == match.home_id else "right"
        if entry.kind == BoemEntry.Kind.STROKE and entry.strokes in (1, 2) and not entry.struck:
            (home if side == "left" else away).append(entry.strokes)
            (home_pending if side == "left" else away_pending).append(entry.confirmed_at is None)
        elif entry.kind in (BoemEntry.Kind.STRAF, BoemEntry.Kind.STRAF_REVERSED):
            straf_side = side
    if sum(home) != boem.home_strokes or sum(away) != boem.away_strokes:
        home = [1] * min(boem.home_strokes, boem_svg.RUNGS)
        away = [1] * min(boem.away_strokes, boem_svg.RUNGS)
        home_pending, away_pending = [], []
    if boem.status == Boem.Status.STRAFFED:
        outcome = gettext("straf: %(points)s pts") % {"points": boem.points}
    elif boem.status == Boem.Status.UNFINISHED:
        outcome = gettext("unfinished at time")
    elif boem.status == Boem.Status.COMPLETED:
        outcome = gettext("%(home)s–%(away)s: %(points)s pts") % {
            "home": boem.home_strokes, "away": boem.away_strokes, "points": boem.points}
    else:
        outcome = gettext("%(home)s–%(away)s, in play") % {"home": boem.home_strokes, "away": boem.away_strokes}
    if boem.status != Boem.Status.STRAFFED:
        straf_side = None
    elif boem.winner_id is not None:
        straf_side = "left" if boem.winner_id == match.home_id else "right"
    return BoemDrawing(left_label=match.home.name, right_label=match.away.name, left=home, right=away,
                       outcome=outcome, straf_side=straf_side, left_pending=home_pending,
                       right_pending=away_pending)


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


# --- CSV ---------------------------------------------------------------------------------------------------

# OWASP, "CSV Injection": a cell starting with one of these is read as a formula by Excel, LibreOffice and
# Google Sheets. (defusedcsv 3.0 leaves tab and carriage return alone, hence this rule of our own.)
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value made safe for a CSV cell: text beginning with ``= + - @``, a tab or a carriage return gets a
    leading ``'`` so a spreadsheet shows it as text instead of running it. Numbers and ``None`` pass unchanged
    (a negative points difference stays a number).

    >>> csv_cell("=HYPERLINK(\"http://x\")"), csv_cell("@SUM(A1)"), csv_cell(-4), csv_cell("Athlone Aces")
    ('\'=HYPERLINK("http://x")', "'@SUM(A1)", -4, 'Athlone Aces')
    """
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


class _SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`csv_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])


def standings_csv(rows: list[dict]) -> str:
    """Standings as CSV text: a header line, then one line per team in position order."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow([str(label) for _key, label in STANDINGS_COLUMNS])
    for row in rows:
        writer.writerow([row.get(key, "") for key, _ in STANDINGS_COLUMNS[:-1]]
                        + [tiebreak_reason_display(row.get("tiebreak_reason") or "")])
    return out.getvalue()


def match_report_csv(match: Match) -> str:
    """A match report as CSV: one line per boem (table, boem, strokes, status, winner, points), then awards
    and the match score."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow([gettext("table"), gettext("boem"), gettext("%(team)s strokes") % {"team": match.home},
                     gettext("%(team)s strokes") % {"team": match.away}, gettext("status"), gettext("winner"),
                     gettext("points")])
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    for report in table_reports(match):
        for boem, _drawing in report.boems:
            writer.writerow([report.table.number, boem.number, boem.home_strokes, boem.away_strokes,
                             boem.get_status_display(), names.get(boem.winner_id, ""), boem.points])
    for award in match.awards.all():
        writer.writerow([gettext("award"), award.clause, "", "", award.get_kind_display(), award.team.name,
                         award.points])
    draw = gettext("draw") if match.phase == Match.Phase.FINISHED else ""
    writer.writerow([gettext("score"), "", match.home_score, match.away_score, match.status_label,
                     names.get(match.winner_id, draw), ""])
    return out.getvalue()


# --- PDF ---------------------------------------------------------------------------------------------------


def pdf_text(value: Any) -> str:
    """``value`` as text for a reportlab ``Paragraph``: ``&``, ``<`` and ``>`` escaped, so a name is printed
    as written and never read as paragraph markup (tags, images, links, fonts).

    >>> pdf_text('<img src="/etc/passwd"/> & Co')
    '&lt;img src="/etc/passwd"/&gt; &amp; Co'
    """
    return escape(str(value))


class BoemFlowable(Flowable):
    """A boem tree in a PDF, drawn with the SVG's geometry (``matches.boem_svg``), scaled to ``scale``."""

    def __init__(self, drawing: BoemDrawing, scale: float = 0.5) -> None:
        super().__init__()
        self.drawing = drawing
        self.scale = scale
        self.width = boem_svg.WIDTH * scale
        self.height = boem_svg.HEIGHT * scale

    def draw(self) -> None:
        c, s, h = self.canv, self.scale, boem_svg.HEIGHT

        def line(x1: float, y1: float, x2: float, y2: float) -> None:
            c.line(x1 * s, (h - y1) * s, x2 * s, (h - y2) * s)

        c.setLineWidth(1)
        axis = boem_svg.AXIS_X
        line(axis, boem_svg.TOP - 10, axis, boem_svg.rung_y(boem_svg.RUNGS - 1) + 10)
        for i in range(boem_svg.RUNGS):
            line(axis - boem_svg.RUNG_HALF, boem_svg.rung_y(i), axis + boem_svg.RUNG_HALF, boem_svg.rung_y(i))
        c.setLineWidth(1.5)
        for side, goings in (("left", self.drawing.left), ("right", self.drawing.right)):
            for x1, y1, x2, y2 in boem_svg._diagonals(goings, side=side):
                line(x1, y1, x2, y2)
        c.setFont("Helvetica", 6)
        c.drawCentredString(axis * s, 2, self.drawing.outcome[:30])


def _pdf(title: str, story_body: list) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, title=title, leftMargin=15 * mm, rightMargin=15 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm)
    styles = getSampleStyleSheet()
    doc.build([Paragraph(pdf_text(title), styles["Title"]), *story_body])
    return buffer.getvalue()


_TABLE_STYLE = TableStyle([
    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8), ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black), ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
])


def standings_pdf(*, title: str, subtitle: str, rows: list[dict]) -> bytes:
    """Standings as a one-table A4 PDF with the tiebreak reasons; returns the PDF bytes."""
    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=7, leading=8)
    data = [[str(label) for _key, label in STANDINGS_COLUMNS]]
    for row in rows:
        data.append([str(row.get(k, "")) for k, _ in STANDINGS_COLUMNS[:-1]]
                    + [Paragraph(pdf_text(tiebreak_reason_display(row.get("tiebreak_reason") or "")), small)])
    table = Table(data, repeatRows=1, colWidths=[9 * mm, 32 * mm, 28 * mm] + [9 * mm] * 4 + [11 * mm] * 3
                  + [9 * mm, 30 * mm])
    table.setStyle(_TABLE_STYLE)
    return _pdf(title, [Paragraph(pdf_text(subtitle), styles["Normal"]), Spacer(1, 4 * mm), table])


def match_report_pdf(match: Match) -> bytes:
    """A match report PDF: the score and status, each table's boem trees and points, and the awards."""
    styles = getSampleStyleSheet()
    status = match.status_label
    if match.result_status != Match.ResultStatus.APPROVED:
        status += " " + gettext("(provisional until approved by a union official)")
    home, away = pdf_text(match.home), pdf_text(match.away)
    body: list = [
        Paragraph(pdf_text(f"{match.competition} · {date_format(match.scheduled_start, 'd M Y')} · {match.venue}"),
                  styles["Normal"]),
        Paragraph(f"<b>{home} {match.home_score} – {match.away_score} {away}</b> · {pdf_text(status)}",
                  styles["Normal"]),
        Spacer(1, 4 * mm),
    ]
    for report in table_reports(match):
        body.append(Paragraph(gettext("Table %(number)s (%(status)s): ") % {
                              "number": report.table.number, "status": pdf_text(report.table.get_status_display())}
                              + f"{home} {report.home_points}, {away} {report.away_points}",
                              styles["Heading4"]))
        trees = [BoemFlowable(drawing) for _, drawing in report.boems]
        for start in range(0, len(trees), 6):
            body.append(Table([trees[start:start + 6]], hAlign="LEFT"))
    awards = list(match.awards.all())
    if awards:
        body.append(Paragraph(gettext("Awards"), styles["Heading4"]))
        data = [[gettext("Team"), gettext("Award"), gettext("Points"), gettext("Rule")]] + [
            [a.team.name, a.get_kind_display(), str(a.points), a.clause] for a in awards
        ]
        table = Table(data, hAlign="LEFT")
        table.setStyle(_TABLE_STYLE)
        body.append(table)
    return _pdf(gettext("Match report: %(home)s v %(away)s") % {"home": match.home, "away": match.away}, body)
