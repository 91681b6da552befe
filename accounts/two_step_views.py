"""The two-step sign-in pages (issue 35; the rules are ``accounts.two_step``).

* ``/accounts/two-step/`` (``two-step``): whether it is on, the recovery codes left; set it up, make new recovery
  codes, move it to a new phone, turn it off;
* ``/accounts/two-step/set-up/`` (``two-step-set-up``): a QR code (or the secret to type) for the authenticator
  app, then its code; kept only when the code matches, then the recovery codes are shown, once;
* ``/accounts/two-step/recovery-codes/`` (``two-step-recovery-codes``, POST): new recovery codes, shown once;
* ``/accounts/two-step/turn-off/`` (``two-step-off``): the password and a code;
* ``/accounts/code/`` (``two-step-code``): the sign-in's second step (after the password), or a session's that
  has not given the code yet.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_otp.plugins.otp_static.models import StaticDevice

from accounts import two_step


class CodeForm(forms.Form):
    """A code from the authenticator app (6 digits) or, on the sign-in's second step, a recovery code."""

    code = forms.CharField(
        max_length=20, label=gettext_lazy("Code"), strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True,
                                      "autocapitalize": "off", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, recovery: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if recovery:
            self.fields["code"].label = _("Recovery code")
            self.fields["code"].widget.attrs.update(inputmode="text", autocomplete="off")


class TurnOffForm(forms.Form):
    """The password and a code (from the app, or a recovery code), to turn two-step sign-in off."""

    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    code = forms.CharField(max_length=20, label=gettext_lazy("A code from your app, or a recovery code"),
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "off"}))


def _next_url(request: HttpRequest, candidate: str | None) -> str:
    """``candidate`` if it is a safe address on this site, else where signing in leads (``LOGIN_REDIRECT_URL``)."""
    if candidate and url_has_allowed_host_and_scheme(candidate, allowed_hosts={request.get_host()},
                                                     require_https=request.is_secure()):
        return candidate
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def _codes_page(request: HttpRequest, codes: list[str], *, next_url: str) -> HttpResponse:
    """The recovery codes, shown this once, to download, print or write down."""
    text = "\n".join([_("Recovery codes for %(user)s at klawerjas-league. Each works once.")
                      % {"user": request.user.get_username()}, "", *codes, ""])
    return render(request, "registration/two_step_recovery_codes.html",
                  {"codes": codes, "codes_text": text, "next_url": next_url})


@login_required
@require_http_methods(["GET"])
def two_step_home(request: HttpRequest) -> HttpResponse:
    """Whether two-step sign-in is on, and what can be done about it."""
    user = request.user
    device = two_step.authenticator_of(user=user)
    return render(request, "registration/two_step.html", {
        "device": device,
        "codes_left": two_step.recovery_codes_left(user=user) if device else 0,
        "required": two_step.two_step_required(user=user),
        "verified": two_step.verified(user),
    })


@login_required
@require_http_methods(["GET", "POST"])
def two_step_set_up(request: HttpRequest) -> HttpResponse:
    """Set up (or move to a new phone) the authenticator app: scan the QR code or type the secret, then type the
    app's code; the secret is kept only then, and the recovery codes are shown. Someone who has two-step already
    gives their code first (the middleware sends them to it)."""
    user = request.user
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if two_step.two_step_on(user=user) and not two_step.verified(user):
        return redirect("two-step-code")
    key = request.session.get(two_step.NEW_KEY_SESSION_KEY)
    if not key:
        key = request.session[two_step.NEW_KEY_SESSION_KEY] = two_step.authenticator_key_new()
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device, codes = two_step.authenticator_confirm(user=user, key=key, code=form.cleaned_data["code"])
        except ValidationError as error:
            form.add_error("code", error)
        else:
            del request.session[two_step.NEW_KEY_SESSION_KEY]
            two_step.sign_in_complete(request, user=user, device=device)
            messages.success(request, _("Two-step sign-in is on. From now on you sign in with your password and a "
                                        "code from your app."))
            return _codes_page(request, codes, next_url=_next_url(request, next_url))
    url = two_step.authenticator_config_url(user=user, key=key)
    return render(request, "registration/two_step_set_up.html", {
        "form": form, "qr_svg": mark_safe(two_step.authenticator_qr_svg(url)),  # noqa: S308 - segno's own SVG
        "secret": two_step.authenticator_secret_display(key), "next_url": next_url,
        "required": two_step.two_step_required(user=user), "replacing": two_step.two_step_on(user=user),
    })


