"""The reader's language, where no request tells it: e-mail and other messages rendered for one person.

A page takes its language from the request (``LocaleMiddleware``: the session's AF/EN choice, else the
browser's Accept-Language). An e-mail is written in its **recipient's** language instead:
:func:`user_language` gives a user's language and :func:`address_language` a recipient address's; the
senders (``clubs.notifications.send_each``, the password e-mails) render each message under
``django.utils.translation.override`` of it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation

from plumbing.models import UserLanguage


def user_language(user: Any) -> str:
    """The language code (one of ``settings.LANGUAGES``, e.g. ``"af"`` or ``"en-za"``) ``user`` reads in.

    The choice is the one the user made with the AF/EN switch (or the language they first signed in with), stored
    as :class:`plumbing.models.UserLanguage` (``user.language_choice``): one query, none when the caller
    loaded it with ``select_related("language_choice")``.

    :param user: a ``User``, an ``AnonymousUser`` or ``None``.
    :returns: the user's stored choice when there is one, else ``settings.LANGUAGE_CODE`` (English).
    """
    if user is None or not getattr(user, "pk", None):
        return settings.LANGUAGE_CODE
    try:
        preference = user.language_choice.language
    except UserLanguage.DoesNotExist:
        return settings.LANGUAGE_CODE
    codes = {code for code, _name in settings.LANGUAGES}
    return preference if preference in codes else settings.LANGUAGE_CODE


def address_language(address: str) -> str:
    """The language to write to e-mail ``address`` in: its active account's (:func:`user_language`), else
    ``settings.LANGUAGE_CODE``. When several accounts share the address, the first one by id decides. One query."""
    user = (get_user_model().objects.filter(email__iexact=address, is_active=True).select_related("language_choice")
            .order_by("pk").first() if address else None)
    return user_language(user)


class RecipientLanguagePasswordResetForm(PasswordResetForm):
    """Django's password-reset form whose e-mail (subject and body) is written in the account holder's language
    (:func:`user_language`), not the language of whoever asked for it: the reset page and the referee's welcome
    (``matches.views.union_referees``) send through it."""

    def send_mail(self, subject_template_name: str, email_template_name: str, context: dict[str, Any],
                  from_email: str | None, to_email: str, html_email_template_name: str | None = None) -> None:
        """Send as Django does, under ``translation.override`` of ``context["user"]``'s language."""
        with translation.override(user_language(context.get("user"))):
            super().send_mail(subject_template_name, email_template_name, context, from_email, to_email,
                              html_email_template_name)
