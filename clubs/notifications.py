"""E-mail to a team's captain: who is reached, and sending one message per address.

The registry knows who captains a team (``Team.captain.user.email``); what the e-mail says is the caller's.
:func:`captain_emails` gives the addresses of the teams' captains (a team without one, or with an inactive or
address-less account, is skipped); :func:`send_each` sends one message per address through
``settings.MAILERS`` (the console by default), so captains do not see each other's addresses;
:func:`send_once` does so once per receipt key (a task delivered twice sends nothing the second time). The match
e-mails that use them (a fixture scheduled, a ruling, standings published, a dispute, reminders) are
:mod:`matches.notifications`'.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from django.conf import settings
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from plumbing.i18n import address_language
from plumbing.services import task_receipt_claim

#: A subject: text, or a function giving it, called in the recipient's language (so it can ``gettext``).
Subject = str | Callable[[], str]


def captain_emails(teams) -> list[str]:
    """The e-mail addresses of ``teams``' captains (an iterable of :class:`~clubs.models.Team` with
    ``captain__user`` loaded), sorted and without repeats; teams whose captain has no active account with an
    address are skipped."""
    emails = []
    for team in teams:
        captain = team.captain
        user = captain.user if captain is not None else None
        if user is not None and user.email and user.is_active:
            emails.append(user.email)
    return sorted(set(emails))


def send_each(*, subject: Subject, template: str, context: dict, recipients: list[str]) -> int:
    """Send one message per recipient (captains do not see each other's addresses); return how many.

    Each message is written in its recipient's language (:func:`plumbing.i18n.address_language`):
    ``template`` is rendered, and ``subject`` called when it is a function, under
    ``translation.override`` of that language, once per language.
    """
    rendered: dict[str, tuple[str, str]] = {}
    messages = []
    for address in recipients:
        language = address_language(address)
        if language not in rendered:
            with translation.override(language):
                text = subject() if callable(subject) else str(subject)
                # One line: a name holding a line break (typed before names were checked) must not make the
                # message fail, and its task retry, for ever (Django refuses a header with a newline).
                text = " ".join(text.split())
                rendered[language] = (text, render_to_string(template, context))
        text, body = rendered[language]
        messages.append(EmailMessage(subject=text, body=body, from_email=settings.DEFAULT_FROM_EMAIL,
                                     to=[address]))
    if not messages:
        return 0
    return mailers.default.send_messages(messages) or 0


def send_once(*, key: str, task: str, subject: Subject, template: str, context: dict, recipients: list[str]) -> int:
    """Claim the receipt ``key`` and send one message per recipient in one transaction; send nothing when
    ``key`` was claimed before (a broker's second delivery, a beat run twice). :returns: how many were sent."""
    with transaction.atomic():
        if not task_receipt_claim(key=key, task=task, worker=socket.gethostname()):
            return 0
        return send_each(subject=subject, template=template, context=context, recipients=recipients)
