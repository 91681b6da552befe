"""E-mail about a match's result: a captain's dispute reaches the union's officials and the match's referee.

:func:`result_disputed_notify` is called by :func:`matches.services.result_dispute` **inside** its
transaction; it schedules :func:`result_disputed_email` with ``transaction.on_commit`` so nothing is sent for
a rolled-back dispute. The task takes the dispute's id, re-reads the database and is idempotent: it claims a
:class:`~klawerjas_league.models.TaskReceipt` in the same transaction as its sending, so a broker's second
delivery sends nothing. SAKBOC 1.10: the referee's decision is final at the table; a dispute of the result
goes to the union's official, who settles it (``matches.services.result_correct``).
"""

from __future__ import annotations

import socket

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.template.loader import render_to_string

from klawerjas_league.services import task_receipt_claim


def result_disputed_notify(*, dispute_id: int) -> None:
    """After commit, e-mail the union's officials and the match's referee and marker about dispute
    ``dispute_id`` (a :class:`matches.models.ResultDispute`)."""
    transaction.on_commit(lambda: result_disputed_email.delay(dispute_id))


def _recipients(dispute) -> list[str]:
    from clubs.models import UnionOfficial

    match = dispute.match
    users = [link.user for link in UnionOfficial.objects.filter(union_id=match.competition.union_id)
             .select_related("user")]
    users += [u for u in (match.referee, match.marker) if u is not None]
    return sorted({u.email for u in users if u.email and u.is_active})


@shared_task(name="matches.result_disputed_email")
def result_disputed_email(dispute_id: int) -> int:
    """Send the "result disputed" e-mail once per dispute, one message per recipient; return how many."""
    from matches.models import ResultDispute

    dispute = (
        ResultDispute.objects.select_related("match__competition__union", "match__home", "match__away",
                                             "match__referee", "match__marker", "team", "raised_by")
        .filter(pk=dispute_id).first()
    )
    if dispute is None:
        return 0
    with transaction.atomic():
        if not task_receipt_claim(key=f"notify:result-dispute:{dispute_id}", task="matches.result_disputed_email",
                                  worker=socket.gethostname()):
            return 0
        match = dispute.match
        body = render_to_string("matches/email/result_disputed.txt", {
            "dispute": dispute, "match": match,
            "captain": dispute.raised_by.get_full_name() or dispute.raised_by.get_username(),
        })
        messages = [
            EmailMessage(subject=f"Result disputed: {match.home} v {match.away}", body=body,
                         from_email=settings.DEFAULT_FROM_EMAIL, to=[address])
            for address in _recipients(dispute)
        ]
        return (mailers.default.send_messages(messages) or 0) if messages else 0
