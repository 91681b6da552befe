"""Two-step sign-in: the password, then a code from an authenticator app (issue 35), on django-otp.

Why django-otp: maintained in the Django community (jazzband, since 2012), it keeps devices as models with the
TOTP authenticator (``otp_totp``) and one-time recovery codes (``otp_static``) as plugins, throttles wrong codes
itself, and is what django-two-factor-auth is built on. It has no pages of its own; ours are
``accounts.two_step_views``.

* **Turning it on** (:func:`authenticator_confirm`): the user's app is given a new secret (a QR code or typed), and
  the secret is kept only once the app's code matches it; then :data:`RECOVERY_CODES` recovery codes are made
  (:func:`recovery_codes_new`), shown once. Each works once, in place of a code (a lost phone).
* **Signing in** (``accounts.sign_in.SignInView``): a user with an authenticator (:func:`two_step_on`) is
  not signed in by the password: the session only remembers them for ``TWO_STEP_PENDING_SECONDS``
  (:func:`sign_in_pending_start`) until a code (:func:`code_verify`) signs them in, verified (django-otp's
  ``login(request, device)``; ``request.user.is_verified()``).
* **Wrong codes** wait 1, 2, 4, 8 … seconds before the next try (django-otp's throttling of each device), said
  plainly (:class:`TwoStepCodeRefused`).
* **Required** (:func:`two_step_required`): for the officials and referees of a union whose setting
  ``Union.two_step_required`` is on (any union of theirs; POPIA s19, security safeguards), and for the site's
  administrators (superusers and staff) when ``ADMIN_TWO_STEP_REQUIRED`` is on. :class:`TwoStepMiddleware` sends
  such a user without an authenticator to set one up, and lets them reach nothing else until they have; it sends a
  session without the code of anyone who has two-step to the code page (a session older than the authenticator).
  :class:`TwoStepAdminSite` asks for a verified session on ``/admin/``.
* **Turning it off** (:func:`two_step_turn_off`): the password and a code; refused while it is required.

The middleware reads :func:`two_step_status`, kept in the cache for :data:`STATUS_SECONDS` and forgotten when the
user's authenticator, roles or union's setting change (:func:`two_step_signals_connect`), so a page costs no query
for it; the sign-in, the token endpoint and turning it off read the database.
"""

from __future__ import annotations

import re
import time
from base64 import b32encode
from binascii import unhexlify
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import ceil
from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.contrib.admin import AdminSite
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp import login as otp_login
from django_otp.admin import OTPAdminSite
from django_otp.models import Device
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

from clubs.models import Union, UnionOfficial, UnionReferee


def verified(user: Any) -> bool:
    """Whether ``user`` (``request.user``) gave their two-step code in this session: django-otp's middleware gives
    every request's user ``is_verified()``, which the stubs of Django's ``User`` do not know."""
    return bool(user.is_verified())


#: How many recovery codes a user is given at a time.
RECOVERY_CODES = 10
#: How long the middleware keeps a user's :class:`TwoStepStatus` (seconds) when nothing forgets it sooner.
STATUS_SECONDS = 60
AUTHENTICATOR_NAME = "Authenticator app"
RECOVERY_NAME = "Recovery codes"
PENDING_SESSION_KEY = "two_step_pending"
NEW_KEY_SESSION_KEY = "two_step_new_key"
#: Pages anyone signed in may reach without the code: signing in and out, the language, health.
OPEN_URL_NAMES = frozenset({"login", "logout", "set_language", "healthz", "two-step-code"})
#: And those a user who must set two-step up may reach: its pages.
SET_UP_URL_NAMES = OPEN_URL_NAMES | {"two-step", "two-step-set-up"}


