"""E-mail about a match: a captain's dispute reaches the union's officials and the match's referee; captains
are reminded of a team sheet not yet in and a result not yet confirmed (:func:`captain_reminders`, beat).

:func:`result_disputed_notify` is called by :func:`matches.services.result_dispute` **inside** its
transaction; it writes :func:`result_disputed_email` to the transactional outbox, so nothing is sent for a
rolled-back dispute and nothing is lost to a broker outage. The task takes the dispute's id, re-reads the
database and is idempotent: it claims a :class:`~klawerjas_league.models.TaskReceipt` in the same transaction
as its sending, so a broker's second delivery sends nothing. SAKBOC 1.10: the referee's decision is final at
the table; a dispute of the result goes to the union's official, who settles it
(``matches.services.result_correct``).
"""

from __future__ import annotations

import datetime as dt
import socket

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from clubs.notifications import captain_emails, send_each
from clubs.selectors import person_name
from klawerjas_league.outbox import outbox_enqueue
from klawerjas_league.services import task_receipt_claim


def result_disputed_notify(*, dispute_id: int) -> None:
    """E-mail the union's officials and the match's referee and marker about dispute ``dispute_id`` (a
    :class:`matches.models.ResultDispute`): written to the outbox in the caller's transaction, sent after commit
    (``klawerjas_league.outbox``: a broker outage loses nothing)."""
    outbox_enqueue(task="matches.result_disputed_email", args=[dispute_id], key=f"dispute:{dispute_id}")


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
        return send_each(
            subject=f"Result disputed: {match.home} v {match.away}", template="matches/email/result_disputed.txt",
            context={"dispute": dispute, "match": match, "captain": person_name(dispute.raised_by, "a captain")},
            recipients=_recipients(dispute),
        )


# --- Reminders to captains (Celery beat, ``CELERY_BEAT_SCHEDULE["captain-reminders"]``) ---------------------

#: How long before the start a missing team sheet is chased, and after the end an unconfirmed result.
REMINDER_LEAD = dt.timedelta(hours=24)


def _remind(*, key: str, team, subject: str, template: str, context: dict) -> int:
    """Send one reminder to ``team``'s captain unless ``key`` was claimed before; return 1 if sent."""
    recipients = captain_emails([team])
    if not recipients:
        return 0
    with transaction.atomic():
        if not task_receipt_claim(key=key, task="matches.captain_reminders", worker=socket.gethostname()):
            return 0
        return send_each(subject=subject, template=template, context={**context, "team": team},
                         recipients=recipients)


@shared_task(name="matches.captain_reminders")
def captain_reminders(now_iso: str | None = None) -> int:
    """Remind captains, once each (a :class:`~klawerjas_league.models.TaskReceipt` per match, side and kind):
    a team sheet not yet submitted within 24 hours of the start (sheets are in before the toss, SAKBOC 1.3),
    and a provisional result their side has not confirmed 24 hours after the night ended. Beat runs it every
    15 minutes; running it twice sends nothing twice. :returns: the number of e-mails sent."""
    from django.db.models import Q

    from matches.models import Match, TeamSheet

    now = dt.datetime.fromisoformat(now_iso) if now_iso else timezone.now()
    sent = 0
    coming = (Match.objects.filter(phase=Match.Phase.SCHEDULED, scheduled_start__gt=now,
                                   scheduled_start__lte=now + REMINDER_LEAD)
              .select_related("competition", "home__captain__user", "away__captain__user"))
    sheets = set(TeamSheet.objects.filter(match__in=coming).values_list("match_id", "team_id"))
    for match in coming:
        for team in (match.home, match.away):
            if (match.pk, team.pk) in sheets:
                continue
            start = timezone.localtime(match.scheduled_start)
            sent += _remind(key=f"remind:sheet:{match.pk}:{team.pk}", team=team,
                            subject=f"Team sheet due: {match.home} v {match.away}, {start:%a %d %b %H:%M}",
                            template="matches/email/reminder_team_sheet.txt",
                            context={"match": match, "start": start})
    unconfirmed = (Match.objects.filter(result_status=Match.ResultStatus.PROVISIONAL,
                                        finished_at__lte=now - REMINDER_LEAD)
                   .filter(Q(home_confirmed_by__isnull=True) | Q(away_confirmed_by__isnull=True))
                   .exclude(disputes__settled_at__isnull=True, disputes__isnull=False)
                   .select_related("competition", "home__captain__user", "away__captain__user"))
    for match in unconfirmed:
        for team, confirmed in ((match.home, match.home_confirmed_by_id), (match.away, match.away_confirmed_by_id)):
            if confirmed is None:
                sent += _remind(key=f"remind:confirm:{match.pk}:{team.pk}", team=team,
                                subject=f"Result to confirm: {match.home} v {match.away}",
                                template="matches/email/reminder_result.txt", context={"match": match})
    return sent
