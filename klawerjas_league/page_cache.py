"""Public pages served whole from the cache, and conditional GET, keyed by version tokens (issues 8 and 23).

One mechanism for every public read that a match night leans on (the match report, the standings page and
API, the results and fixtures pages):

* **A version token** names the state a page shows. :func:`page_token` is a random token kept in the cache
  under a name (``standings:page-token:<competition>``, ``competition:pages-token:<competition>``), renewed by
  :func:`page_token_renew` after every commit that changes what the pages show (the callers: the standings
  recompute and publishing, the union's settings, the ``post_save``/``post_delete`` signals of matches, teams
  and competitions). The match report adds ``Match.live_version``, bumped in the transaction of every
  match-night write (``matches.records.match_lock``). A change gives a new token, so a kept page is never
  stale; an old token's page is simply never asked for again.
* **A whole response** (:func:`cached_page`) is kept under the page's address, its tokens and the active
  language (``translation.get_language()``), for anyone not signed in: the page is then the same for
  everyone, and the next visitor gets it without a query or a template. A signed-in person's page (their
  name, their links) is rendered for them, and never kept.
* **Conditional GET.** Every such page carries an ``ETag`` made of the same parts (and who is asking), with
  ``Cache-Control: no-cache`` and ``Vary: Accept-Language, Cookie``: a phone that polls sends it back in
  ``If-None-Match`` and gets ``304 Not Modified`` until the data changes.

A request with messages waiting to be shown (``django.contrib.messages``) is neither answered 304 nor from the
cache, and a response that sets a cookie (a CSRF token, the session) or is not a 200 is not kept. The cache
needs to be shared (Redis: ``REDIS_URL``) when more than one process serves the site, as for the standings
page's cache before: a token renewed in one process's local memory is not seen by another.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

PAGE_TIMEOUT = 24 * 3600
"""Seconds a whole page is kept (it is keyed by its tokens, so never stale; this only frees the memory)."""

VARY = ("Accept-Language", "Cookie")
"""What a kept page varies by: the language it is written in, and whether (and who) someone is signed in."""


def page_token(name: str) -> str:
    """The current token named ``name`` (created at the first read): a 32-character hex string that
    :func:`page_token_renew` replaces. 0 queries, one or two cache reads."""
    token = cache.get(name)
    if token is None:
        cache.add(name, uuid.uuid4().hex, None)
        token = cache.get(name)
    return str(token)


def page_token_renew(name: str) -> None:
    """Replace the token named ``name`` once the current transaction commits (at once outside one), so that
    no reader can keep a page of the state before the commit under the new token."""
    transaction.on_commit(lambda: cache.set(name, uuid.uuid4().hex, None))


def kept[T](key: str, build: Callable[[], T], timeout: int = PAGE_TIMEOUT) -> T:
    """What ``build`` returns, built once and then served from the cache under ``key`` (which must name the
    version tokens and the language it was built in: it is never renewed, only left unused)."""
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, timeout)
    return value  # type: ignore[no-any-return]


def _messages_waiting(request: HttpRequest) -> bool:
    storage = getattr(request, "_messages", None)
    return storage is not None and len(get_messages(request)) > 0


def page_etag(request: HttpRequest, parts: Iterable[object]) -> str:
    """The quoted ETag of the page at ``request``'s address (with its query) as ``parts`` name its state, in
    the active language, for whoever is asking (0 for anyone not signed in)."""
    user = request.user.pk if request.user.is_authenticated else 0
    raw = "|".join([request.get_full_path(), translation.get_language() or "", f"u{user}", *map(str, parts)])
    return '"' + hashlib.blake2b(raw.encode(), digest_size=12).hexdigest() + '"'


def conditional_headers(response: HttpResponseBase, *, etag: str | None, private: bool) -> HttpResponseBase:
    """Add the ETag (when given), ``Cache-Control: no-cache`` (``private`` too for a signed-in person's page)
    and ``Vary: Accept-Language, Cookie`` to ``response``; returns it."""
    if etag is not None and response.status_code in (200, 304):
        response["ETag"] = etag
    patch_cache_control(response, no_cache=True, **({"private": True} if private else {}))
    patch_vary_headers(response, VARY)
    return response


def cached_page(request: HttpRequest, *, parts: Iterable[object],
                render: Callable[[], HttpResponseBase], timeout: int = PAGE_TIMEOUT) -> HttpResponseBase:
    """The page ``render`` makes, as ``parts`` (the page's kind, ids and version tokens) name its state.

    Answers ``304 Not Modified`` when the request's ``If-None-Match`` holds the page's ETag; else, for anyone
    not signed in, the kept response of that state (rendered once, then kept ``timeout`` seconds), else
    ``render()``. See the module for what is never kept. ``render`` may raise ``Http404`` as usual.
    """
    parts = tuple(parts)
    if request.method not in ("GET", "HEAD") or _messages_waiting(request):
        return conditional_headers(render(), etag=None, private=request.user.is_authenticated)
    signed_in = request.user.is_authenticated
    etag = page_etag(request, parts)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return conditional_headers(not_modified, etag=etag, private=signed_in)
    key = f"page:{etag.strip(chr(34))}"
    if not signed_in:
        kept = cache.get(key)
        if kept is not None:
            content, content_type = kept
            return conditional_headers(HttpResponse(content, content_type=content_type), etag=etag, private=False)
    response = render()
    keep = (not signed_in and response.status_code == 200 and not response.streaming and not response.cookies
            and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))
    if keep:
        cache.set(key, (response.content, response["Content-Type"]), timeout)  # type: ignore[attr-defined]
    return conditional_headers(response, etag=etag, private=signed_in)
