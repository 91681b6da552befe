"""Public pages served whole from the cache, and conditional GET, keyed by version tokens (issues 8 and 23).

One mechanism for every public read that a match night leans on (the match report, the standings page and
API, the results and fixtures pages):

* **A version token** names the state a page shows. :func:`page_token` is a random token kept in the cache
  under a name (``standings:page-token:<competition>``, ``competition:pages-token:<competition>``), renewed by
  :func:`page_token_renew` after every commit that changes what the pages show (the callers: the standings
  recompute and publishing, the union's settings, the ``post_save``/``post_delete`` signals of matches, teams
  and competitions). The match report adds ``Match.live_version``, bumped in the transaction of every
  match-night write (``matches.writes.match_lock``). A change gives a new token, so a kept page is never
  stale; an old token's page is simply never asked for again.
* **A whole response** (:func:`cached_page`) is kept under the page's address, its tokens and the active
  language (``translation.get_language()``), for anyone not signed in: the page is then the same for
  everyone, and the next visitor gets it without a query or a template. A signed-in person's page (their
  name, their links) is rendered for them, and never kept.
* **Conditional GET.** Every such page carries an ``ETag`` made of the same parts (and who is asking), with
  ``Cache-Control: no-cache`` and ``Vary: Accept-Language, Cookie``: a phone that polls sends it back in
  ``If-None-Match`` and gets ``304 Not Modified`` until the data changes.

**A message is always shown** (issue 34). A request with messages waiting to be shown (``django.contrib.messages``:
a write's refusal or its success, left for the page its redirect leads to) gets no ETag at all, so it is never
answered 304 (the browser would show the page it kept, without the message), nor from the cache, and its page is
never kept by the browser to be revalidated later (the message shown again). :func:`page_tag` is that rule, and
every ETag of the site's pages goes through it: :func:`cached_page`'s, and the live pages' and parts' with
:func:`live_condition` (the table's sheet, the referee's dashboard, the public match page's live part). A
response that sets a cookie (a CSRF token, the session) or is not a 200 is not kept.

**Live parts** (:func:`live_condition`). A live page polls its live part with htmx. An htmx request's tag is its
own (``-part``; ``Vary: HX-Request``): the referee's dashboard polls its own address, and a part must never be
taken for its page, nor the page for its part, when the browser revalidates what it kept. A poll whose part has
not changed is answered ``204 No Content`` rather than 304: the browser turns a 304 into its kept body, which
htmx would swap in again; after a 204 htmx swaps nothing, so what the reader opened, chose or typed stays (a
changed part is morphed in: ``static/js/live-morph.js``). The cache
needs to be shared (Redis: ``REDIS_URL``) when more than one process serves the site, as for the standings
page's cache before: a token renewed in one process's local memory is not seen by another.

**Kept JSON of the API** (:class:`KeptJsonMixin`, :func:`keep_json`). Once its data is kept, most of a public
API read's time is Django REST framework's own work per request (authentication, content negotiation, the
renderer). DRF still answers the first request of a state, and every request it must judge (a signed-in person,
an ``Authorization`` header, the browsable API, ``?format=``, an ``indent``); :func:`keep_json` keeps the bytes
and headers its ``JSONRenderer`` wrote for an anonymous plain-JSON answer, under the state's key; the mixin then
answers the same plain-JSON requests from nobody signed in (:func:`json_read_fast`) with those bytes, or a 304,
before DRF's dispatch.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import parse_header_parameters
from rest_framework.throttling import BaseThrottle

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
    """Whether messages wait to be shown on the next page (counted without marking them shown)."""
    storage = getattr(request, "_messages", None)
    return storage is not None and len(get_messages(request)) > 0


def _htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def page_tag(request: HttpRequest, tag: str | None) -> str | None:
    """The quoted ETag that ``tag`` (quoted or not: a state's version, or :func:`page_etag`) gives ``request``, or
    ``None``: no ETag, and so never a 304, when a message waits to be shown (see the module), when the request
    is not a read, or when ``tag`` is ``None``. An htmx request's tag is marked as its own (``-part``): a live
    part and its page never share one. Every ETag of a page goes through here."""
    if tag is None or request.method not in ("GET", "HEAD") or _messages_waiting(request):
        return None
    tag = tag.strip('"')
    return f'"{tag}-part"' if _htmx(request) else f'"{tag}"'


def page_etag(request: HttpRequest, parts: Iterable[object]) -> str:
    """The quoted ETag of the page at ``request``'s address (with its query) as ``parts`` name its state, in
    the active language, for whoever is asking (0 for anyone not signed in)."""
    user = request.user.pk if request.user.is_authenticated else 0
    raw = "|".join([request.get_full_path(), translation.get_language() or "", f"u{user}", *map(str, parts)])
    return '"' + hashlib.blake2b(raw.encode(), digest_size=12).hexdigest() + '"'


def shared_cache_control(response: HttpResponseBase) -> HttpResponseBase:
    """Let a shared cache (the shipped nginx's micro-cache, a CDN) answer ``response`` for a moment: ``public,
    max-age=0, s-maxage=SHARED_CACHE_SECONDS, stale-while-revalidate=SHARED_CACHE_STALE_SECONDS`` (issue 40).

    A browser still revalidates every time (``max-age=0``: its poll gets a 304 or the new page); a proxy may
    answer everyone from one copy for ``s-maxage`` seconds, and for ``stale-while-revalidate`` seconds more
    while it fetches the next. ``SHARED_CACHE_SECONDS=0`` turns sharing off (``no-cache`` as before). Only for
    an answer that is the same for everyone: the callers decide that (:func:`shareable`). Returns ``response``.
    """
    seconds = settings.SHARED_CACHE_SECONDS
    if seconds <= 0:
        patch_cache_control(response, no_cache=True)
        return response
    patch_cache_control(response, public=True, max_age=0, s_maxage=seconds,
                        stale_while_revalidate=settings.SHARED_CACHE_STALE_SECONDS)
    return response


def micro_cache_in_front(request: HttpRequest) -> bool:
    """Whether the request came through a proxy that keeps the shared answers itself: the shipped nginx snippet
    sends ``X-Micro-Cache: on`` (``deploy/nginx/snippets/klawerjas-league-proxy.conf``). The site then adds no
    reuse of its own to the proxy's seconds (``matches.night.live.live_version_polled``). A client that sends the
    header itself only makes its own requests cost a query more."""
    return request.headers.get("X-Micro-Cache") == "on"


def shareable(request: HttpRequest, response: HttpResponseBase, *, etag: str | None) -> bool:
    """Whether ``response`` to ``request`` is the same for everyone and so may be kept by a shared cache: it
    has a tag (:func:`page_tag`: a read, no message waiting), nobody is signed in and the request carries no
    session (a table device's or a visitor's with a message), it sets no cookie, and it is a 200 or a 304.

    Never a 204: htmx's "nothing to swap" answers one phone's ``If-None-Match``, and a shared cache that kept it
    (nginx revalidating its copy passes the phone's ``HX-Request`` on) would give it to phones holding older
    versions, which would then keep their stale part (issue 40, ``bench/national_final.py``)."""
    return (etag is not None and response.status_code in (200, 304) and not response.cookies
            and not request.user.is_authenticated and settings.SESSION_COOKIE_NAME not in request.COOKIES)


def conditional_headers(response: HttpResponseBase, *, etag: str | None, private: bool,
                        request: HttpRequest | None = None) -> HttpResponseBase:
    """Add the ETag (when given), the ``Cache-Control`` and ``Vary: Accept-Language, Cookie`` to ``response``;
    returns it. ``Cache-Control``: ``private, no-cache`` for a signed-in person's page; for ``request`` 's page
    that is :func:`shareable`, :func:`shared_cache_control`'s; else ``no-cache``."""
    if etag is not None and response.status_code in (200, 304):
        response["ETag"] = etag
    if private:
        patch_cache_control(response, no_cache=True, private=True)
    elif request is not None and shareable(request, response, etag=etag):
        shared_cache_control(response)
    else:
        patch_cache_control(response, no_cache=True)
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
    etag = page_tag(request, page_etag(request, parts)) if request.method in ("GET", "HEAD") else None
    if etag is None:
        return conditional_headers(render(), etag=None, private=request.user.is_authenticated, request=request)
    signed_in = request.user.is_authenticated
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return conditional_headers(not_modified, etag=etag, private=signed_in, request=request)
    key = f"page:{etag.strip(chr(34))}"
    if not signed_in:
        kept = cache.get(key)
        if kept is not None:
            content, content_type = kept
            return conditional_headers(HttpResponse(content, content_type=content_type), etag=etag, private=False,
                                       request=request)
    response = render()
    keep = (not signed_in and response.status_code == 200 and not response.streaming and not response.cookies
            and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))
    if keep:
        cache.set(key, (response.content, response["Content-Type"]), timeout)  # type: ignore[attr-defined]
    return conditional_headers(response, etag=etag, private=signed_in, request=request)


def rendered_page_tagged(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response``, rendered for ``request`` by a page that no version token names (the home page's "this week"),
    tagged by its own content as :func:`cached_page` tags a kept page (:func:`page_etag` of its bytes, through
    :func:`page_tag`): a ``304 Not Modified`` when ``If-None-Match`` holds that tag, and the same
    ``Cache-Control`` as a kept page, shared (:func:`shareable`) when it is the same for everyone. A page that
    is not a 200 read, or is streamed, only gets the headers. Returns the answer."""
    signed_in = request.user.is_authenticated
    etag = None
    if request.method in ("GET", "HEAD") and response.status_code == 200 and not response.streaming:
        digest = hashlib.blake2b(response.content, digest_size=12).hexdigest()  # type: ignore[attr-defined]
        etag = page_tag(request, page_etag(request, ("content", digest)))
    if etag is not None:
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return conditional_headers(not_modified, etag=etag, private=signed_in, request=request)
    return conditional_headers(response, etag=etag, private=signed_in, request=request)


def live_condition(etag_func: Callable[..., str | None]) -> Callable[[Callable[..., HttpResponseBase]],
                                                                   Callable[..., HttpResponseBase]]:
    """Django's ``@condition(etag_func=...)`` for a live page or the live part it polls (see the module).

    ``etag_func(request, *args, **kwargs)`` names the state (a version, unquoted), or ``None``; the ETag is
    :func:`page_tag`'s (none while a message waits). A request holding the current ETag in ``If-None-Match`` gets
    ``304 Not Modified``, or ``204 No Content`` from htmx (nothing to swap); else the view's answer, with the
    ETag when it is a 200. Every answer says ``Vary: HX-Request``."""

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            etag = (page_tag(request, etag_func(request, *args, **kwargs))
                    if request.method in ("GET", "HEAD") else None)
            response: HttpResponseBase | None = None
            if etag is not None:
                response = get_conditional_response(request, etag=etag)
                if response is not None and response.status_code == 304 and _htmx(request):
                    response = HttpResponse(status=204)
            if response is None:
                response = view(request, *args, **kwargs)
            if etag is not None and response.status_code in (200, 204, 304) and not response.has_header("ETag"):
                response["ETag"] = etag
            if shareable(request, response, etag=etag):
                shared_cache_control(response)
            elif not response.has_header("Cache-Control"):
                patch_cache_control(response, no_cache=True)
            patch_vary_headers(response, ("HX-Request",))
            return response

        return inner

    return decorator


# --- Kept JSON of the API (issue 23) ---------------------------------------------------------------------------

KEPT_JSON_HEADERS = ("Content-Type", "ETag", "Cache-Control", "Vary", "Allow")
"""The headers of DRF's answer kept with its bytes (the middleware adds its own to every answer anyway)."""

_JSON_RANGES = frozenset({"application/json", "*/*"})


def json_read_fast(request: HttpRequest) -> bool:
    """Whether ``request`` may be answered from JSON bytes DRF rendered for someone else: a ``GET`` of the bare
    address (no query: no ``?format=``, nothing a view could read), without an ``Authorization`` header (an API
    token is DRF's to check, a wrong one is a 401), from nobody signed in by the session, whose ``Accept`` is
    absent or names only ``application/json`` and ``*/*`` with no parameter but ``q``. For exactly those
    requests DRF's content negotiation picks the ``JSONRenderer`` (the first renderer) with its plain media
    type, so the bytes are the same; anything else (the browsable API for ``text/html``, an ``indent``) goes to
    DRF. 0 queries without a session cookie."""
    meta = request.META
    if request.method != "GET" or meta.get("QUERY_STRING") or "HTTP_AUTHORIZATION" in meta:
        return False
    for media_range in meta.get("HTTP_ACCEPT", "*/*").split(","):
        media_type, params = parse_header_parameters(media_range)
        if media_type not in _JSON_RANGES or any(name != "q" for name in params):
            return False
    return not request.user.is_authenticated


def keep_json(request: Any, response: Any, *, key: str, timeout: int = PAGE_TIMEOUT) -> Any:
    """Mark DRF's ``response`` to ``request`` (a ``rest_framework.request.Request``) to be kept under ``key``
    once rendered: its bytes and :data:`KEPT_JSON_HEADERS`, for :class:`KeptJsonMixin` to answer the same state
    with. Kept only for a ``GET`` from nobody signed in (DRF's own authentication), answered 200 by the
    ``JSONRenderer`` without an ``indent``. ``key`` must name the state (its version tokens and the language),
    as :func:`kept`'s. Returns ``response``."""
    if request.method != "GET" or request.user.is_authenticated or response.status_code != 200:
        return response
    renderer, media_type = getattr(request, "accepted_renderer", None), getattr(request, "accepted_media_type", "")
    if renderer is None or renderer.format != "json" or "indent" in parse_header_parameters(media_type)[1]:
        return response

    def keep(rendered: HttpResponse) -> None:
        headers = {name: rendered[name] for name in KEPT_JSON_HEADERS if rendered.has_header(name)}
        cache.set(key, (rendered.content, headers), timeout)

    response.add_post_render_callback(keep)
    return response


class KeptJsonMixin:
    """For a DRF view set: answer its public JSON reads from the bytes :func:`keep_json` kept, before DRF.

    ``kept_json_state(action, kwargs)`` names the current state of an action's answer, cheaply (version
    tokens, a version read): ``(key, etag)``, the cache key the action passes to :func:`keep_json` and the
    quoted ETag it answers with; ``None`` (or ``Http404``) when the action is not kept. A request that
    :func:`json_read_fast` allows, to a view set without throttles, is answered ``304 Not Modified`` when its
    ``If-None-Match`` holds the state's ETag (the client's copy is that state's), else with the kept bytes and
    headers when the ``GET`` action has kept them for the current state. Everything else (and a state not yet
    kept) goes through DRF as usual: the bytes are only ever those DRF rendered for an anonymous request allowed to
    read them.
    """

    throttle_classes: Sequence[type[BaseThrottle]]  # the view set's (APIView)
    action_map: dict[str, str]

    def kept_json_state(self, action: str, kwargs: dict[str, Any]) -> tuple[str, str] | None:
        """``(cache key, quoted ETag)`` of ``action``'s answer now, or ``None`` when it is not kept."""
        return None

    def kept_json_answer(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponseBase | None:
        """The answer from kept bytes (see the class), or ``None`` to let DRF answer."""
        action = getattr(self, "action_map", {}).get("get")
        if action is None or self.throttle_classes or not json_read_fast(request):
            return None
        try:
            state = self.kept_json_state(action, kwargs)
        except Http404:
            return None
        if state is None:
            return None
        key, etag = state
        # The client's copy is the current state's (its ETag names the state): 304 without reading the bytes, one
        # cache round trip less for most polls (issue 40).
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            patch_vary_headers(not_modified, ("Accept",))
            return conditional_headers(not_modified, etag=etag, private=False, request=request)
        found = cache.get(key)
        if found is None:
            return None
        content, headers = found
        response = HttpResponse(content)
        for name, value in headers.items():
            response[name] = value
        return response

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Answer from kept bytes when :meth:`kept_json_answer` can, else DRF's ``dispatch``."""
        answer = self.kept_json_answer(request, kwargs)
        if answer is not None:
            return answer
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc, no-any-return]