@login_required
@require_POST
def two_step_recovery_codes(request: HttpRequest) -> HttpResponse:
    """New recovery codes (the old ones stop working), shown once; for a session that gave its code."""
    if not (two_step.verified(request.user) and two_step.two_step_on(user=request.user)):
        return redirect("two-step")
    codes = two_step.recovery_codes_new(user=request.user)
    messages.success(request, _("New recovery codes made: the old ones no longer work."))
    return _codes_page(request, codes, next_url=resolve_url("two-step"))


@login_required
@require_http_methods(["GET", "POST"])
def two_step_off(request: HttpRequest) -> HttpResponse:
    """Turn two-step sign-in off, with the password and a code; refused while it is required."""
    user = request.user
    if not (two_step.verified(user) and two_step.two_step_on(user=user)):
        return redirect("two-step")
    form = TurnOffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            two_step.two_step_turn_off(user=user, password=form.cleaned_data["password"],
                                       code=form.cleaned_data["code"])
        except ValidationError as error:
            form.add_error(None, error)
        except two_step.TwoStepCodeRefused as refused:
            form.add_error("code", refused.message)
        else:
            messages.success(request, _("Two-step sign-in is off: you sign in with your password only."))
            return redirect("two-step")
    return render(request, "registration/two_step_off.html",
                  {"form": form, "required": two_step.two_step_required(user=user)})


@require_http_methods(["GET", "POST"])
def two_step_code(request: HttpRequest) -> HttpResponse:
    """The sign-in's second step: the code from the authenticator app, or a recovery code (``?recovery=1``), after
    the password (or for a signed-in session that has not given it). Wrong codes wait longer and longer, and say
    so; a recovery code works once."""
    pending = two_step.sign_in_pending(request)
    if pending is not None:
        user, next_url = pending
    elif (request.user.is_authenticated and not two_step.verified(request.user)
          and two_step.two_step_on(user=request.user)):
        user, next_url = request.user, request.POST.get("next") or request.GET.get("next") or ""
    elif request.user.is_authenticated:
        return redirect(_next_url(request, request.GET.get("next")))
    else:
        messages.info(request, _("Sign in again: the code must follow the password within a few minutes."))
        return redirect("login")
    recovery = bool(request.POST.get("recovery") or request.GET.get("recovery"))
    form = CodeForm(request.POST or None, recovery=recovery)
    if request.method == "POST" and form.is_valid():
        try:
            device = two_step.code_verify(user=user, code=form.cleaned_data["code"])
        except two_step.TwoStepCodeRefused as refused:
            form.add_error("code", refused.message)
        else:
            two_step.sign_in_complete(request, user=user, device=device)
            if isinstance(device, StaticDevice):
                left = two_step.recovery_codes_left(user=user)
                messages.warning(request, ngettext(
                    "You signed in with a recovery code; it will not work again. %(left)d recovery code is left: "
                    "make new ones on the two-step sign-in page.",
                    "You signed in with a recovery code; it will not work again. %(left)d recovery codes are left: "
                    "make new ones on the two-step sign-in page.", left) % {"left": left})
            return redirect(_next_url(request, next_url))
    return render(request, "registration/two_step_code.html",
                  {"form": form, "recovery": recovery, "next_url": next_url, "pending": pending is not None})
