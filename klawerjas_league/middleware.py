"""A database that drops the connection answers a clear 503, not a 500 (issue 16)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

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
