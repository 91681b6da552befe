"""Sharing a public page (issue 38): OpenGraph and Twitter card tags, the preview images (PNG, 1200×630, read
with Pillow), the "Share on WhatsApp" links, the favicon and robots.txt."""

import datetime as dt
import io
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from clubs.services import board_ensure
from matches.night import boem_sheet
from matches.results import services as result_services
from tests.factories import MatchFactory, TeamFactory
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db

SITE = "https://league.example"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE


def _meta(page: str) -> dict[str, str]:
    """``{property or name: content}`` of the page's ``<meta>`` tags."""
    found = re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', page)
    return {key: unescape(value) for key, value in found}


def _png(response) -> Image.Image:
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    return image


def _whatsapp_text(page: str) -> list[str]:
    hrefs = re.findall(r'<a class="share-whatsapp" href="([^"]+)"', page)
    assert hrefs, "no Share on WhatsApp link"
    texts = []
    for href in hrefs:
        parts = urlsplit(unescape(href))
        assert (parts.scheme, parts.netloc, parts.path) == ("https", "wa.me", "/")
        texts.append(parse_qs(parts.query)["text"][0])
    return texts


@pytest.fixture
def played():
    match = MatchFactory(home__name="Athlone Aces", away__name="Bonteheuwel Boere", venue="Athlone Civic Centre",
                         scheduled_start=timezone.now() - dt.timedelta(days=2))
    result_services.result_enter(match=match, home_score=7, away_score=3, reason="paper sheet")
    match.refresh_from_db()
    return match


def test_a_match_report_has_its_opengraph_tags_and_preview_image(client, played):
    path = reverse("matches:match", args=[played.pk])
    meta = _meta(client.get(path).content.decode())
    assert meta["og:title"] == "Athlone Aces v Bonteheuwel Boere"
    assert meta["og:url"] == SITE + path
    assert meta["og:type"] == "article" and meta["twitter:card"] == "summary_large_image"
    assert meta["description"] == meta["og:description"] and "Athlone Aces 7–3 Bonteheuwel Boere" in meta["description"]
    assert meta["og:image"] == SITE + reverse("matches:match-preview", args=[played.pk])
    assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
    image = _png(client.get(urlsplit(meta["og:image"]).path))
    assert image.size == (1200, 630)


def test_the_preview_shows_the_boem_trees_and_follows_the_night(client, playing):  # noqa: F811
    url = reverse("matches:match-preview", args=[playing.pk])
    first = client.get(url)
    before = _png(first).tobytes()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # the same version: kept
    boem_sheet.going_on_record(match=playing, table_number=1, team=playing.home, strokes=2, reason="paper sheet",
                               by=playing.referee, opponents_under_fifty=True)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed["ETag"] != first["ETag"]
    after = _png(changed)
    assert after.size == (1200, 630) and after.tobytes() != before  # a stroke drawn in table 1's tree
    assert client.get(reverse("matches:match-preview", args=[999999])).status_code == 404


def test_the_whatsapp_link_carries_the_score_and_the_page_address(client, played):
    path = reverse("matches:match", args=[played.pk])
    (text,) = _whatsapp_text(client.get(path).content.decode())
    assert text.startswith("Athlone Aces 7–3 Bonteheuwel Boere") and text.endswith(SITE + path)
    results = client.get(reverse("matches:results", args=[played.competition.pk])).content.decode()
    assert _whatsapp_text(results) == [text]


def test_the_standings_have_their_tags_image_and_whatsapp_text(client, played):
    competition = played.competition
    path = reverse("matches:standings", args=[competition.pk])
    page = client.get(path).content.decode()
    meta = _meta(page)
    assert meta["og:url"] == SITE + path and str(competition) in meta["og:title"]
    assert meta["og:image"] == SITE + reverse("matches:standings-preview", args=[competition.pk])
    assert _png(client.get(urlsplit(meta["og:image"]).path)).size == (1200, 630)
    (text,) = _whatsapp_text(page)
    assert text.startswith(f"{competition} standings") and text.endswith(SITE + path)


def test_every_public_page_has_a_description_and_its_own_title(client, played):
    board_ensure()  # the installation's Board (its migration made it; a flushed test database may have lost it)
    team = TeamFactory(competition=played.competition)
    short_name = played.competition.union.short_name.lower()
    pages = [reverse("home"), reverse("matches:union-competitions", args=[short_name]),
             reverse("matches:union-home", args=[short_name]), reverse("matches:board-home"),
             reverse("matches:competition", args=[played.competition.pk]),
             reverse("matches:results", args=[played.competition.pk]),
             reverse("records:team", args=[team.pk]), reverse("records:club", args=[team.club.pk])]
    for path in pages:
        meta = _meta(client.get(path).content.decode())
        assert meta["description"] and meta["og:description"] == meta["description"], path
        assert meta["og:title"] and meta["og:url"] == SITE + path and meta["og:type"] == "website", path


def test_the_favicon_and_robots_txt(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon["Content-Type"] == "image/x-icon"
    assert Image.open(io.BytesIO(icon.content)).format == "ICO"
    assert 'rel="icon"' in client.get("/").content.decode()
    robots = client.get("/robots.txt")
    assert robots.status_code == 200 and robots["Content-Type"].startswith("text/plain")
    lines = robots.content.decode().splitlines()
    assert "User-agent: *" in lines and "Allow: /" in lines
    for prefix in ("/admin/", "/api/", "/office/", "/referee/", "/table/", "/official/", "/captain/"):
        assert f"Disallow: {prefix}" in lines
    assert not any(line == "Disallow: /competitions/" or line == "Disallow: /matches/" for line in lines)
