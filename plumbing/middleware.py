"""Middleware of the site's own: a lost database answers 503 (issue 16); a signed-in page is never shared (issue 40)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

logger = logging.getLogger(__name__)

UNAVAILABLE_PAGE = (
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Try again in a moment</title></head>"
    "<body><h1>Try again in a moment</h1><p>The league's database did not answer, so nothing was saved. "
    "Please try again in a few seconds.</p></body></html>"
)


class DatabaseUnavailableMiddleware:
    """Turn a lost or refused database connection into ``503 Service Unavailable`` with ``Retry-After``.

    The view's transaction was rolled back with the connection, so nothing was half-written; the caller may
    simply try again. Django drops the broken connection at the end of the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on."""
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """503 for a database connection error; anything else is left to Django."""
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable during %s %s: %s", request.method, request.path, exception)
        wants_json = request.path.startswith("/api/") or "json" in request.headers.get("Accept", "")
        if wants_json:
            response = HttpResponse('{"detail": "The database did not answer; nothing was saved. Try again."}',
                                    content_type="application/json", status=503)
        else:
            response = HttpResponse(UNAVAILABLE_PAGE, status=503)
        response["Retry-After"] = "5"
        return response


class PrivateWhenSignedInMiddleware:
    """Mark every answer to a signed-in person, to a request with a session (a table device), or that sets a
    cookie, as ``Cache-Control: private``: a shared cache (the shipped nginx's micro-cache, a CDN) never keeps
    it, whatever the view said (issue 40). Only public answers to nobody in particular carry ``public``
    (:func:`plumbing.page_cache.shared_cache_control`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Serve the request; then add ``private`` where the answer belongs to someone."""
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if (response.cookies or settings.SESSION_COOKIE_NAME in request.COOKIES
                or (user is not None and user.is_authenticated)):
            patch_cache_control(response, private=True)
        return response


EMPTY_ANSWER_DROPPED_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy",
                                "Referrer-Policy", "X-Content-Type-Options", "Content-Language", "Content-Type")
"""Headers that describe or guard a body, dropped from an answer without one (a poll's 204 or 304)."""


class EmptyAnswerMiddleware:
    """Keep a poll that changes nothing small (issue 40: at most 400 bytes on a phone's prepaid data).

    A ``204 No Content`` (htmx: nothing to swap) or ``304 Not Modified`` carries no body, so the headers that
    describe or guard one (the CSP, framing, sniffing, referrer and opener policies, the content's type and
    language: :data:`EMPTY_ANSWER_DROPPED_HEADERS`) are dropped; what a cache needs stays (``ETag``,
    ``Cache-Control``, ``Vary``; RFC 9110 15.4.5), and a browser keeps the headers of the page it holds. First in
    ``MIDDLEWARE``, so it sees the answer after every other middleware has added its headers.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Serve the request; strip a bodiless answer's body headers."""
        response = self.get_response(request)
        if response.status_code in (204, 304):
            for name in EMPTY_ANSWER_DROPPED_HEADERS:
                if response.has_header(name):
                    del response[name]
        return response
