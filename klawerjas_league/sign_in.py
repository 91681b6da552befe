"""Sign-in throttling behind a reverse proxy (issue 16).

django-axes locks a **username** out after ``AXES_FAILURE_LIMIT`` wrong passwords, for a short cool-off
(``AXES_COOLOFF_MINUTES``, 5 by default): whoever guesses, from wherever, gets a handful of tries, and someone
who locks a referee out on purpose costs them minutes, not half an hour. Separately, each **client address** may
fail at most ``SIGN_IN_FAILURES_PER_ADDRESS`` sign-ins in ``SIGN_IN_WINDOW_MINUTES`` (any usernames) before its
sign-ins are refused with 429 until the window passes: one address cannot try many accounts.

The client address is DRF's (:func:`client_address`): ``REMOTE_ADDR``, or with ``NUM_PROXIES`` set the address
the nearest trusted proxy put in ``X-Forwarded-For`` (the same rule as the table sign-in throttle), so behind the
documented proxy every client is told apart instead of all sharing the proxy's address. django-axes uses it too
(``AXES_CLIENT_IP_CALLABLE``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or behind ``NUM_PROXIES`` proxies the one they forwarded; ``None``
    when the request carries none (django-axes then records none)."""
    return BaseThrottle().get_ident(request) or None


def _failures_key(request: HttpRequest) -> str:
    return f"sign-in-failures:{client_address(request) or 'unknown'}"


def sign_in_address_blocked(request: HttpRequest) -> bool:
    """Whether the client's address has failed too many sign-ins in the window."""
    return int(cache.get(_failures_key(request), 0)) >= settings.SIGN_IN_FAILURES_PER_ADDRESS


def sign_in_failure_record(sender: Any, credentials: Any = None, request: Any = None, **kwargs: Any) -> None:
    """``user_login_failed``: count a failed sign-in against the client's address (in the cache)."""
    if request is None:
        return
    key, window = _failures_key(request), int(settings.SIGN_IN_WINDOW_MINUTES * 60)
    if not cache.add(key, 1, window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, window)


def address_blocked_response(request: HttpRequest) -> HttpResponse:
    """429 with the lockout page: too many failed sign-ins from this address."""
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, status=429)


class SignInView(auth_views.LoginView):
    """Django's sign-in page, refused (429) for an address that failed too many sign-ins."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Sign in, unless the client's address is blocked."""
        if sign_in_address_blocked(request):
            return address_blocked_response(request)
        return super().post(request, *args, **kwargs)
