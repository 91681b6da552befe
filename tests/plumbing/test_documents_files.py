"""Issue 38: every download read with the reader a user has — openpyxl for ``.xlsx``, ``csv`` with the byte-order
mark for CSV, poppler's ``pdffonts`` (every font embedded) and ``pdftotext -layout`` (words, columns, pages) for
PDFs — and the printable paper (score sheets, team sheet, fixture list)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import subprocess
import tempfile

import openpyxl
import pytest
from django.conf import settings
from django.utils import timezone

from clubs.models import Club, Team
from matches.models import Boem, MatchTable, StandingsRow, StandingsSnapshot
from tests.factories import TeamFactory, sheet_for

pytestmark = pytest.mark.django_db

#: A 120-character Afrikaans club name with ê, ë and ô (issue 38's case).
LONG_CLUB = ("Die Verenigde Klawerjasklub van Bonteheuwel, Mitchells Plain en Athlone: ons speel beëindig "
             "tot môre, sê hulle, êrens ja")
assert len(LONG_CLUB) == 120


def _pdf_tool(tool: str, content: bytes, *args: str) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as pdf:
        pdf.write(content)
        pdf.flush()
        return subprocess.run([tool, *args, pdf.name, "-"] if tool == "pdftotext" else [tool, pdf.name],
                              check=True, capture_output=True, text=True).stdout


def pdf_text(content: bytes) -> str:
    """``pdftotext -layout``'s reading: pages separated by form feeds."""
    return _pdf_tool("pdftotext", content, "-layout")


def fonts_embedded(content: bytes) -> list[tuple[str, str]]:
    """``pdffonts``' rows as (name, emb) — ``emb`` is ``yes`` for a font the file carries."""
    lines = _pdf_tool("pdffonts", content).splitlines()[2:]
    rows = []
    for line in lines:
        cells = line.split()
        # name type... encoding emb sub uni object ID: emb is the 5th cell from the end.
        rows.append((cells[0], cells[-5]))
    return rows


def assert_all_fonts_embedded(content: bytes) -> None:
    rows = fonts_embedded(content)
    assert rows, "a PDF with text has fonts"
    assert all(emb == "yes" for _name, emb in rows), rows


def _afrikaans(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "af"


def _long_club_standings(world, teams: int = 1) -> None:
    """Live standings rows: the home team renamed into a club with the long name, ``teams`` rows in all."""
    league = world.a.league
    Club.objects.filter(pk=world.a.home.club_id).update(name=LONG_CLUB)
    now = timezone.now()
    StandingsRow.objects.create(competition=league, team=world.a.home, position=1, played=3, won=2, lost=1,
                                league_points=4, points_for=60, points_against=40, difference=20, computed_at=now,
                                tiebreak_reason="")
    for n in range(2, teams + 1):
        team = TeamFactory(competition=league, club=world.a.away.club, name=f"Span {n} Môrester", squad=0)
        StandingsRow.objects.create(competition=league, team=team, position=n, played=3, computed_at=now)


# --- Spreadsheets ----------------------------------------------------------------------------------------------


def test_standings_csv_has_a_byte_order_mark_and_reads_right_in_utf8_sig(client, world):
    _long_club_standings(world)
    response = client.get(f"/competitions/{world.a.league.pk}/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")  # Excel reads UTF-8, not Windows-1252
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0]["Club"] == LONG_CLUB and "beëindig" in rows[0]["Club"] and "Ã" not in rows[0]["Club"]
    assert rows[0]["Team"] == world.a.home.name and rows[0]["Pts"] == "4"


def test_standings_xlsx_opens_with_openpyxl_with_the_same_rows(client, world):
    _long_club_standings(world, teams=3)
    response = client.get(f"/competitions/{world.a.league.pk}/standings.xlsx")
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"] == f'attachment; filename="standings-{world.a.league.pk}.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("Pos", "Team", "Club") and rows[0][-1] == "Tie broken by"
    assert rows[1][:3] == (1, world.a.home.name, LONG_CLUB) and rows[1][10] == 4  # numbers stay numbers
    assert [row[1] for row in rows[1:]] == [world.a.home.name, "Span 2 Môrester", "Span 3 Môrester"]