class TwoStepCodeRefused(ValueError):
    """A code was refused. ``message`` says why, plainly; ``seconds`` is the wait before the next try (0: none)."""

    def __init__(self, message: str, *, seconds: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.seconds = seconds


@dataclass(frozen=True)
class TwoStepStatus:
    """Whether a user has two-step sign-in (``on``: a confirmed authenticator) and whether it is ``required``."""

    on: bool
    required: bool


# --- Selectors ---------------------------------------------------------------------------------------------------


def _admin_required(user: Any) -> bool:
    return bool(settings.ADMIN_TWO_STEP_REQUIRED and (user.is_superuser or user.is_staff))


def _union_links_requiring(user_ref: Any) -> tuple[Exists, Exists]:
    """Whether ``user_ref`` (a user's id, or ``OuterRef``) officiates, and referees for, a union whose
    ``two_step_required`` is on."""
    return (Exists(UnionOfficial.objects.filter(user=user_ref, union__two_step_required=True)),
            Exists(UnionReferee.objects.filter(user=user_ref, union__two_step_required=True)))


def two_step_on(*, user: Any) -> bool:
    """Whether ``user`` has two-step sign-in: a confirmed authenticator app (1 query)."""
    return bool(user.is_authenticated) and TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def two_step_required(*, user: Any) -> bool:
    """Whether ``user`` must use two-step sign-in: an official or referee of a union whose ``two_step_required`` is
    on (POPIA s19 security safeguards; any of their unions), or a superuser or staff member while
    ``ADMIN_TWO_STEP_REQUIRED`` is on (at most 1 query)."""
    if not user.is_authenticated:
        return False
    if _admin_required(user):
        return True
    official, referee = _union_links_requiring(user.pk)
    return get_user_model().objects.filter(Q(official) | Q(referee), pk=user.pk).exists()


def _status_key(user_id: int) -> str:
    return f"two-step-status:{user_id}"


def two_step_status(user: Any) -> TwoStepStatus:
    """:class:`TwoStepStatus` of a signed-in ``user``, from the cache (kept :data:`STATUS_SECONDS`), else 1 query."""
    key = _status_key(user.pk)
    kept = cache.get(key)
    if kept is not None:
        on, union_required = kept
    else:
        official, referee = _union_links_requiring(OuterRef("pk"))
        row = (get_user_model().objects.filter(pk=user.pk)
               .annotate(on=Exists(TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True)),
                         official=official, referee=referee)
               .values_list("on", "official", "referee").first()) or (False, False, False)
        on, union_required = bool(row[0]), bool(row[1] or row[2])
        cache.set(key, (on, union_required), STATUS_SECONDS)
    return TwoStepStatus(on=on, required=union_required or _admin_required(user))


def two_step_status_forget(user_ids: Iterable[int]) -> None:
    """Drop the kept :func:`two_step_status` of these users (their next request reads the database)."""
    keys = [_status_key(user_id) for user_id in user_ids if user_id is not None]
    if keys:
        cache.delete_many(keys)


def recovery_codes_left(*, user: Any) -> int:
    """How many of ``user``'s recovery codes are still unused (1 query)."""
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def authenticator_of(*, user: Any) -> TOTPDevice | None:
    """``user``'s confirmed authenticator app, or ``None``."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("-pk").first()


# --- The authenticator's secret ------------------------------------------------------------------------------


def authenticator_key_new() -> str:
    """A new secret for an authenticator app: 20 random bytes, hex (as ``TOTPDevice.key`` keeps it)."""
    return random_hex(20)


def authenticator_secret_display(key: str) -> str:
    """The secret as an app asks it to be typed: base32, in groups of four (``"ABCD EFGH …"``)."""
    secret = b32encode(unhexlify(key)).decode()
    return " ".join(secret[i:i + 4] for i in range(0, len(secret), 4))


def authenticator_config_url(*, user: Any, key: str) -> str:
    """The ``otpauth://totp/…`` link an app reads from the QR code (issuer ``OTP_TOTP_ISSUER``, the username)."""
    return TOTPDevice(user=user, key=key).config_url


def authenticator_qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno; no inline styles, so the site's CSP holds)."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d2a22", title=_("QR code for your authenticator app"))


def _code_clean(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").lower()


def _totp_match(*, key: str, code: str, tolerance: int = 1) -> TOTP | None:
    """The TOTP whose code ``code`` is, for ``key`` now (give or take ``tolerance`` steps of 30 s), or ``None``."""
    if not (code.isdigit() and len(code) == 6):
        return None
    totp = TOTP(unhexlify(key), 30, 0, 6, 0)
    totp.time = time.time()
    return totp if totp.verify(int(code), tolerance) else None


# --- Services --------------------------------------------------------------------------------------------------


@transaction.atomic
def authenticator_confirm(*, user: Any, key: str, code: str) -> tuple[TOTPDevice, list[str]]:
    """Keep ``key`` as ``user``'s authenticator once ``code`` is its code now, replacing any earlier authenticator,
    and give new recovery codes. :returns: the device and the :data:`RECOVERY_CODES` codes (shown once).

    :raises ValidationError: the code is not the app's code now (nothing is kept).
    """
    totp = _totp_match(key=key, code=_code_clean(code))
    if totp is None:
        raise ValidationError(_("That code does not match. Type the 6 digits your app shows for this site now."))
    TOTPDevice.objects.filter(user=user).delete()
    # last_t: the code that confirmed it is used; signing in asks for a later one.
    device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, key=key, confirmed=True,
                                       last_t=totp.t(), drift=totp.drift)
    return device, recovery_codes_new(user=user)


