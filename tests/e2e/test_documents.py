"""What a visitor passes on (issue 38), in Chromium: a match report's "Share on WhatsApp" link carries the score
and the page's address, and the page's OpenGraph image is a 1200×630 PNG of the score and the boem trees; the
standings too; an official downloads the standings as ``.xlsx`` from the standings page and it opens with openpyxl
with the right rows; the referee prints the night's four score sheets from the console (one PDF, four pages, each
table's teams and partnerships); ReDoc reads the API document. Screenshots (375 and 1280 px, and the preview
images) go to artifacts/screenshots/<test name>/."""

import io
import subprocess
from urllib.parse import parse_qs, urlsplit

import openpyxl
import pytest
from django.utils import timezone
from PIL import Image

from matches.models import Boem, BoemEntry, Match, MatchTable, StandingsRow, StandingsSnapshot
from matches.night.live import table_partnerships
from tests.e2e.conftest import SCREENSHOTS_DIR, page_fits
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory
from tests.world import make_world

pytestmark = pytest.mark.django_db(transaction=True)

#: Each table's boems: (home goings-on, away goings-on) — a boem is won at five strokes (SAKBOC 6.1).
TABLES = {
    1: [((1, 2, 2), (2, 1)), ((2,), (2, 1, 2)), ((1, 1, 1, 2), (1,))],
    2: [((2, 2, 1), ()), ((1,), (2, 2, 1)), ((2, 1), (1, 1))],
    3: [((1, 2), (2, 2, 1)), ((2, 2, 1), (1, 1))],
    4: [((2, 1, 2), (1, 2)), ((1, 1), (2, 1, 2)), ((2, 2, 1), (2,)), ((1,), (1,))],
}


def _night(match: Match) -> None:
    now = timezone.now()
    sequence = 0
    for number, boems in TABLES.items():
        table = MatchTable.objects.create(match=match, number=number)
        for index, (home, away) in enumerate(boems, start=1):
            done = sum(home) == 5 or sum(away) == 5
            winner = match.home if sum(home) == 5 else match.away if sum(away) == 5 else None
            boem = Boem.objects.create(
                table=table, number=index, home_strokes=sum(home), away_strokes=sum(away), winner=winner,
                status=Boem.Status.COMPLETED if done else Boem.Status.IN_PROGRESS, points=2 if done else 0,
                ended_at=now if done else None)
            goings = [(match.home, s) for s in home] + [(match.away, s) for s in away]
            for team, strokes in goings:
                sequence += 1
                BoemEntry.objects.create(table=table, boem=boem, sequence=sequence, kind=BoemEntry.Kind.STROKE,
                                         team=team, strokes=strokes, recorded_at=now, confirmed_at=now)


def _preview(page, url: str, path) -> Image.Image:
    response = page.request.get(url)
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    path.write_bytes(response.body())
    image = Image.open(io.BytesIO(response.body()))
    assert image.format == "PNG" and image.size == (1200, 630)
    return image


def test_a_visitor_shares_a_match_report_and_the_standings_on_whatsapp(page, screenshot, live_server, settings):
    settings.SITE_URL = live_server.url
    competition = CompetitionFactory(name="SPKU Premier League", season="2026")
    home = TeamFactory(competition=competition, name="Athlone Aces")
    away = TeamFactory(competition=competition, name="Bonteheuwel Boere")
    match = MatchFactory(competition=competition, home=home, away=away, phase=Match.Phase.FINISHED,
                         venue="Athlone Civic Centre", result_status=Match.ResultStatus.APPROVED,
                         home_score=18, away_score=12)
    _night(match)
    StandingsSnapshot.objects.create(
        competition=competition, title="After round 1", as_of=timezone.localdate(), published_at=timezone.now(),
        rows=[{"position": 1, "team_id": home.pk, "team_name": home.name, "club_name": home.club.name, "played": 1,
               "won": 1, "drawn": 0, "lost": 0, "points_for": 18, "points_against": 12, "difference": 6,
               "league_points": 2, "tiebreak_reason": ""},
              {"position": 2, "team_id": away.pk, "team_name": away.name, "club_name": away.club.name, "played": 1,
               "won": 0, "drawn": 0, "lost": 1, "points_for": 12, "points_against": 18, "difference": -6,
               "league_points": 0, "tiebreak_reason": ""}])

    page.goto(f"/competitions/{competition.pk}/")
    subscribe = page.get_by_role("link", name="Subscribe").first.get_attribute("href")
    assert subscribe == f"webcal://{live_server.url.split('://')[1]}/competitions/{competition.pk}/calendar.ics"
    page_fits(page, "fixtures-375-calendar-links", screenshot)
    page.goto(f"/competitions/{competition.pk}/results/")
    page_fits(page, "results-375", screenshot)
    page.click("text=Athlone Aces v Bonteheuwel Boere")
    page.wait_for_selector("svg.boem-tree")
    share = page.get_by_role("link", name="Share on WhatsApp")
    href = share.get_attribute("href")
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc) == ("https", "wa.me")
    text = parse_qs(parts.query)["text"][0]
    address = f"{live_server.url}/matches/{match.pk}/"
    assert "Athlone Aces 18–12 Bonteheuwel Boere" in text and text.endswith(address)
    assert page.url == address  # the text's address is the page the visitor is on
    assert share.get_attribute("target") == "_blank"
    page_fits(page, "match-report-375", screenshot)
    image_url = page.locator('meta[property="og:image"]').get_attribute("content")
    assert image_url == f"{live_server.url}/matches/{match.pk}/preview.png"
    _preview(page, image_url, screenshot("match-report-375").parent / "match-preview.png")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot("match-report-1280")

    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"/competitions/{competition.pk}/standings/")
    text = parse_qs(urlsplit(page.get_by_role("link", name="Share on WhatsApp").get_attribute("href")).query)["text"][0]
    assert "1. Athlone Aces 2 pts" in text and text.endswith(f"/competitions/{competition.pk}/standings/")
    page_fits(page, "standings-375", screenshot)
    image_url = page.locator('meta[property="og:image"]').get_attribute("content")
    _preview(page, image_url, screenshot("standings-375").parent / "standings-preview.png")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot("standings-1280")


def test_redoc_reads_the_api_document_under_the_sites_policy(page):
    """ReDoc renders the document with the site's own script under its page's policy. Its footer's "API docs by
    Redocly" logo is fetched from cdn.redoc.ly, which the policy blocks on purpose (no third-party requests):
    the one refusal allowed."""
    refusals: list[str] = []
    page.on("console", lambda message: refusals.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text else None)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/api/redoc/")
    page.wait_for_selector("h1:has-text('klawerjas-league API')", timeout=20_000)
    assert page.locator("text=Fixtures: team sheet").count() >= 1  # an operation's summary in the menu
    folder = SCREENSHOTS_DIR / "test_redoc_reads_the_api_document_under_the_sites_policy"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "redoc-1280.png"))  # the first screen: the whole document is too tall
    assert [m for m in refusals if "cdn.redoc.ly/redoc/logo-mini.svg" not in m] == []


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
