"""A Celery worker killed in the middle of a task, then restarted, leaves no duplicated e-mail, standings row
or award (issue 8), and the referee's dashboard acts on clock deadlines even with no worker at all.

How the kill test works (PostgreSQL, Redis, real worker processes): the test holds a row lock (or the
uncommitted idempotency receipt) that the task needs, so the task is provably half-way, inside its
transaction, waiting on PostgreSQL; the worker is then killed with SIGKILL. With ``acks_late`` the message
was never acknowledged, so a new worker receives it again (Redis redelivers it once the visibility timeout,
2 s for these workers, has passed) and runs it to completion: exactly once in effect. The workers use a queue
and a broker key prefix of their own, so nothing else on the shared Redis is touched.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from matches.models import Award, Competition, Match, MatchTable, StandingsRow
from matches.night import clock as night_clock
from matches.night import services as night_services
from plumbing.models import TaskReceipt
from tests.conftest import celery_worker_start, celery_worker_stop, require_services
from tests.factories import UserFactory, match_started, match_with_sheets

VISIBILITY_TIMEOUT = 2  # seconds before Redis redelivers an unacknowledged message (production: 1 hour)


class Workers:
    """Start and kill Celery workers on one queue and broker key prefix; each has its own log."""

    def __init__(self, tmp_path: Path) -> None:
        self.queue = f"kill-{uuid.uuid4().hex[:10]}"
        self.prefix = f"{self.queue}:"
        self.tmp_path = tmp_path
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []
        self.sender = Celery("worker-kill-test", broker=settings.CELERY_BROKER_URL,  # not the current app:
                             backend=settings.CELERY_RESULT_BACKEND, set_as_current=False)  # others' .delay()
        self.sender.conf.update(broker_transport_options={"global_keyprefix": self.prefix},
                                task_serializer="json", result_serializer="json", accept_content=["json"])

    def start(self) -> subprocess.Popen[bytes]:
        n = len(self.processes) + 1
        log = self.tmp_path / f"worker-{n}.log"
        process = celery_worker_start(
            queue=self.queue, hostname=f"{self.queue}-{n}@localhost", log_path=log,
            env={"CELERY_BROKER_KEY_PREFIX": self.prefix, "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)},
            extra_args=("--without-heartbeat",),
        )
        self.processes.append(process)
        self.logs.append(log)
        wait_for(lambda: " ready." in log.read_text(), 60, f"worker {n} did not start", log)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def send(self, name: str, *args: object):  # noqa: ANN201 - a Celery AsyncResult
        return self.sender.send_task(name, args=list(args), queue=self.queue)

    def stop_all(self) -> None:
        for process in self.processes:
            celery_worker_stop(process, timeout=15)


def wait_for(condition: Callable[[], bool], seconds: float, message: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            tail = log.read_text()[-3000:] if log is not None else ""
            raise AssertionError(f"{message}; log tail:\n{tail}")
        time.sleep(0.1)


def waiting_on_a_lock(table: str) -> bool:
    """Some other session of this database is waiting on a lock in a statement about ``table``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # the activity view is cached per transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND wait_event_type = 'Lock' AND query ILIKE %s", [f"%{table}%"],
        )
        return cursor.fetchone()[0] > 0


def kill_half_way(workers: Workers, worker: subprocess.Popen[bytes], hold: Callable[[], None], table: str,
                  task: str, *args: object):  # noqa: ANN201 - a Celery AsyncResult
    """Hold what the task needs (``hold``, inside a transaction), send the task, wait until the worker is
    blocked in it on ``table``, kill the worker, then let go (the held transaction is rolled back)."""
    with transaction.atomic():
        hold()
        result = workers.send(task, *args)
        wait_for(lambda: waiting_on_a_lock(table), 20, f"{task} never reached its lock", workers.logs[-1])
        assert f"{task}[{result.id}] received" in workers.logs[-1].read_text()
        workers.kill(worker)
        transaction.set_rollback(True)
    time.sleep(VISIBILITY_TIMEOUT + 0.5)  # the next worker finds the message overdue and restores it
    return result