def test_standings_xlsx_headers_are_in_the_readers_language(client, world):
    _long_club_standings(world)
    _afrikaans(client)
    sheet = openpyxl.load_workbook(io.BytesIO(
        client.get(f"/competitions/{world.a.league.pk}/standings.xlsx").content)).active
    assert next(sheet.iter_rows(values_only=True))[:3] == ("Pos", "Span", "Klub")


def _boems(match) -> None:
    table = MatchTable.objects.create(match=match, number=1)
    now = timezone.now()
    Boem.objects.create(table=table, number=1, status=Boem.Status.COMPLETED, home_strokes=5, away_strokes=3,
                        winner=match.home, points=2, ended_at=now)
    Boem.objects.create(table=table, number=2, status=Boem.Status.COMPLETED, home_strokes=1, away_strokes=5,
                        winner=match.away, points=2, ended_at=now)
    second = MatchTable.objects.create(match=match, number=2)
    Boem.objects.create(table=second, number=1, status=Boem.Status.COMPLETED, home_strokes=5, away_strokes=0,
                        winner=match.home, points=4, ended_at=now)


BOEM_HEADERS = ["Table", "Boem", "Home team", "Away team", "Home strokes", "Away strokes", "Status", "Winner",
                "Points"]


def test_match_boem_rows_have_fixed_headers_and_one_kind_of_row(client, world):
    match = world.a.approved
    _boems(match)
    response = client.get(f"/matches/{match.pk}/report.csv")
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == BOEM_HEADERS  # fixed: no team name in a header
    assert rows[1:] == [["1", "1", "A Home", "A Away", "5", "3", "Completed (5 strokes)", "A Home", "2"],
                        ["1", "2", "A Home", "A Away", "1", "5", "Completed (5 strokes)", "A Away", "2"],
                        ["2", "1", "A Home", "A Away", "5", "0", "Completed (5 strokes)", "A Home", "4"]]
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(f"/matches/{match.pk}/report.xlsx").content)).active
    xlsx_rows = list(sheet.iter_rows(values_only=True))
    assert list(xlsx_rows[0]) == BOEM_HEADERS
    assert xlsx_rows[3] == (2, 1, "A Home", "A Away", 5, 0, "Completed (5 strokes)", "A Home", 4)


def test_match_score_summary_is_its_own_download(client, world):
    match = world.a.approved
    _boems(match)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/matches/{match.pk}/score.csv").content.decode("utf-8-sig"))))
    assert [(r["Side"], r["Team"], r["Table 1"], r["Table 2"], r["Match score"], r["Result"]) for r in rows] == [
        ("home", "A Home", "2", "4", "20", "drawn"), ("away", "A Away", "2", "0", "20", "drawn")]
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(f"/matches/{match.pk}/score.xlsx").content)).active
    assert [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)] == ["A Home", "A Away"]
    assert client.get(f"/matches/{match.pk}/score.pdf").status_code == 404


def test_every_download_link_has_its_xlsx_beside_the_csv(client, world):
    match = world.a.approved
    body = client.get(f"/matches/{match.pk}/").content.decode()
    for url in (f"/matches/{match.pk}/report.csv", f"/matches/{match.pk}/report.xlsx",
                f"/matches/{match.pk}/score.csv", f"/matches/{match.pk}/score.xlsx",
                f"/matches/{match.pk}/score-sheets.pdf", f"/matches/{match.pk}/score-sheets.pdf?table=4"):
        assert f'href="{url}"' in body, url
    standings = client.get(f"/competitions/{world.a.league.pk}/standings/").content.decode()
    assert f"/competitions/{world.a.league.pk}/standings.xlsx" in standings
    team = client.get(f"/teams/{world.a.home.pk}/").content.decode()
    assert f'href="/teams/{world.a.home.pk}/team-sheet.pdf"' in team
    assert f'href="/teams/{world.a.home.pk}/fixtures.pdf"' in team


