"""Celery tasks for the match clock and the standings. Tasks take ids and call services; all idempotent.

Clock timers: every clock transition ETAs ``match_clock_deadline_task`` at the match's next deadline
(interval due, grace expiry, full time, end of extra time). The task re-reads the database and acts only if
the state still calls for it. Nothing depends on a timer surviving: ``match_clock_rearm_task`` (Celery beat,
every minute, ``CELERY_BEAT_SCHEDULE``; and once when a worker starts) handles every overdue deadline from
the database and ETAs the ones due before its next run.
"""

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from matches.night.clock import CLOCK_DEADLINE_TASK, match_clock_advance
from matches.notifications import (  # noqa: F401 (the worker's tasks)
    captain_reminders,
    fixture_rescheduled_email,
    result_disputed_email,
)
from matches.results.standings import standings_recompute
from matches.selectors import clock_next_deadline, matches_with_running_clock

logger = logging.getLogger(__name__)

REARM_HORIZON = timedelta(seconds=90)  # beat runs every 60 s; ETA what falls due before the next run


@shared_task(name=CLOCK_DEADLINE_TASK)
def match_clock_deadline_task(match_id: int) -> list[str]:
    """Act on the match's due clock deadlines (``match_clock_advance``). :returns: the deadlines acted on."""
    return match_clock_advance(match_id=match_id)


@shared_task(name="matches.match_clock_rearm")
def match_clock_rearm_task() -> dict[str, Any]:
    """Re-arm the clock timers from the database: act now on overdue deadlines, ETA those due soon.

    :returns: ``{"handled": {match_id: [deadline, ...]}, "armed": [match_id, ...]}``.
    """
    now = timezone.now()
    handled: dict[str, list[str]] = {}
    armed: list[int] = []
    for match in matches_with_running_clock():
        deadline = clock_next_deadline(match)
        if deadline is None:
            continue
        if deadline[1] <= now:
            done = match_clock_advance(match_id=match.pk, now=now)
            if done:
                handled[str(match.pk)] = done
        elif deadline[1] - now <= REARM_HORIZON:
            match_clock_deadline_task.apply_async(args=(match.pk,), eta=deadline[1])
            armed.append(match.pk)
    if handled or armed:
        logger.info("clock re-armed: handled %s, armed %s", handled, armed)
    return {"handled": handled, "armed": armed}


@shared_task(name="matches.standings_recompute")
def standings_recompute_task(competition_id: int) -> int:
    """Recompute a competition's standings (idempotent). :returns: the number of rows."""
    return len(standings_recompute(competition_id=competition_id))


@worker_ready.connect
def rearm_clock_when_worker_starts(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts (or restarts) re-arms the clock at once rather than waiting for beat."""
    match_clock_rearm_task.delay()
