"""The shipped reverse proxy in front of the site: a micro-cache that shares only what the site lets it share,
answers a phone's revalidation itself, follows a night within seconds, keeps languages apart, never keeps anyone's
own page, and gzips what leaves (issue 40; ``deploy/nginx/snippets/``, ``tests/nginx_front.py``).

nginx (Debian's, ``scripts/ensure-nginx``) runs the shipped snippets on a free port in front of the live server.
Without nginx the test skips with the reason, except under CI (``KLAWERJAS_REQUIRE_SERVICES=1``), where it fails.
"""

from __future__ import annotations

import gzip
import http.client
import os
import time
from urllib.parse import urlsplit

import pytest

from matches.night import boem_sheet
from tests.nginx_front import NGINX, nginx_front
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db(transaction=True)

if NGINX is None and os.environ.get("KLAWERJAS_REQUIRE_SERVICES") != "1":
    pytestmark = [pytestmark, pytest.mark.skip(reason="nginx is not installed (scripts/ensure-nginx)")]


def _get(base: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.fixture
def front(live_server, tmp_path):
    with nginx_front(tmp_path / "nginx", urlsplit(live_server.url).netloc) as base:
        yield base


def test_the_proxy_shares_public_pages_and_follows_the_night(front, playing):  # noqa: F811
    page = f"/matches/{playing.pk}/"
    status, first_headers, first = _get(front, page)
    assert status == 200 and first_headers["x-cache"] == "MISS"
    status, headers, again = _get(front, page)
    assert status == 200 and headers["x-cache"] == "HIT" and again == first  # the application was not asked

    # a phone holding the page's ETag is answered 304 by the proxy itself
    status, headers, body = _get(front, page, **{"If-None-Match": first_headers["etag"]})
    assert status == 304 and headers["x-cache"] == "HIT" and body == b""

    # the night moves on: within seconds (s-maxage 2 + one revalidation) every follower sees it
    boem_sheet.going_on_record(match=playing, table_number=2, team=playing.away, strokes=2, reason="paper sheet",
                               by=playing.referee, opponents_under_fifty=True)
    started = time.monotonic()
    while True:
        _, headers, body = _get(front, page)
        if body.decode().count('class="stroke stroke-right') == 1:
            break
        assert time.monotonic() - started < 5, "the going-on was not visible through the proxy within 5 s"
        time.sleep(0.2)


def test_behind_the_proxy_the_site_adds_no_seconds_of_its_own(front, playing, settings):  # noqa: F811
    """The proxy keeps a live part a second; the site reads the version afresh for it (the snippet's ``X-Micro-Cache``),
    even where it would reuse one read for a minute: another worker's write is seen within the proxy's seconds."""
    from django.db.models import F

    settings.LIVE_VERSION_REUSE_SECONDS = 60
    part = f"/matches/{playing.pk}/live/"
    _, first, _ = _get(front, part)
    playing.__class__.objects.filter(pk=playing.pk).update(live_version=F("live_version") + 1)  # another worker
    started = time.monotonic()
    while _get(front, part)[1]["etag"] == first["etag"]:
        assert time.monotonic() - started < 5, "the proxy's copy was still the old version after 5 s"
        time.sleep(0.2)


def test_the_proxy_never_hands_one_phone_s_nothing_to_swap_to_another(front, playing):  # noqa: F811
    """htmx's poll holding the current part is answered "nothing to swap" (204 from the site, or 304); a phone
    holding an older part, or none, must still get the part itself once the kept copy has expired and been
    fetched again (a kept 204 left phones at old versions: bench/national_final.py)."""
    part = f"/matches/{playing.pk}/live/"
    status, headers, body = _get(front, part, **{"HX-Request": "true"})
    assert status == 200 and body
    for _ in range(3):  # past s-maxage (1 s) and stale-while-revalidate: the copy is fetched again meanwhile
        time.sleep(1.2)
        status, _, _ = _get(front, part, **{"HX-Request": "true", "If-None-Match": headers["etag"]})
        assert status in (204, 304)
    for held in ({}, {"If-None-Match": 'W/"0-0-en-older"'}):
        status, _, body = _get(front, part, **{"HX-Request": "true", **held})
        assert status == 200 and body, held


def test_the_proxy_keeps_languages_apart(front, playing):  # noqa: F811
    page = f"/matches/{playing.pk}/"
    _, _, english = _get(front, page)
    _, headers, afrikaans = _get(front, page, Cookie="django_language=af")
    assert headers["x-cache"] == "MISS" and afrikaans != english
    assert '<html lang="af"' in afrikaans.decode() and '<html lang="en"' in english.decode()
    _, headers, first_visit = _get(front, page, **{"Accept-Language": "af-ZA,af;q=0.9,en;q=0.5"})
    assert '<html lang="af"' in first_visit.decode()
    _, _, english_again = _get(front, page, **{"Accept-Language": "en-ZA,en;q=0.9"})
    assert '<html lang="en"' in english_again.decode()


def test_the_proxy_never_keeps_someone_s_own_page(front, playing):  # noqa: F811
    page = f"/matches/{playing.pk}/"
    _get(front, page)
    status, headers, _ = _get(front, page, Cookie="sessionid=not-a-real-session")
    assert headers["x-cache"] == "BYPASS"
    status, headers, _ = _get(front, "/accounts/login/")  # a form with a CSRF cookie: private, not kept
    assert "private" in headers.get("cache-control", "") or "set-cookie" in headers
    status, headers, _ = _get(front, "/accounts/login/")
    assert headers["x-cache"] != "HIT"


def test_the_proxy_compresses_what_leaves(front, playing):  # noqa: F811
    page = f"/matches/{playing.pk}/"
    _, _, plain = _get(front, page)
    _, headers, packed = _get(front, page, **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip" and headers["x-cache"] == "HIT"
    assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 3
