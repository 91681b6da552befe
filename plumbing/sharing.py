"""Sharing a public page (issue 38): its absolute address, a "Share on WhatsApp" link, calendar subscriptions.

Every address a shared page, a preview or a calendar carries is built from ``settings.SITE_URL`` (the site's
public address), never from a request's ``Host`` header: a page kept in the cache
(``plumbing.page_cache``) is the same for every reader, and a link sent on is one that works
(OWASP ASVS 5.0 V1.3, host header injection). :func:`sharing_context` gives every template ``site_url`` and
``page_url`` (the page's address, without its query), which ``templates/base.html`` uses for its OpenGraph and
Twitter card tags.
"""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest

WHATSAPP_SHARE = "https://wa.me/?text="
"""WhatsApp's documented "click to chat" address with a ready text and no number: the reader picks the chat."""


def site_url() -> str:
    """The site's public address without a trailing slash (``settings.SITE_URL``), e.g. ``https://league.example``."""
    return str(settings.SITE_URL).rstrip("/")


def absolute_url(path: str) -> str:
    """``path`` (``/matches/7/``, from ``reverse``) as an absolute address on the site's public address."""
    return site_url() + (path if path.startswith("/") else "/" + path)


def webcal_url(path: str) -> str:
    """The ``webcal://`` address of a calendar feed at ``path``: a phone subscribes to it (and follows its
    changes) instead of importing the events once, as it does from an ``https`` link."""
    absolute = absolute_url(path)
    return "webcal://" + absolute.split("://", 1)[1]


def whatsapp_url(text: str) -> str:
    """WhatsApp's share address for ``text`` (the teams, the score and the page's address), URL-encoded:
    ``https://wa.me/?text=Home%207%E2%80%933%20Away%20https%3A%2F%2F...``."""
    return WHATSAPP_SHARE + quote(text, safe="")


def sharing_context(request: HttpRequest) -> dict[str, str]:
    """Template context processor: ``site_url`` and ``page_url`` (the absolute address of the page asked for,
    on the site's public address, without its query string)."""
    return {"site_url": site_url(), "page_url": absolute_url(request.path)}