# --- PDFs ------------------------------------------------------------------------------------------------------


def test_standings_pdf_embeds_its_fonts_and_wraps_the_long_club_name(client, world):
    _long_club_standings(world, teams=3)
    content = client.get(f"/competitions/{world.a.league.pk}/standings.pdf").content
    assert_all_fonts_embedded(content)
    text = pdf_text(content)
    tokens = set(text.split())
    # Every word of the long name is read as a word: none run into the next column's figures.
    for word in LONG_CLUB.replace(",", " ").replace(":", " ").split():
        assert word in tokens or any(t.startswith(word) and not t[len(word):].isdigit() for t in tokens), word
    assert "beëindig" in text and "môre," in text and "sê" in text
    assert not re.search(r"[A-Za-zêëô,:][0-9]", text.split(world.a.home.name, 1)[1].split("Span 2")[0])
    # The name wraps inside its column: it takes more than one line.
    assert sum(1 for line in text.splitlines() if "Bonteheuwel" in line or "Athlone" in line or "môre" in line) >= 2


def test_afrikaans_standings_pdf_is_in_afrikaans(client, world):
    league = world.a.league
    StandingsSnapshot.objects.create(competition=league, title="Na rondte 3", as_of=dt.date(2026, 3, 14),
                                     rows=[{"position": 1, "team_name": "A Home", "club_name": LONG_CLUB,
                                            "played": 3, "won": 3, "drawn": 0, "lost": 0, "points_for": 70,
                                            "points_against": 40, "difference": 30, "league_points": 6,
                                            "tiebreak_reason": ""}],
                                     published_at=timezone.now())
    _afrikaans(client)
    text = pdf_text(client.get(f"/competitions/{league.pk}/standings.pdf").content)
    assert f"{league} · puntelys" in text and "standings" not in text
    assert "Gepubliseerde puntelys: Na rondte 3, soos op 14 Maart 2026" in text and "March" not in text
    assert "Span" in text and "Klub" in text and "Team" not in text


def test_two_page_standings_are_numbered_and_repeat_their_heading(client, world):
    _long_club_standings(world, teams=60)
    text = pdf_text(client.get(f"/competitions/{world.a.league.pk}/standings.pdf").content)
    pages = [page for page in text.split("\f") if page.strip()]
    assert len(pages) == 2
    assert "Page 1 of 2" in pages[0] and "Page 2 of 2" in pages[1]
    assert all("Tie broken by" in page and "Against" in page for page in pages)  # the header row on each page


def test_approved_match_report_pdf_says_played_and_labels_the_trees(client, world):
    match = world.a.approved
    _boems(match)
    content = client.get(f"/matches/{match.pk}/report.pdf").content
    assert_all_fonts_embedded(content)
    text = pdf_text(content)
    assert "Table 1 · Played" in text and "Table 2 · Played" in text and "Playing" not in text
    assert re.search(r"AH +A Home \(left, from the top rung\) · AA +A Away \(right, from the bottom rung\)", text)
    assert "provisional" not in text


def test_pdfs_fetch_nothing_and_link_nowhere(client, world):
    Team.objects.filter(pk=world.a.home.pk).update(name='<img src="file:///etc/passwd"/><a href="https://x.test">X</a>')
    for url in (f"/competitions/{world.a.league.pk}/standings.pdf", f"/matches/{world.a.approved.pk}/report.pdf",
                f"/matches/{world.a.next.pk}/score-sheets.pdf", f"/teams/{world.a.home.pk}/team-sheet.pdf"):
        content = client.get(url).content
        assert content.startswith(b"%PDF") and b"/URI" not in content and b"/Subtype /Image" not in content, url


# --- Printable paper -------------------------------------------------------------------------------------------


