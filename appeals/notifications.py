"""E-mail about appeals (issue 22), each written to the outbox inside the service's transaction
(``plumbing.outbox``: nothing is sent for a rolled-back change, nothing lost to a broker that is down):

* :func:`appeal_lodged_notify`: the union's appeals committee hears of a new appeal.
* :func:`appeal_decided_notify`: both captains and the match's referee (and marker) hear the decision and its
  reasons.
* :func:`appeal_overdue_notify`: the committee is reminded, once, of an appeal past its decision deadline.

The tasks take the appeal's id, re-read the database and are idempotent: each claims a
:class:`~plumbing.models.TaskReceipt` in the same transaction as its sending, so a second delivery sends
nothing. Mail goes one message per recipient (``clubs.notifications.send_once``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from celery import shared_task
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.notifications import captain_emails, send_once
from clubs.selectors import person_name
from plumbing.outbox import outbox_enqueue

if TYPE_CHECKING:
    from django.db.models import QuerySet


def appeal_lodged_notify(*, appeal_id: int) -> None:
    outbox_enqueue(task="appeals.appeal_lodged_email", args=[appeal_id], key=f"appeal:{appeal_id}")


def appeal_decided_notify(*, appeal_id: int) -> None:
    outbox_enqueue(task="appeals.appeal_decided_email", args=[appeal_id], key=f"appeal:{appeal_id}")


def appeal_overdue_notify(*, appeal_id: int) -> None:
    outbox_enqueue(task="appeals.appeal_overdue_email", args=[appeal_id], key=f"appeal:{appeal_id}")


def committee_emails(union) -> list[str]:
    """The addresses of the union's appeals committee (every official of the union while none is named)."""
    from clubs.models import AppealsCommitteeMember, UnionOfficial

    links: QuerySet[AppealsCommitteeMember] | QuerySet[UnionOfficial] = (
        AppealsCommitteeMember.objects.filter(union=union).select_related("user"))
    if not links.exists():
        links = UnionOfficial.objects.filter(union=union).select_related("user")
    return sorted({link.user.email for link in links if link.user.email and link.user.is_active})


def _appeal(appeal_id: int):
    from appeals.models import Appeal

    return (Appeal.objects.select_related("match__competition__union", "match__home__captain__user",
                                          "match__away__captain__user", "match__referee", "match__marker", "team",
                                          "lodged_by", "ruling__claim__table")
            .filter(pk=appeal_id).first())


@shared_task(name="appeals.appeal_lodged_email")
def appeal_lodged_email(appeal_id: int) -> int:
    """E-mail the committee about a new appeal, once; return how many were sent."""
    appeal = _appeal(appeal_id)
    if appeal is None:
        return 0
    match = appeal.match
    return send_once(key=f"notify:appeal-lodged:{appeal_id}", task="appeals.appeal_lodged_email",
                     subject=lambda: _("Appeal lodged: %(home)s v %(away)s") % {"home": match.home,
                                                                                 "away": match.away},
                     template="appeals/email/lodged.txt",
                     context={"appeal": appeal, "match": match,
                              "captain": person_name(appeal.lodged_by) or gettext_lazy("a captain")},
                     recipients=committee_emails(match.competition.union))


@shared_task(name="appeals.appeal_decided_email")
def appeal_decided_email(appeal_id: int) -> int:
    """E-mail both captains and the match's referee and marker the decision, once; return how many were sent."""
    appeal = _appeal(appeal_id)
    if appeal is None:
        return 0
    match = appeal.match
    officials = {u.email for u in (match.referee, match.marker) if u is not None and u.email and u.is_active}
    return send_once(key=f"notify:appeal-decided:{appeal_id}", task="appeals.appeal_decided_email",
                     subject=lambda: _("Appeal %(status)s: %(home)s v %(away)s") % {
                         "status": appeal.get_status_display().lower(), "home": match.home, "away": match.away},
                     template="appeals/email/decided.txt", context={"appeal": appeal, "match": match},
                     recipients=sorted(set(captain_emails([match.home, match.away])) | officials))


@shared_task(name="appeals.appeal_overdue_email")
def appeal_overdue_email(appeal_id: int) -> int:
    """Remind the committee of an overdue appeal, once; return how many were sent."""
    appeal = _appeal(appeal_id)
    if appeal is None:
        return 0
    match = appeal.match
    return send_once(key=f"notify:appeal-overdue:{appeal_id}", task="appeals.appeal_overdue_email",
                     subject=lambda: _("Overdue appeal: %(home)s v %(away)s") % {"home": match.home,
                                                                                  "away": match.away},
                     template="appeals/email/overdue.txt",
                     context={"appeal": appeal, "match": match},
                     recipients=committee_emails(match.competition.union))
