"""API sign-in with expiring, per-device, revocable tokens (django-rest-knox; issue 16).

Why django-rest-knox rather than DRF's own ``authtoken``: DRF keeps one key per user, stored in clear, that never
expires, survives a sign-out and a password change, and is handed out again to every sign-in. Knox, maintained
under the Jazzband umbrella, gives each sign-in (each device) a token of its own, keeps only a SHA-512 digest of
it, expires it (``API_TOKEN_TTL_HOURS``), and revokes one token or all of a user's.

* ``POST /api/auth/token/`` with ``username`` and ``password`` answers ``{"token": "…", "expiry": "…"}``, a new
  token every time; it is throttled like the site's sign-in (``accounts.sign_in``): 429 with ``{"detail":
  "Too many failed sign-ins from this address for this account; try again in N minutes."}`` once the account is
  locked from this address (the right password too, until then), or "… from this address; try again in N minutes."
  once the address has failed too many sign-ins;
* a user with two-step sign-in (``accounts.two_step``) sends the code too, as ``otp_token`` (6 digits from
  the authenticator app, or a recovery code): without it, or with a wrong one, 400 with ``{"otp_token": ["…"]}``
  saying which (and, after wrong codes, how many seconds to wait); someone of whom two-step sign-in is required
  and who has not set it up gets no token (403, ``detail``) until they have, on the site;
* ``POST /api/auth/logout/`` revokes the token it is sent with; ``POST /api/auth/logout-all/`` every token of
  the user;
* signing out of the site, and any change of a user's password, revoke all of that user's tokens
  (:func:`tokens_revoke_on_sign_out`, :func:`tokens_revoke_on_password_change`, wired in ``apps.py``).
"""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from knox.models import get_token_model
from knox.views import LoginView as KnoxLoginView
from knox.views import LogoutAllView, LogoutView
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.sign_in import account_locked_message, address_blocked_message, sign_in_address_blocked
from accounts.two_step import TwoStepCodeRefused, code_verify, two_step_on, two_step_required


class TokenSignInSerializer(AuthTokenSerializer):
    """The username and password, and for a user with two-step sign-in the code (``otp_token``)."""

    otp_token = serializers.CharField(
        required=False, allow_blank=True, write_only=True,
        help_text="The code from the user's authenticator app (6 digits), or one of their recovery codes; needed "
                  "when the user has two-step sign-in.",
    )


class TokenSignInView(KnoxLoginView):
    """Exchange a username and password for a new expiring token (one per device)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    serializer_class = TokenSignInSerializer

    @extend_schema(
        request=TokenSignInSerializer,
        responses={200: inline_serializer("TokenSignIn", {"token": serializers.CharField(),
                                                          "expiry": serializers.DateTimeField()})},
    )
    def post(self, request: Request, format: str | None = None) -> Response:  # noqa: A002 - DRF's signature
        """Check the credentials (and the two-step code), then answer a new token and when it expires. 400 when
        they are wrong, or the code is missing or wrong (``otp_token``); 403 when two-step sign-in is required of
        the user and not set up; 429, saying so plainly, when the account is locked from this address
        (django-axes) or the address has failed too many sign-ins."""
        if sign_in_address_blocked(request):
            return Response({"detail": address_blocked_message()}, status=429)
        serializer = TokenSignInSerializer(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            credentials = {"username": request.data.get("username") if hasattr(request.data, "get") else None}
            if AxesProxyHandler.is_locked(request, credentials):
                return Response({"detail": account_locked_message(request, credentials)}, status=429)
            raise
        user = serializer.validated_data["user"]
        if two_step_on(user=user):
            code = serializer.validated_data.get("otp_token") or ""
            if not code:
                raise ValidationError({"otp_token": [_("This account signs in with two steps: send the code from "
                                                       "the authenticator app (or a recovery code) as otp_token.")]})
            try:
                code_verify(user=user, code=code)
            except TwoStepCodeRefused as refused:
                raise ValidationError({"otp_token": [refused.message]}) from None
        elif two_step_required(user=user):
            return Response({"detail": _("Set up two-step sign-in on the site first (the “Two-step sign-in” "
                                         "page): it is required of you.")}, status=403)
        request.user = user
        return super().post(request, format=format)


class TokenSignOutView(LogoutView):
    """Revoke the token this request is sent with."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, format: str | None = None) -> Response:  # noqa: A002 - DRF's signature
        """Revoke the request's token; 204."""
        return super().post(request, format=format)


class TokenSignOutEverywhereView(LogoutAllView):
    """Revoke every token of the signed-in user."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, format: str | None = None) -> Response:  # noqa: A002 - DRF's signature
        """Revoke all the user's tokens; 204."""
        return super().post(request, format=format)


def tokens_revoke(*, user_id: int) -> int:
    """Delete every API token of the user. :returns: how many."""
    deleted, _ = get_token_model().objects.filter(user_id=user_id).delete()
    return deleted


def tokens_revoke_on_sign_out(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: signing out of the site revokes all the user's API tokens. (Knox's own API logout
    sends the signal too, with a DRF request, after revoking just its token: that one is left as it is.)"""
    if user is not None and not isinstance(request, Request):
        tokens_revoke(user_id=user.pk)


def tokens_revoke_on_password_change(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """``pre_save`` of the user model: a new password revokes all the user's API tokens (1 query per save of a
    user's password field; none when ``update_fields`` leaves the password out, as a sign-in's does)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        tokens_revoke(user_id=instance.pk)
