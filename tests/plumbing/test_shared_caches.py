"""What a shared cache may keep, and what travels compressed (issue 40).

Anonymous public pages, the live part and the public live JSON say ``public, max-age=0, s-maxage=…,
stale-while-revalidate=…`` with their ETag, so a reverse proxy or CDN may answer a national final's followers for
a second or two while every browser still revalidates; an answer that belongs to someone (signed in, a table
device's session, a message waiting, a cookie set) says ``private`` or ``no-cache`` and is never shared. A client
that accepts gzip gets the same page compressed (Django's GZipMiddleware), and ``Vary`` names only what picks the
answer: the language (``Accept-Language``, ``Cookie``), the encoding, and ``HX-Request`` on a live part.
"""

from __future__ import annotations

import gzip

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import RequestFactory, override_settings

from matches.night import table_links
from matches.results.standings import standings_recompute
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db


def _directives(response) -> dict[str, str]:
    parts = (part.strip() for part in response["Cache-Control"].split(","))
    return dict((part.split("=", 1) + [""])[:2] for part in parts if part)


def _vary(response) -> set[str]:
    return {value.strip() for value in response.get("Vary", "").split(",") if value.strip()}


def _public_urls(match) -> list[str]:
    return [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/", f"/api/fixtures/{match.pk}/live/",
            f"/competitions/{match.competition_id}/standings/", f"/api/competitions/{match.competition_id}/standings/",
            f"/competitions/{match.competition_id}/results/", f"/competitions/{match.competition_id}/"]


def test_anonymous_public_pages_may_be_kept_by_a_shared_cache_for_a_moment(client, playing):  # noqa: F811
    standings_recompute(competition_id=playing.competition_id)
    for url in _public_urls(playing):
        for attempt in ("first", "kept"):
            response = client.get(url)
            assert response.status_code == 200, url
            directives = _directives(response)
            assert "public" in directives and "private" not in directives and "no-cache" not in directives, url
            assert directives["max-age"] == "0", url  # a browser revalidates every time
            assert directives["s-maxage"] == "1" and directives["stale-while-revalidate"] == "5", (url, attempt)
            assert response.has_header("ETag"), url
        # a proxy revalidating with the ETag is told it may keep its copy again
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert not_modified.status_code == 304 and "s-maxage" in not_modified["Cache-Control"], url


def test_the_live_part_keeps_its_own_variant_for_htmx(client, playing):  # noqa: F811
    url = f"/matches/{playing.pk}/live/"
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert "public" in _directives(response)
    assert {"HX-Request", "Accept-Language", "Cookie"} <= _vary(response)


@override_settings(SHARED_CACHE_SECONDS=0)
def test_an_operator_can_turn_sharing_off(client, playing):  # noqa: F811
    directives = _directives(client.get(f"/matches/{playing.pk}/"))
    assert "no-cache" in directives and "public" not in directives and "s-maxage" not in directives


def test_a_signed_in_person_s_pages_are_never_shared(client, playing):  # noqa: F811
    client.force_login(get_user_model().objects.create_user(username="reader", password="x" * 12))
    for url in [*_public_urls(playing), "/", "/official/"]:
        response = client.get(url)
        directives = _directives(response) if response.has_header("Cache-Control") else {}
        assert "private" in directives and "public" not in directives, url


def test_a_table_device_s_live_part_is_private(client, playing):  # noqa: F811
    link = table_links.table_links_ensure(match=playing)[0]
    client.get(f"/table/t/{link.secret}/")
    assert client.cookies.get("sessionid") is not None
    for url in (f"/matches/{playing.pk}/live/", "/table/sheet/live/", "/table/sheet/"):
        directives = _directives(client.get(url))
        assert "private" in directives and "public" not in directives, url


def test_an_answer_with_a_message_waiting_is_not_shared(client, playing):  # noqa: F811
    url = f"/matches/{playing.pk}/"
    storage = CookieStorage(RequestFactory().get(url))  # a sign-out's message, waiting in its cookie
    client.cookies["messages"] = storage._encode([Message(constants.SUCCESS, "You have signed out.")])
    response = client.get(url)
    assert "You have signed out." in response.content.decode()
    directives = _directives(response)
    assert "public" not in directives and "s-maxage" not in directives


def test_pages_travel_gzipped_and_unpack_to_the_same_page(client, playing):  # noqa: F811
    standings_recompute(competition_id=playing.competition_id)
    for url in _public_urls(playing):
        plain = client.get(url)
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in _vary(packed), url
        assert gzip.decompress(packed.content) == plain.content, url
        assert len(packed.content) < len(plain.content), url


def test_a_gzipped_answer_s_weak_tag_still_gets_a_304(client, playing):  # noqa: F811
    for url in (f"/api/fixtures/{playing.pk}/live/", f"/matches/{playing.pk}/", f"/matches/{playing.pk}/live/"):
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert packed["ETag"].startswith('W/"'), url  # GZipMiddleware weakens a strong tag
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
        assert again.status_code == 304, url


def test_a_poll_that_changes_nothing_carries_only_what_a_cache_needs(client, playing):  # noqa: F811
    url = f"/matches/{playing.pk}/live/"
    first = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip")
    poll = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert poll.status_code == 204 and poll.content == b""
    assert poll.has_header("ETag") and poll.has_header("Vary")
    # one phone's "nothing to swap": never kept by a shared cache, which would hand it to phones at older versions
    assert "s-maxage" not in poll["Cache-Control"] and "no-cache" in poll["Cache-Control"]
    for name in ("Content-Security-Policy", "X-Frame-Options", "Content-Type", "Content-Language"):
        assert not poll.has_header(name), name
    assert first.has_header("Content-Security-Policy")  # the part itself keeps them
