"""The demo season on PostgreSQL with Redis and a live worker: a small season plays, commits night by night,
and its tasks (captains' e-mails, standings recomputed on approval, clock timers) run on the worker."""

import time

import pytest
from django.conf import settings
from django.db import connection

from demo.season import demo_season_run
from matches.models import Match, PlayedHand, StandingsRow, StandingsSnapshot
from plumbing.models import OutboxMessage
from tests.conftest import require_services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_small_demo_season_with_a_live_worker(live_worker):
    require_services()
    assert settings.CELERY_TASK_ALWAYS_EAGER is False and connection.vendor == "postgresql"

    stats = demo_season_run(seed=3, clubs=2, size="small", progress=None)

    assert stats.match_nights == 2 and stats.hands == PlayedHand.objects.count() > 20
    assert set(Match.objects.values_list("phase", "result_status")) == {("finished", "approved")}
    assert StandingsSnapshot.objects.count() == 2 and StandingsRow.objects.count() == 2
    # E-mails and standings recomputes go through the transactional outbox (issue 16): the worker runs each
    # message once and marks it done; the clock timers are sent to the worker directly.
    deadline = time.monotonic() + 60
    waiting = OutboxMessage.objects.filter(done_at__isnull=True)
    while time.monotonic() < deadline:
        log = live_worker.log_path.read_text()
        if not waiting.exists() and "matches.match_clock_deadline[" in log:
            break
        time.sleep(0.5)
    log = live_worker.log_path.read_text()
    done = set(OutboxMessage.objects.filter(done_at__isnull=False).values_list("task", flat=True))
    assert not waiting.exists(), f"outbox messages not run: {list(waiting.values_list('task', flat=True))}"
    assert {"clubs.fixture_scheduled_email", "matches.standings_recompute"} <= done, done
    assert OutboxMessage.objects.filter(task="matches.standings_recompute").count() >= 2
    assert "klawerjas_league.outbox_deliver[" in log and "matches.match_clock_deadline[" in log, log[-2000:]
    # The clock timers found every night already finished: nothing changed after the demo committed.
    assert set(Match.objects.values_list("phase", "result_status")) == {("finished", "approved")}
