"""The demo season on PostgreSQL with Redis and a live worker: a small season plays, commits night by night,
and its tasks (captains' e-mails, standings recomputed on approval, clock timers) run on the worker."""

import time

import pytest
from django.conf import settings
from django.db import connection

from klawerjas_league.demo import demo_season_run
from matches.models import Match, PlayedHand, StandingsRow, StandingsSnapshot
from tests.conftest import require_services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_small_demo_season_with_a_live_worker(live_worker):
    require_services()
    assert settings.CELERY_TASK_ALWAYS_EAGER is False and connection.vendor == "postgresql"

    stats = demo_season_run(seed=3, clubs=2, size="small", progress=None)

    assert stats.match_nights == 2 and stats.hands == PlayedHand.objects.count() > 20
    assert set(Match.objects.values_list("phase", "result_status")) == {("finished", "approved")}
    assert StandingsSnapshot.objects.count() == 2 and StandingsRow.objects.count() == 2
    deadline = time.monotonic() + 60
    wanted = ("clubs.fixture_scheduled_email[", "matches.standings_recompute[", "matches.match_clock_deadline[")
    while time.monotonic() < deadline:
        log = live_worker.log_path.read_text()
        if all(f"{name}" in log for name in wanted) and log.count("matches.standings_recompute[") >= 2:
            break
        time.sleep(0.5)
    log = live_worker.log_path.read_text()
    missing = [name for name in wanted if name not in log]
    assert not missing, f"the worker did not run {missing}; log tail:\n{log[-2000:]}"
    # The clock timers found every night already finished: nothing changed after the demo committed.
    assert set(Match.objects.values_list("phase", "result_status")) == {("finished", "approved")}
