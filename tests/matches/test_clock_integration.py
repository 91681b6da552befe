"""The match clock survives a worker restart: the re-arm task, run by a live worker through Redis, acts on
deadlines that no timer is waiting for, straight from PostgreSQL."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Match
from matches.tasks import match_clock_rearm_task
from tests.conftest import require_services
from tests.factories import MatchFactory, sheet_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_rearm_on_the_live_worker_handles_overdue_deadlines_and_arms_the_next(live_worker):
    require_services()
    now = timezone.now().replace(microsecond=0)
    # A first half that started 80 minutes ago: the interval was due 5 minutes ago and its timer is lost.
    overdue = MatchFactory(scheduled_start=now - timedelta(minutes=80), phase=Match.Phase.FIRST_HALF,
                           first_half_started_at=now - timedelta(minutes=80))
    # A second half whose 3 minutes' grace ends in 3 seconds: the re-arm ETAs a timer for it.
    soon = MatchFactory(scheduled_start=now - timedelta(minutes=90), phase=Match.Phase.SECOND_HALF,
                        first_half_started_at=now - timedelta(minutes=90),
                        interval_started_at=now - timedelta(minutes=15),
                        second_half_started_at=now - timedelta(minutes=3) + timedelta(seconds=3))
    for match in (overdue, soon):
        sheet_for(match, match.home)
        sheet_for(match, match.away)

    result = match_clock_rearm_task.delay().get(timeout=30)

    assert result["handled"] == {str(overdue.pk): ["interval_due"]}
    assert result["armed"] == [soon.pk]
    overdue.refresh_from_db()
    assert overdue.phase == Match.Phase.INTERVAL
    assert overdue.interval_started_at == now - timedelta(minutes=5)  # dated at the deadline, not at the re-arm
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the ETA'd timer fires on the worker after ~3 s
        soon.refresh_from_db()
        if soon.grace_handled_at is not None:
            break
        time.sleep(0.25)
    assert soon.grace_handled_at == soon.second_half_started_at + timedelta(minutes=3)
    assert "matches.match_clock_deadline" in live_worker.log_path.read_text()