@transaction.atomic
def recovery_codes_new(*, user: Any) -> list[str]:
    """Replace ``user``'s recovery codes with :data:`RECOVERY_CODES` new ones (each works once; the old ones stop
    working). :returns: the codes, to show once."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes: list[str] = []
    while len(codes) < RECOVERY_CODES:
        token = StaticToken.random_token()
        if token not in codes:
            codes.append(token)
    StaticToken.objects.bulk_create([StaticToken(device=device, token=token) for token in codes])
    return codes


def _wait_message(seconds: int) -> str:
    return ngettext("Too many wrong codes: wait %(seconds)d second, then try again.",
                    "Too many wrong codes: wait %(seconds)d seconds, then try again.", seconds) % {"seconds": seconds}


def code_verify(*, user: Any, code: str) -> Device:
    """The device that accepts ``code`` for ``user``: 6 digits are tried on the authenticator app, anything else as a
    recovery code (which is then used up). A wrong code makes the device wait before the next try: 1, 2, 4 …
    seconds (django-otp's throttling). :returns: the device (a ``TOTPDevice`` or a ``StaticDevice``).

    :raises TwoStepCodeRefused: the code is wrong, or it came before the wait was over (saying how long is left).
    """
    cleaned = _code_clean(code)
    if not cleaned:
        raise TwoStepCodeRefused(_("Type the code from your authenticator app."))
    model = TOTPDevice if cleaned.isdigit() and len(cleaned) == 6 else StaticDevice
    verified: Device | None = None
    wait_until = None
    with transaction.atomic():  # the throttling's counts are written whatever the outcome: raise after
        for device in model.objects.filter(user=user, confirmed=True).select_for_update():
            allowed, data = device.verify_is_allowed()
            if not allowed:
                locked_until = (data or {}).get("locked_until")
                wait_until = max(wait_until, locked_until) if wait_until and locked_until else locked_until
                continue
            if device.verify_token(cleaned):
                verified = device
                break
    if verified is not None:
        return verified
    if wait_until is not None:
        seconds = max(1, ceil((wait_until - timezone.now()).total_seconds()))
        raise TwoStepCodeRefused(_wait_message(seconds), seconds=seconds)
    if model is StaticDevice:
        raise TwoStepCodeRefused(_("That recovery code is not right, or it has been used already."))
    raise TwoStepCodeRefused(_("That code is not right. Codes change every 30 seconds: type the one your app "
                               "shows now."))


@transaction.atomic
def two_step_turn_off(*, user: Any, password: str, code: str) -> None:
    """Turn ``user``'s two-step sign-in off: their authenticator and recovery codes are deleted.

    :raises ValidationError: it is required of them (:func:`two_step_required`), or the password is wrong.
    :raises TwoStepCodeRefused: the code is wrong (:func:`code_verify`).
    """
    if two_step_required(user=user):
        raise ValidationError(_("Your union asks its officials and referees to sign in with two steps, so it cannot "
                                "be turned off. To move it to a new phone, set up the authenticator app again."))
    if not user.check_password(password):
        raise ValidationError({"password": _("That is not your password.")})
    code_verify(user=user, code=code)
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


# --- Signing in with the code --------------------------------------------------------------------------------------


def sign_in_pending_start(request: HttpRequest, *, user: Any, next_url: str) -> None:
    """Remember, in the (anonymous) session, that ``user`` gave the right password and where they were going; the
    code must follow within ``TWO_STEP_PENDING_SECONDS``."""
    request.session[PENDING_SESSION_KEY] = {"user": user.pk, "backend": getattr(user, "backend", ""),
                                            "at": time.time(), "next": next_url}


def sign_in_pending(request: HttpRequest) -> tuple[Any, str] | None:
    """The user waiting to give their code and where they were going, or ``None`` (none, or too late: forgotten)."""
    pending = request.session.get(PENDING_SESSION_KEY)
    if not isinstance(pending, dict):
        return None
    if time.time() - float(pending.get("at", 0)) > settings.TWO_STEP_PENDING_SECONDS:
        del request.session[PENDING_SESSION_KEY]
        return None
    user_id = pending.get("user")
    if not isinstance(user_id, int | str):
        return None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return None
    user.backend = pending.get("backend") or settings.AUTHENTICATION_BACKENDS[-1]
    return user, str(pending.get("next") or "")


def sign_in_complete(request: HttpRequest, *, user: Any, device: Device) -> None:
    """Sign ``user`` in (Django's login: a new session key, ``user_logged_in``) and mark the session verified by
    ``device`` (django-otp's ``login``)."""
    request.session.pop(PENDING_SESSION_KEY, None)
    if request.user.is_authenticated and request.user.pk == user.pk:
        otp_login(request, device)
        return
    auth_login(request, user, backend=user.backend)
    otp_login(request, device)


# --- The site's rule, on every page -------------------------------------------------------------------------------


def _refusal(request: HttpRequest, *, url_name: str, message: str) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": message}, status=403)
    target = reverse(url_name)
    if request.method == "GET":
        target += "?" + urlencode({"next": request.get_full_path()})
    return redirect(target)


class TwoStepMiddleware:
    """After ``OTPMiddleware``: a signed-in session without the code reaches only the open pages
    (:data:`OPEN_URL_NAMES`) when its user has two-step sign-in (sent to the code page), or only those and the
    two-step pages (:data:`SET_UP_URL_NAMES`) when it is required of them and they have none yet (sent to set it
    up). The API answers 403 saying so. Anonymous requests and verified sessions cost nothing here."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on (the rule is applied in :meth:`process_view`, where the URL's name is known)."""
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any,
                     view_kwargs: Any) -> HttpResponse | None:
        """Send the session to the code page or the set-up page, or let it through."""
        match = request.resolver_match
        url_name = match.url_name if match is not None and not match.namespace else None
        if url_name in OPEN_URL_NAMES:
            return None
        user = request.user
        if not user.is_authenticated or verified(user):
            return None
        status = two_step_status(user)
        if status.on:
            return _refusal(request, url_name="two-step-code",
                            message=_("Type the code from your authenticator app first (two-step sign-in)."))
        if status.required and url_name not in SET_UP_URL_NAMES:
            return _refusal(request, url_name="two-step-set-up",
                            message=_("Set up two-step sign-in first: your union requires it."))
        return None


class TwoStepAdminSite(OTPAdminSite):
    """The default admin site: while ``ADMIN_TWO_STEP_REQUIRED`` is on, only a session verified by a code reaches
    it (django-otp's ``OTPAdminSite``); its sign-in is the site's own (password, then the code)."""

    def __init__(self, name: str = "admin") -> None:
        super().__init__(name)

    def has_permission(self, request: HttpRequest) -> bool:
        """Active staff, and (``ADMIN_TWO_STEP_REQUIRED``) verified by a code."""
        if settings.ADMIN_TWO_STEP_REQUIRED:
            return super().has_permission(request)
        return AdminSite.has_permission(self, request)

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """The site's sign-in page, coming back to the admin; someone signed in but not allowed sees Django's
        "not authorised" page."""
        if request.user.is_authenticated:
            return AdminSite.login(self, request, extra_context)
        return redirect_to_login(request.GET.get("next") or reverse("admin:index"))


def _forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    two_step_status_forget([instance.user_id])


def _forget_union(sender: Any, instance: Union, **kwargs: Any) -> None:
    users = set(UnionOfficial.objects.filter(union=instance).values_list("user_id", flat=True))
    users |= set(UnionReferee.objects.filter(union=instance).values_list("user_id", flat=True))
    two_step_status_forget(users)


def two_step_signals_connect() -> None:
    """Forget a user's kept :func:`two_step_status` when their authenticator or role links change, and all of a
    union's officials' and referees' when the union is saved (its setting). Called by ``AppConfig.ready``."""
    for model in (TOTPDevice, UnionOfficial, UnionReferee):
        post_save.connect(_forget_user, sender=model, dispatch_uid=f"two-step-forget-save-{model.__name__}")
        post_delete.connect(_forget_user, sender=model, dispatch_uid=f"two-step-forget-delete-{model.__name__}")
    post_save.connect(_forget_union, sender=Union, dispatch_uid="two-step-forget-union")
