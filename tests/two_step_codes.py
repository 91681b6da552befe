"""Two-step sign-in for tests: an authenticator app for a user, and the code it would show (RFC 6238, computed
with django-otp's own ``totp``, as the phone would)."""

from __future__ import annotations

from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.two_step import AUTHENTICATOR_NAME


def authenticator_for(user) -> TOTPDevice:
    """A confirmed authenticator app for ``user`` (no code used yet)."""
    return TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_NAME, confirmed=True)


def code_for(device: TOTPDevice, *, ahead: int = 0) -> str:
    """The 6-digit code ``device``'s app shows now, or ``ahead`` steps of 30 s later (a code used once is not taken
    again, so a second sign-in within the same 30 s uses the next one, which the site accepts too)."""
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift + ahead):06d}"


def code_from_secret(secret: str, *, ahead: int = 0) -> str:
    """The code for the secret a page shows to type into an app (base32, in groups)."""
    from base64 import b32decode

    key = b32decode(secret.replace(" ", "").upper())
    return f"{totp(key, 30, 0, 6, ahead):06d}"
