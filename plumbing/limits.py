"""Limits per client address: who the client is, and counters that expire and survive Redis failing (issue 35).

Every limit counted per address uses :func:`client_address`, DRF's rule (``BaseThrottle.get_ident``): the
connection's ``REMOTE_ADDR``; or, with ``NUM_PROXIES`` trusted proxies in front (``settings.NUM_PROXIES``, copied to
``REST_FRAMEWORK["NUM_PROXIES"]``), the address the nearest of them put in ``X-Forwarded-For``. So behind the
documented proxy (``deploy/nginx/klawerjas-league.conf``, which sets the header itself) each phone in a hall is
told apart, and with no proxy trusted a forged header changes nothing. Its users: the failed sign-ins per address
and django-axes's lockouts (``accounts.sign_in``, ``AXES_CLIENT_IP_CALLABLE``), the wrong table codes
(``tables.views``) and the table API's sign-in throttle (``tables.api.SignInThrottle``, a DRF throttle).

The counts live in the ``limits`` cache (``plumbing.cache.caches_config``): Redis, and each process's
memory while Redis cannot be reached, so a limit keeps counting when Redis is down. Each count expires its window
after the first attempt that made it (:func:`address_count_add`); nothing is kept for longer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

from plumbing.cache import LIMITS_CACHE


def client_address(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or behind ``NUM_PROXIES`` trusted proxies the one the nearest of them
    forwarded (DRF's ``get_ident``); ``None`` when the request carries none (django-axes then records none).
    ``request`` is Django's or DRF's."""
    return BaseThrottle().get_ident(request) or None  # type: ignore[arg-type]  # reads META, which both have


def limits_cache() -> BaseCache:
    """The cache the per-address counts live in: ``CACHES["limits"]`` (the default cache where a configuration
    has no such entry)."""
    return caches[LIMITS_CACHE if LIMITS_CACHE in settings.CACHES else "default"]


def _key(scope: str, request: HttpRequest) -> str:
    return f"{scope}:{client_address(request) or 'unknown'}"


def address_count(*, scope: str, request: HttpRequest) -> int:
    """How many times ``scope`` was counted for the request's client address in its current window (0 when none
    or the window has passed)."""
    return int(limits_cache().get(_key(scope, request), 0))


def address_count_add(*, scope: str, request: HttpRequest, window_seconds: int) -> int:
    """Count one more ``scope`` for the request's client address and return the count. The first count opens a
    window of ``window_seconds``; the count is forgotten when it ends (a later one is not renewing it)."""
    store, key = limits_cache(), _key(scope, request)
    if store.add(key, 1, window_seconds):
        return 1
    try:
        return int(store.incr(key))
    except ValueError:  # expired between add and incr
        store.set(key, 1, window_seconds)
        return 1


class LimitsCacheThrottle:
    """Mixin for a DRF ``SimpleRateThrottle``: keep its history in the ``limits`` cache (so it keeps counting when
    Redis is down), keyed by :func:`client_address` (DRF's ``get_ident``, as the throttle already is)."""

    @property
    def cache(self) -> Any:
        """The ``limits`` cache (looked up per use, so a test's ``override_settings(CACHES=…)`` applies)."""
        return limits_cache()
