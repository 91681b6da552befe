"""E-mail to a team's captain: who is reached, and sending one message per address.

The registry knows who captains a team (``Team.captain.user.email``); what the e-mail says is the caller's.
:func:`captain_emails` gives the addresses of the teams' captains (a team without one, or with an inactive or
address-less account, is skipped); :func:`send_each` sends one message per address through
``settings.MAILERS`` (the console by default), so captains do not see each other's addresses. The match
e-mails that use them (a fixture scheduled, a ruling, standings published, a dispute, reminders) are
:mod:`matches.notifications`'.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage, mailers
from django.template.loader import render_to_string


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


def send_each(*, subject: str, template: str, context: dict, recipients: list[str]) -> int:
    """Send one message per recipient (captains do not see each other's addresses); return how many."""
    body = render_to_string(template, context)
    messages = [
        EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[address])
        for address in recipients
    ]
    if not messages:
        return 0
    return mailers.default.send_messages(messages) or 0
