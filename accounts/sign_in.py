"""Sign-in throttling behind a reverse proxy (issues 16 and 35).

django-axes locks an **account from one address** (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``)
after ``AXES_FAILURE_LIMIT`` wrong passwords, for a short cool-off (``AXES_COOLOFF_MINUTES``, 5 by default) that
more tries do not lengthen: whoever guesses gets a handful of tries per account, and nobody elsewhere can lock a
referee out (the referee's own phone, at another address, still signs in). Separately, each **client address** may
fail at most ``SIGN_IN_FAILURES_PER_ADDRESS`` sign-ins in ``SIGN_IN_WINDOW_MINUTES`` (any usernames) before its
sign-ins are refused with 429 until the window passes: one address cannot try many accounts.

Both are said plainly, on the sign-in page (:func:`lockout_response`, ``AXES_LOCKOUT_CALLABLE``) and by the token
endpoint (``accounts.api_auth``): "Too many failed sign-ins from this address for this account; try again
in N minutes.", and for the address's budget "Too many failed sign-ins from this address; try again in N minutes."

A user with two-step sign-in is not signed in by the password: :class:`SignInView` then asks for the code
(``accounts.two_step``, the page ``two-step-code``).

The client address is :func:`plumbing.limits.client_address` (DRF's rule: ``REMOTE_ADDR``, or behind
``NUM_PROXIES`` trusted proxies the address they forwarded), for both; the address's failures are counted in the
``limits`` cache, which keeps counting while Redis is down (``plumbing.limits``). django-axes keeps its
attempts in the database.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.two_step import sign_in_pending_start, two_step_on
from plumbing.limits import address_count, address_count_add, client_address

FAILURES_SCOPE = "sign-in-failures"


def _minutes(remaining: timedelta) -> int:
    return max(1, math.ceil(remaining.total_seconds() / 60))


def sign_in_address_blocked(request: HttpRequest) -> bool:
    """Whether the client's address has failed ``SIGN_IN_FAILURES_PER_ADDRESS`` sign-ins in the window."""
    return address_count(scope=FAILURES_SCOPE, request=request) >= settings.SIGN_IN_FAILURES_PER_ADDRESS


def sign_in_failure_record(sender: Any, credentials: Any = None, request: Any = None, **kwargs: Any) -> None:
    """``user_login_failed``: count a failed sign-in against the client's address (a window of
    ``SIGN_IN_WINDOW_MINUTES`` from the first)."""
    if request is None:
        return
    address_count_add(scope=FAILURES_SCOPE, request=request,
                      window_seconds=int(settings.SIGN_IN_WINDOW_MINUTES * 60))


def address_blocked_message() -> str:
    """"Too many failed sign-ins from this address; try again in N minutes." (N: the window, at most.)"""
    minutes = _minutes(timedelta(minutes=settings.SIGN_IN_WINDOW_MINUTES))
    return ngettext("Too many failed sign-ins from this address; try again in %(minutes)d minute.",
                    "Too many failed sign-ins from this address; try again in %(minutes)d minutes.",
                    minutes) % {"minutes": minutes}


def account_locked_message(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """"Too many failed sign-ins from this address for this account; try again in N minutes.", N the minutes left
    of the cool-off (from the attempt that locked it; the whole cool-off when that is not found)."""
    cool_off = get_cool_off(request) or timedelta(0)
    latest = (AccessAttempt.objects.filter(username=get_client_username(request, credentials),
                                           ip_address=client_address(request))
              .order_by("-attempt_time").values_list("attempt_time", flat=True).first())
    remaining = cool_off - (timezone.now() - latest) if latest is not None else cool_off
    minutes = _minutes(remaining)
    return ngettext("Too many failed sign-ins from this address for this account; try again in %(minutes)d minute.",
                    "Too many failed sign-ins from this address for this account; try again in %(minutes)d "
                    "minutes.", minutes) % {"minutes": minutes}


def _locked_page(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, {"message": message}, status=429)


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: 429 with the sign-in lockout page saying :func:`account_locked_message`."""
    return _locked_page(request, account_locked_message(request, credentials))


def address_blocked_response(request: HttpRequest) -> HttpResponse:
    """429 with the lockout page saying :func:`address_blocked_message`."""
    return _locked_page(request, address_blocked_message())


class SignInView(auth_views.LoginView):
    """Django's sign-in page, refused (429) for an address that failed too many sign-ins; for a user with two-step
    sign-in, the right password leads to the code page, not in."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Sign in, unless the client's address is blocked."""
        if sign_in_address_blocked(request):
            return address_blocked_response(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        """Sign in; or, for a user with two-step sign-in, remember them (not signed in) and ask for the code."""
        user = form.get_user()
        if two_step_on(user=user):
            sign_in_pending_start(self.request, user=user, next_url=self.get_success_url())
            return redirect("two-step-code")
        return super().form_valid(form)
