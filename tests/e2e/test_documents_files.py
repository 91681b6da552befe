"""Issue 38 in the browser: an official downloads the standings as ``.xlsx`` from the standings page and it opens
with openpyxl with the right rows; the referee prints the night's four score sheets from the console (one PDF,
four pages, each table's teams and partnerships). Screenshots at 375 and 1280 px of every page with new links."""

from __future__ import annotations

import subprocess

import openpyxl
import pytest
from django.utils import timezone

from matches.live import table_partnerships
from matches.models import StandingsRow
from tests.api.world import make_world
from tests.e2e.conftest import SCREENSHOTS_DIR, page_fits

PASSWORD = "klawerjas-test"  # tests.factories.UserFactory's
WIDE = {"width": 1280, "height": 900}


def _both_widths(page, screenshot, name: str) -> None:
    """Screenshots of the page at 375 px (fitting the phone) and at 1280 px."""
    page_fits(page, name, screenshot)
    page.set_viewport_size(WIDE)
    screenshot(f"{name}-1280")
    page.set_viewport_size({"width": 375, "height": 812})


@pytest.mark.django_db(transaction=True)
def test_official_downloads_the_standings_as_xlsx(page, sign_in, screenshot, tmp_path):
    world = make_world()
    league = world.a.league
    now = timezone.now()
    StandingsRow.objects.create(competition=league, team=world.a.home, position=1, played=2, won=2, league_points=4,
                                points_for=52, points_against=30, difference=22, computed_at=now)
    StandingsRow.objects.create(competition=league, team=world.a.away, position=2, played=2, lost=2,
                                points_for=30, points_against=52, difference=-22, computed_at=now)
    sign_in(page, "official_A", PASSWORD)
    page.goto(f"/competitions/{league.pk}/standings/")
    _both_widths(page, screenshot, "standings")
    with page.expect_download() as info:
        page.get_by_role("link", name="Excel (.xlsx)").first.click()
    download = info.value
    assert download.suggested_filename == f"standings-{league.pk}.xlsx"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    rows = list(openpyxl.load_workbook(path).active.iter_rows(values_only=True))
    assert rows[0][:4] == ("Pos", "Team", "Club", "P")
    assert [(r[0], r[1], r[2], r[9], r[10]) for r in rows[1:]] == [
        (1, "A Home", "Club A1", 22, 4), (2, "A Away", "Club A2", -22, 0)]

    page.goto(f"/matches/{world.a.approved.pk}/")
    _both_widths(page, screenshot, "match-downloads")
    page.goto(f"/teams/{world.a.home.pk}/")
    _both_widths(page, screenshot, "team-paper")


@pytest.mark.django_db(transaction=True)
def test_referee_prints_the_nights_four_score_sheets(page, sign_in, screenshot, tmp_path):
    world = make_world()
    match = world.a.interval  # both team sheets are in
    sign_in(page, "referee_A", PASSWORD)
    page.goto(f"/referee/matches/{match.pk}/")
    _both_widths(page, screenshot, "referee-console")
    with page.expect_download() as info:
        page.get_by_role("link", name="Print the four score sheets (PDF)").click()
    path = tmp_path / "sheets.pdf"
    info.value.save_as(path)
    pages = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    assert "Pages:           4" in pages
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout.split("\f")
    pairs = table_partnerships(match=match)
    for number in range(1, 5):
        sheet = text[number - 1]
        assert f"Score sheet · table {number}" in sheet and "A Home" in sheet and "A Away" in sheet
        assert pairs[number]["home"].telman in sheet and pairs[number]["away"].telman in sheet
    folder = SCREENSHOTS_DIR / "test_referee_prints_the_nights_four_score_sheets"
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", str(path), str(folder / "score-sheet")],
                   check=True)
