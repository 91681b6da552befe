"""Printable paper as A4 PDFs (``matches.night.paper``): a match's score sheets, a team's team sheet and fixture list.

Public like the match and team pages they are linked from (they hold the names those pages show); the referee's
console links the night's four score sheets in one PDF. In the reader's language (the active language).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from clubs.models import Team
from matches.models import TABLES_PER_MATCH, Match
from matches.night import paper


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


def score_sheets(request: HttpRequest, pk: int) -> HttpResponse:
    """``/matches/<id>/score-sheets.pdf``: the four tables' blank score sheets, one A4 page each;
    ``?table=N`` prints table N alone. 400 for a table other than 1–4."""
    match = Match.objects.select_related("competition", "home", "away").filter(pk=pk).first()
    if match is None:
        raise Http404("No such match.")
    table_text = request.GET.get("table", "")
    table = None
    if table_text:
        if not table_text.isdigit() or not 1 <= int(table_text) <= TABLES_PER_MATCH:
            return HttpResponseBadRequest(_("A match has tables 1 to %(count)s.") % {"count": TABLES_PER_MATCH})
        table = int(table_text)
    suffix = f"-table-{table}" if table else ""
    return _pdf(paper.score_sheets_pdf(match=match, table=table), f"score-sheets-{match.pk}{suffix}")


def team_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """``/teams/<id>/team-sheet.pdf``: the squad with registration numbers and blank lines for the night."""
    team = get_object_or_404(Team.objects.select_related("club", "competition"), pk=pk)
    return _pdf(paper.team_sheet_pdf(team=team), f"team-sheet-{team.pk}")


def fixture_list(request: HttpRequest, pk: int) -> HttpResponse:
    """``/teams/<id>/fixtures.pdf``: the team's matches in date order."""
    team = get_object_or_404(Team.objects.select_related("club", "competition"), pk=pk)
    return _pdf(paper.fixture_list_pdf(team=team), f"fixtures-{team.pk}")
