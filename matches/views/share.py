"""The preview images of shared pages (issue 38): ``/matches/<id>/preview.png`` and
``/competitions/<id>/standings/preview.png``, the ``og:image`` of the match report and the standings.

Stable addresses whose picture follows the page: drawn once per version of the page (``matches.share``), and
answered ``304 Not Modified`` to a reader holding that version's ETag.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control

from matches.models import Competition
from matches.page_versions import match_page_version
from matches.share import match_preview, standings_preview


def _png_response(request: HttpRequest, png: bytes, version: str) -> HttpResponse:
    etag = f'"png-{version}"'
    not_modified = get_conditional_response(request, etag=etag)
    response = not_modified or HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=300)
    return response


def match_preview_image(request: HttpRequest, pk: int) -> HttpResponse:
    """The match report's preview: the teams, the score and each table's boem trees (PNG, 1200×630)."""
    found = match_page_version(pk)
    if found is None:
        raise Http404("No such match.")
    live_version, competition_id = found
    png, version = match_preview(match_id=pk, live_version=live_version, competition_id=competition_id)
    if png is None:
        raise Http404("No such match.")
    return _png_response(request, png, version)


def standings_preview_image(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings page's preview: the top of the published table, else of the live one (PNG, 1200×630)."""
    competition = get_object_or_404(Competition, pk=pk)
    png, version = standings_preview(competition=competition)
    return _png_response(request, png, version)
