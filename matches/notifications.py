"""E-mail about matches: to captains, a fixture scheduled, a referee's ruling that concerns their team, standings
published, and reminders of a team sheet not yet in and a result not yet confirmed
(:func:`captain_reminders`, beat); to captains and the match's referee and marker, a fixture moved; to the union's
officials and the match's referee, a captain's dispute of the result.

The entry points are called by a service (or the referee console) **inside** its transaction, imported
directly (no lookup by name); each writes its Celery task to the outbox
(:func:`plumbing.outbox.outbox_enqueue`) in that transaction, so nothing is sent for a rolled-back
change, and nothing is lost to a broker that is down when it commits:

* :func:`fixture_scheduled_notify` ``(*, match_id)`` — both captains of the match
  (:func:`matches.competitions.services.match_schedule`).
* :func:`fixture_rescheduled_notify` ``(*, match_id, history_id, reason)`` — both captains and the match's referee
  and marker: the fixture is postponed or moved, old and new date, time and venue, and why
  (:func:`matches.competitions.fixture_changes.fixture_reschedule`); once per change (the history row's id is the key).
* :func:`ruling_notify` ``(*, ruling_id, match_id, team_ids, summary)`` — the captains of ``team_ids``
  (the referee console calls it when a ruling is recorded; docs/api.md documents it).
* :func:`standings_published_notify` ``(*, snapshot_id)`` — the captains of every team in the competition
  (:func:`matches.results.services.standings_publish`).
* :func:`result_disputed_notify` ``(*, dispute_id)`` — the union's officials and the match's referee and
  marker (:func:`matches.results.services.result_dispute`). SAKBOC 1.10: the referee's decision is final at the
  table; a dispute of the result goes to the union's official, who settles it
  (``matches.results.services.result_correct``).

The tasks take ids, re-read the database and are idempotent: each claims a
:class:`~plumbing.models.TaskReceipt` (``task_receipt_claim``) in the same transaction as its
sending, so a broker's second delivery sends nothing. A rescheduled fixture is a new key (the start time is
part of it), so captains hear about the new date. Captains are reached and mailed through
:mod:`clubs.notifications` (``captain_emails``, ``send_once``).

Three tasks keep the names they had when they lived in ``clubs/notifications.py``
(``clubs.fixture_scheduled_email``, ``clubs.ruling_email``, ``clubs.standings_published_email``): the names
are stored in outbox rows and task receipts of a running installation, so a rename would strand messages
still waiting.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Team, UnionOfficial
from clubs.notifications import captain_emails, send_once
from clubs.selectors import person_name
from matches.models import Match, ResultDispute, StandingsSnapshot, TeamSheet
from plumbing.outbox import outbox_enqueue

# --- Entry points (call inside the service's transaction) -----------------------------------------------


def fixture_scheduled_notify(*, match_id: int) -> None:
    """Once the transaction commits, e-mail both captains that match ``match_id`` is scheduled (or moved)."""
    outbox_enqueue(task="clubs.fixture_scheduled_email", args=[match_id], key=f"match:{match_id}")


def fixture_rescheduled_notify(*, match_id: int, history_id: int, reason: str) -> None:
    """Once the transaction commits, e-mail both captains and the referee and marker that match ``match_id`` is
    moved by the change written as its history row ``history_id`` (the row before it holds the old start and
    venue), for ``reason`` (sent as written, whole: the history keeps its first 100 characters)."""
    outbox_enqueue(task="matches.fixture_rescheduled_email", args=[match_id, history_id, reason],
                   key=f"match:{match_id}")


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


def result_disputed_notify(*, dispute_id: int) -> None:
    """E-mail the union's officials and the match's referee and marker about dispute ``dispute_id`` (a
    :class:`matches.models.ResultDispute`): written to the outbox in the caller's transaction, sent after commit
    (``plumbing.outbox``: a broker outage loses nothing)."""
    outbox_enqueue(task="matches.result_disputed_email", args=[dispute_id], key=f"dispute:{dispute_id}")


# --- Tasks -------------------------------------------------------------------------------------------------


@shared_task(name="clubs.fixture_scheduled_email")
def fixture_scheduled_email(match_id: int) -> int:
    """Send the "fixture scheduled" e-mail once per match and start time; return the number sent."""
    match = (
        Match.objects.select_related("competition", "home__captain__user", "away__captain__user")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return 0
    start = timezone.localtime(match.scheduled_start)
    return send_once(
        key=f"notify:fixture:{match_id}:{match.scheduled_start.isoformat()}", task="clubs.fixture_scheduled_email",
        subject=lambda: _("Fixture: %(home)s v %(away)s, %(start)s") % {
            "home": match.home, "away": match.away, "start": date_format(start, "D d M Y H:i")},
        template="matches/email/fixture_scheduled.txt", context={"match": match, "start": start},
        recipients=captain_emails([match.home, match.away]),
    )


def _match_people_emails(match: Match) -> list[str]:
    """Both captains' and the match's referee's and marker's addresses (active accounts), sorted, no repeats."""
    emails = set(captain_emails([match.home, match.away]))
    emails |= {u.email for u in (match.referee, match.marker) if u is not None and u.email and u.is_active}
    return sorted(emails)


@shared_task(name="matches.fixture_rescheduled_email")
def fixture_rescheduled_email(match_id: int, history_id: int, reason: str) -> int:
    """Send the "fixture moved" e-mail once per change (history row ``history_id`` of match ``match_id``) to both
    captains and the referee and marker, each in their language; return the number sent (0 for a change or match
    that is gone, or a second delivery)."""
    match = (Match.objects.select_related("competition", "home__captain__user", "away__captain__user", "referee",
                                          "marker").filter(pk=match_id).first())
    change = Match.history.filter(id=match_id, history_id=history_id).first()
    if match is None or change is None:
        return 0
    before = change.prev_record
    old_start = timezone.localtime(before.scheduled_start) if before is not None else None
    new_start = timezone.localtime(change.scheduled_start)
    return send_once(
        key=f"notify:fixture-moved:{match_id}:{history_id}", task="matches.fixture_rescheduled_email",
        subject=lambda: _("Fixture moved: %(home)s v %(away)s, now %(start)s") % {
            "home": match.home, "away": match.away, "start": date_format(new_start, "D d M Y H:i")},
        template="matches/email/fixture_rescheduled.txt",
        context={"match": match, "old_start": old_start, "old_venue": before.venue if before is not None else "",
                 "new_start": new_start, "new_venue": change.venue, "reason": reason,
                 "by": person_name(change.history_user) if change.history_user_id else ""},
        recipients=_match_people_emails(match),
    )


@shared_task(name="clubs.ruling_email")
def ruling_email(ruling_id: str, match_id: int, team_ids: list[int], summary: str) -> int:
    """Send the "ruling" e-mail once per ruling; return the number sent."""
    match = Match.objects.select_related("competition").filter(pk=match_id).first()
    if match is None:
        return 0
    # Only the two sides of the match: a stale or mistaken id never mails an unrelated captain.
    teams = Team.objects.select_related("captain__user").filter(
        pk__in=[t for t in team_ids if t in (match.home_id, match.away_id)]
    )
    return send_once(
        key=f"notify:ruling:{ruling_id}", task="clubs.ruling_email",
        subject=lambda: _("Referee's ruling: %(home)s v %(away)s") % {"home": match.home, "away": match.away},
        template="matches/email/ruling.txt", context={"match": match, "summary": summary},
        recipients=captain_emails(teams),
    )


@shared_task(name="clubs.standings_published_email")
def standings_published_email(snapshot_id: int) -> int:
    """Send the "standings published" e-mail once per snapshot; return the number sent."""
    snapshot = StandingsSnapshot.objects.select_related("competition").filter(pk=snapshot_id).first()
    if snapshot is None:
        return 0
    teams = Team.objects.select_related("captain__user").filter(competition_id=snapshot.competition_id)
    return send_once(
        key=f"notify:standings:{snapshot_id}", task="clubs.standings_published_email",
        subject=lambda: _("Standings published: %(competition)s, %(title)s") % {
            "competition": snapshot.competition, "title": snapshot.title},
        template="matches/email/standings_published.txt",
        context={"snapshot": snapshot, "competition": snapshot.competition, "rows": snapshot.rows},
        recipients=captain_emails(teams),
    )


def _recipients(dispute) -> list[str]:
    match = dispute.match
    users = [link.user for link in UnionOfficial.objects.filter(union_id=match.competition.union_id)
             .select_related("user")]
    users += [u for u in (match.referee, match.marker) if u is not None]
    return sorted({u.email for u in users if u.email and u.is_active})


@shared_task(name="matches.result_disputed_email")
def result_disputed_email(dispute_id: int) -> int:
    """Send the "result disputed" e-mail once per dispute, one message per recipient; return how many."""
    dispute = (
        ResultDispute.objects.select_related("match__competition__union", "match__home", "match__away",
                                             "match__referee", "match__marker", "team", "raised_by")
        .filter(pk=dispute_id).first()
    )
    if dispute is None:
        return 0
    match = dispute.match
    return send_once(
        key=f"notify:result-dispute:{dispute_id}", task="matches.result_disputed_email",
        subject=lambda: _("Result disputed: %(home)s v %(away)s") % {"home": match.home, "away": match.away},
        template="matches/email/result_disputed.txt",
        context={"dispute": dispute, "match": match,
                 "captain": person_name(dispute.raised_by) or gettext_lazy("a captain")},
        recipients=_recipients(dispute),
    )


# --- Reminders to captains (Celery beat, ``CELERY_BEAT_SCHEDULE["captain-reminders"]``) ---------------------

#: How long before the start a missing team sheet is chased, and after the end an unconfirmed result.
REMINDER_LEAD = dt.timedelta(hours=24)


def _remind(*, key: str, team, subject, template: str, context: dict) -> int:
    """Send one reminder to ``team``'s captain unless ``key`` was claimed before; return 1 if sent."""
    recipients = captain_emails([team])
    if not recipients:
        return 0
    return send_once(key=key, task="matches.captain_reminders", subject=subject, template=template,
                     context={**context, "team": team}, recipients=recipients)


@shared_task(name="matches.captain_reminders")
def captain_reminders(now_iso: str | None = None) -> int:
    """Remind captains, once each (a :class:`~plumbing.models.TaskReceipt` per match, side and kind):
    a team sheet not yet submitted within 24 hours of the start (sheets are in before the toss, SAKBOC 1.3),
    and a provisional result their side has not confirmed 24 hours after the night ended. Beat runs it every
    15 minutes; running it twice sends nothing twice. :returns: the number of e-mails sent."""
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
                            subject=lambda match=match, start=start: _(
                                "Team sheet due: %(home)s v %(away)s, %(start)s") % {
                                "home": match.home, "away": match.away, "start": date_format(start, "D d M H:i")},
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
                                subject=lambda match=match: _("Result to confirm: %(home)s v %(away)s") % {
                                    "home": match.home, "away": match.away},
                                template="matches/email/reminder_result.txt", context={"match": match})
    return sent