def test_the_nights_four_score_sheets_are_one_pdf_with_the_partnerships(client, world):
    match = world.a.next
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    content = client.get(f"/matches/{match.pk}/score-sheets.pdf").content
    assert_all_fonts_embedded(content)
    pages = [page for page in pdf_text(content).split("\f") if page.strip()]
    assert len(pages) == 4
    from matches.night.live import table_partnerships

    pairs = table_partnerships(match=match)
    for number, page in enumerate(pages, start=1):
        assert f"Score sheet · table {number}" in page and "A Home" in page and "A Away" in page
        assert pairs[number]["home"].telman in page and pairs[number]["away"].byspeler in page
        assert "Page 1 of 4" in pages[0]


def test_one_tables_score_sheet_in_afrikaans_and_a_wrong_table_is_refused(client, world):
    match = world.a.next
    _afrikaans(client)
    text = pdf_text(client.get(f"/matches/{match.pk}/score-sheets.pdf?table=3").content)
    assert text.count("\f") <= 1 and "A Home" in text
    assert "Telman (teller)" in text and "Telman (counter)" not in text  # the reader's language
    assert re.search(r"(Maandag|Dinsdag|Woensdag|Donderdag|Vrydag|Saterdag|Sondag) \d+ \w+ 20\d\d", text)
    assert client.get(f"/matches/{match.pk}/score-sheets.pdf?table=5").status_code == 400
    assert client.get(f"/matches/{match.pk}/score-sheets.pdf?table=x").status_code == 400


def test_team_sheet_lists_the_squad_with_registration_numbers(client, world):
    team = world.a.home
    content = client.get(f"/teams/{team.pk}/team-sheet.pdf").content
    assert_all_fonts_embedded(content)
    text = pdf_text(content)
    for membership in team.memberships.select_related("player"):
        assert membership.player.registration_number in text and membership.player.last_name in text
    assert "Half-time substitutions" in text and pdf_text(content).count("\f") == 1


def test_fixture_list_has_the_teams_matches_in_date_order(client, world):
    team = world.a.home
    text = pdf_text(client.get(f"/teams/{team.pk}/fixtures.pdf").content)
    lines = [line for line in text.splitlines() if "A Away" in line]
    assert len(lines) == team.home_matches.count() + team.away_matches.count()
    assert "20–20" in text and "30–22" in text


def test_a_tables_heading_is_never_left_alone_at_the_foot_of_a_page(client, world):
    match = world.a.approved
    now = timezone.now()
    for number in range(1, 5):  # four tables of 14 boems: the report runs over two pages
        table = MatchTable.objects.create(match=match, number=number)
        for boem in range(1, 15):
            Boem.objects.create(table=table, number=boem, status=Boem.Status.COMPLETED, home_strokes=5,
                                away_strokes=boem % 5, winner=match.home, points=2, ended_at=now)
    pages = [page for page in pdf_text(client.get(f"/matches/{match.pk}/report.pdf").content).split("\f")
             if page.strip()]
    assert len(pages) >= 2 and f"Page 1 of {len(pages)}" in pages[0]
    for page in pages:
        for heading in re.findall(r"Table \d · Played", page):
            after = page.split(heading, 1)[1]
            assert "(left, from the top rung)" in after and "5–1: 2 pts" in after, heading  # its trees follow


def test_a_document_fetches_no_file_and_no_address(tmp_path):
    from PIL import Image
    from weasyprint import HTML

    from plumbing.documents import html_pdf

    path = tmp_path / "on-disk.png"
    Image.new("RGB", (4, 4), "red").save(path)
    html = f'<p>x<img src="{path.as_uri()}"><img src="http://127.0.0.1:9/a.png"></p>'
    assert b"/Image" in HTML(string=html).write_pdf()  # WeasyPrint's own fetcher would embed the file
    content = html_pdf(html)
    assert content.startswith(b"%PDF") and b"/Image" not in content
