"""The site's language: English or Afrikaans, chosen by the AF/EN switch and remembered (issue 19).

Which language a request gets (Django's :class:`~django.middleware.locale.LocaleMiddleware`): the language
cookie (``django_language``, set by the switch, kept a year: a table device without an account keeps its
choice), else the browser's ``Accept-Language`` (a first visit), else English. A signed-in user's choice is
also stored (:class:`plumbing.models.UserLanguage`): the switch saves it, and signing in on any device
makes it that device's cookie. So no request pays a query for the language.

Every response says it varies on ``Accept-Language`` and ``Cookie`` (a shared cache must not hand an
Afrikaans page to an English reader), and anything cached as rendered text keys on
:func:`language_cache_key`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import check_for_language, get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from plumbing.models import UserLanguage


def language_cache_key(key: str) -> str:
    """``key`` with the active language appended (``"standings-page:3:…:af"``), for any cached rendered text."""
    return f"{key}:{get_language() or settings.LANGUAGE_CODE}"


def user_language_on_sign_in(sender: Any, request: HttpRequest | None = None, user: Any = None,
                             **kwargs: Any) -> None:
    """``user_logged_in``: make the user's stored language this device's (the cookie is set on the response by
    :class:`LanguageCookieMiddleware`); a user who never chose keeps the language they signed in with, which
    is then stored as theirs."""
    if request is None or user is None:
        return
    stored = UserLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    if stored:
        request._language_on_sign_in = stored  # type: ignore[attr-defined]
    elif request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) and check_for_language(get_language() or ""):
        UserLanguage.objects.update_or_create(user=user, defaults={"language": get_language()})


class LanguageCookieMiddleware:
    """Set the language cookie to the user's stored language on the sign-in response, and mark every response
    as varying on ``Accept-Language`` and ``Cookie`` (the two things that pick the language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Serve the request; then set the cookie if a sign-in asked for it, and the ``Vary`` header."""
        response = self.get_response(request)
        language = getattr(request, "_language_on_sign_in", None)
        if language:
            _language_cookie_set(response, language)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response


#: What ``set_cookie`` takes as ``samesite`` (the setting is one of these; Django's default is ``"Lax"``).
SameSite = Literal["Lax", "Strict", "None"] | None


def _language_cookie_set(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=cast(SameSite, settings.LANGUAGE_COOKIE_SAMESITE),
    )


@csrf_exempt
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """``POST /i18n/setlang/`` with ``language`` (``en``/``af``) and ``next``: Django's ``set_language`` (the
    cookie, then back to ``next``), and for a signed-in user the choice is stored. An unknown language changes
    nothing (Django's own behaviour: it redirects back).

    Exempt from CSRF on purpose: the switch is on every page, and a token in it would make every public page
    differ per reader (no whole-page caching); the worst a forged request can do is change a reader's language.
    ``next`` is checked by Django (same host only)."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES) and check_for_language(language):
        UserLanguage.objects.update_or_create(user=request.user, defaults={"language": language})
    return response