@pytest.fixture
def eager_project_app() -> Iterator[None]:
    """Set-up writes through the services run their side effects in-process: no clock timer or e-mail from
    the set-up is sent to a real queue (the test sends its own tasks to its own workers)."""
    from klawerjas_league.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_half_way_leaves_one_email_one_set_of_standings_one_award(tmp_path, eager_project_app):
    require_services()
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=90)
    match = match_with_sheets(scheduled_start=start)
    for team in (match.home, match.away):
        team.captain.user = UserFactory(email=f"captain-{team.pk}@example.org")
        team.captain.save(update_fields=["user"])
    fixture_key = f"notify:fixture:{match.pk}:{match.scheduled_start.isoformat()}"
    workers = Workers(tmp_path)
    try:
        first = workers.start()

        # 1. The "fixture scheduled" e-mail, killed while claiming its receipt (the test holds the same key).
        email = kill_half_way(
            workers, first, lambda: TaskReceipt.objects.create(key=fixture_key, task="held by the test"),
            "klawerjas_league_taskreceipt", "clubs.fixture_scheduled_email", match.pk,
        )
        second = workers.start()
        assert email.get(timeout=30) == 2  # both captains, on the redelivery
        assert TaskReceipt.objects.filter(key=fixture_key).count() == 1
        subject = f"Subject: Fixture: {match.home} v {match.away}"
        sent = [log.read_text().count(subject) for log in workers.logs]
        assert sent == [0, 2], sent  # nothing from the killed worker, one e-mail per captain from the next

        # 2. The standings recompute, killed while waiting for the competition's row.
        competition_id = match.competition_id
        standings = kill_half_way(
            workers, second,
            lambda: Competition.objects.select_for_update().filter(pk=competition_id).exists(),
            "matches_competition", "matches.standings_recompute", competition_id,
        )
        workers.start()
        assert standings.get(timeout=30) == 2
        rows = list(StandingsRow.objects.filter(competition_id=competition_id).values_list("team_id", flat=True))
        assert sorted(rows) == sorted([match.home_id, match.away_id])  # one set: a row per team, none twice

        # 3. The clock timer (grace expiry, SAKBOC 12.3), killed while waiting for the match's row. The clock is
        # set up now, after the running worker's start-up re-arm: second half, table 2's away players reported
        # unseated, the 3 minutes' grace long over.
        wait_for(lambda: re.search(r"match_clock_rearm\[\S+\] succeeded", workers.logs[-1].read_text()) is not None,
                 20, "the worker's start-up re-arm did not finish", workers.logs[-1])
        night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
        night_clock.match_start(match=match, now=start)
        night_clock.match_interval_call(match=match, now=start + timedelta(minutes=75))
        night_clock.match_resume(match=match, now=start + timedelta(minutes=85))
        night_clock.table_unseated_report(match=match, table_number=2, team=match.away,
                                       now=start + timedelta(minutes=86))
        assert not Award.objects.filter(match=match).exists()
        third = workers.processes[-1]
        clock = kill_half_way(
            workers, third, lambda: Match.objects.select_for_update().filter(pk=match.pk).exists(),
            "matches_match", "matches.match_clock_deadline", match.pk,
        )
        workers.start()  # (a starting worker also re-arms the clock: two paths, one award)
        clock.get(timeout=30)
        awards = Award.objects.filter(match=match, kind=Award.Kind.UNSEATED)
        assert [(a.table_number, a.team_id, a.points) for a in awards] == [(2, match.home_id, 10)]
        assert MatchTable.objects.get(match=match, number=2).status == MatchTable.Status.STOPPED
    finally:
        workers.stop_all()


# --- The referee's dashboard acts on due deadlines itself (no broker needed) -----------------------------


@pytest.mark.django_db
def test_the_dashboard_calls_the_interval_when_it_is_due_sakboc_1_2(client):
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=76)
    match = match_started(start=start)
    client.force_login(match.referee)

    response = client.get(reverse("referee:dashboard", args=[match.pk]))

    assert response.status_code == 200 and response.context["phase"] == Match.Phase.INTERVAL
    match.refresh_from_db()
    assert match.phase == Match.Phase.INTERVAL
    assert match.interval_started_at == start + timedelta(minutes=75)  # dated at the deadline, not the poll


@pytest.mark.django_db
def test_the_dashboard_stops_an_unseated_table_after_the_grace_once_sakboc_12_3(client):
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=89)
    match = match_started(start=start)
    night_clock.match_interval_call(match=match, now=start + timedelta(minutes=75))
    night_clock.match_resume(match=match, now=start + timedelta(minutes=85))
    night_clock.table_unseated_report(match=match, table_number=3, team=match.home, now=start + timedelta(minutes=86))
    client.force_login(match.referee)

    for _ in range(2):  # the page polls: the second read finds nothing more to do
        assert client.get(reverse("referee:dashboard", args=[match.pk]), HTTP_HX_REQUEST="true").status_code == 200

    assert MatchTable.objects.get(match=match, number=3).status == MatchTable.Status.STOPPED
    assert list(Award.objects.filter(match=match).values_list("kind", "table_number", "team_id")) == [
        (Award.Kind.UNSEATED, 3, match.away_id)]
    assert Match.objects.get(pk=match.pk).phase == Match.Phase.SECOND_HALF


@pytest.mark.django_db
def test_the_dashboard_leaves_the_clock_alone_when_no_deadline_is_due(client, monkeypatch):
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=10)
    match = match_started(start=start)
    calls = []
    monkeypatch.setattr(night_clock, "match_clock_advance", lambda **kwargs: calls.append(kwargs) or [])
    client.force_login(match.referee)

    assert client.get(reverse("referee:dashboard", args=[match.pk])).status_code == 200

    assert calls == []  # nothing due: no row lock taken on every 20-second poll
    assert Match.objects.get(pk=match.pk).phase == Match.Phase.FIRST_HALF
