"""E-mail to captains: a fixture scheduled, a ruling that concerns their team, standings published.

Three entry points, each called by a service (or the referee console) **inside** its transaction; each
writes its Celery task to the outbox (:func:`klawerjas_league.outbox.outbox_enqueue`) in that transaction, so
nothing is sent for a rolled-back change, and nothing is lost to a broker that is down when it commits:

* :func:`fixture_scheduled_notify` ``(*, match_id)`` — both captains of the match.
* :func:`ruling_notify` ``(*, ruling_id, match_id, team_ids, summary)`` — the captains of ``team_ids``
  (R's referee console calls it when a ruling is recorded; docs/api.md documents it).
* :func:`standings_published_notify` ``(*, snapshot_id)`` — the captains of every team in the competition.

The tasks take ids, re-read the database and are idempotent: each claims a
:class:`~klawerjas_league.models.TaskReceipt` (``task_receipt_claim``) in the same transaction as its
sending, so a broker's second delivery sends nothing. A rescheduled fixture is a new key (the start time is
part of it), so captains hear about the new date. Mail goes through ``settings.MAILERS`` (the console by
default). A captain is reached through ``Team.captain.user.email``; a team without one is skipped.
"""

from __future__ import annotations

import socket

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from klawerjas_league.outbox import outbox_enqueue
from klawerjas_league.services import task_receipt_claim


def captain_emails(teams) -> list[str]:
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


# --- Entry points (call inside the service's transaction) -----------------------------------------------


def fixture_scheduled_notify(*, match_id: int) -> None:
    """Once the transaction commits, e-mail both captains that match ``match_id`` is scheduled (or moved)."""
    outbox_enqueue(task="clubs.fixture_scheduled_email", args=[match_id], key=f"match:{match_id}")


def ruling_notify(*, ruling_id: int | str, match_id: int, team_ids: list[int], summary: str) -> None:
    """Once the transaction commits, e-mail the captains of ``team_ids`` that a referee's ruling concerns their team.

    :param ruling_id: the ruling's id (the idempotency key: one e-mail per ruling and team).
    :param match_id: the match the ruling was made in.
    :param team_ids: the teams concerned (usually the claimant's and the accused's).
    :param summary: one or two plain sentences, e.g. "Straf upheld at table 2: revoke (SAKBOC 3.3); 4 points
        to Athlone A." It is sent as written.
    """
    outbox_enqueue(task="clubs.ruling_email", args=[str(ruling_id), match_id, list(team_ids), summary],
                   key=f"match:{match_id}")


def standings_published_notify(*, snapshot_id: int) -> None:
    """Once the transaction commits, e-mail every captain in the competition that standings ``snapshot_id``
    are published."""
    outbox_enqueue(task="clubs.standings_published_email", args=[snapshot_id], key=f"snapshot:{snapshot_id}")


# --- Tasks -------------------------------------------------------------------------------------------------


@shared_task(name="clubs.fixture_scheduled_email")
def fixture_scheduled_email(match_id: int) -> int:
    """Send the "fixture scheduled" e-mail once per match and start time; return the number sent."""
    from matches.models import Match

    match = (
        Match.objects.select_related("competition", "home__captain__user", "away__captain__user")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return 0
    key = f"notify:fixture:{match_id}:{match.scheduled_start.isoformat()}"
    with transaction.atomic():
        if not task_receipt_claim(key=key, task="clubs.fixture_scheduled_email", worker=socket.gethostname()):
            return 0
        start = timezone.localtime(match.scheduled_start)
        return send_each(
            subject=f"Fixture: {match.home} v {match.away}, {start:%a %d %b %Y %H:%M}",
            template="clubs/email/fixture_scheduled.txt",
            context={"match": match, "start": start},
            recipients=captain_emails([match.home, match.away]),
        )


@shared_task(name="clubs.ruling_email")
def ruling_email(ruling_id: str, match_id: int, team_ids: list[int], summary: str) -> int:
    """Send the "ruling" e-mail once per ruling; return the number sent."""
    from clubs.models import Team
    from matches.models import Match

    match = Match.objects.select_related("competition").filter(pk=match_id).first()
    if match is None:
        return 0
    # Only the two sides of the match: a stale or mistaken id never mails an unrelated captain.
    teams = Team.objects.select_related("captain__user").filter(
        pk__in=[t for t in team_ids if t in (match.home_id, match.away_id)]
    )
    with transaction.atomic():
        if not task_receipt_claim(key=f"notify:ruling:{ruling_id}", task="clubs.ruling_email",
                                  worker=socket.gethostname()):
            return 0
        return send_each(
            subject=f"Referee's ruling: {match.home} v {match.away}",
            template="clubs/email/ruling.txt",
            context={"match": match, "summary": summary},
            recipients=captain_emails(teams),
        )


@shared_task(name="clubs.standings_published_email")
def standings_published_email(snapshot_id: int) -> int:
    """Send the "standings published" e-mail once per snapshot; return the number sent."""
    from clubs.models import Team
    from matches.models import StandingsSnapshot

    snapshot = StandingsSnapshot.objects.select_related("competition").filter(pk=snapshot_id).first()
    if snapshot is None:
        return 0
    teams = Team.objects.select_related("captain__user").filter(competition_id=snapshot.competition_id)
    with transaction.atomic():
        if not task_receipt_claim(key=f"notify:standings:{snapshot_id}", task="clubs.standings_published_email",
                                  worker=socket.gethostname()):
            return 0
        return send_each(
            subject=f"Standings published: {snapshot.title}",
            template="clubs/email/standings_published.txt",
            context={"snapshot": snapshot, "competition": snapshot.competition, "rows": snapshot.rows},
            recipients=captain_emails(teams),
        )
