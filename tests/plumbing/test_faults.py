"""The fault suite (issue 16): Redis, the worker and the database connection fail mid-night; no request answers
500 and nothing written is lost; everything queued catches up exactly once.

The test starts its **own** ``redis-server`` on a free port (``tests/private_redis.py``) and its own Celery worker
pointed at it and at the test database (PostgreSQL); it never stops the machine's shared Redis or PostgreSQL. The
web side runs in this process (Django's test client) with its broker and cache on the private Redis. What was
tried is counted and printed (``pytest -s``).
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from klawerjas_league.celery import app as celery_app
from matches.models import Match, StandingsRow, StandingsSnapshot
from plumbing.models import OutboxMessage, TaskReceipt
from plumbing.outbox import outbox_flush
from tests.conftest import SERVICES_REQUIRED, celery_worker_start, celery_worker_stop
from tests.factories import MatchFactory
from tests.private_redis import PrivateRedis
from tests.world import make_world

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _require_postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "the fault suite needs PostgreSQL (DATABASE_URL); run `bash .ci/run`"
        if SERVICES_REQUIRED:
            pytest.fail(message)
        pytest.skip(message)


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s: {what}")
        time.sleep(0.2)


class Night:
    """The private Redis, the worker(s), and the web side's Celery and cache pointed at them."""

    def __init__(self, tmp_path: Path) -> None:
        self.redis = PrivateRedis(tmp_path)
        self.tmp_path = tmp_path
        self.queue = f"faults-{uuid.uuid4().hex[:10]}"
        self.workers: list[subprocess.Popen[bytes]] = []
        self.tried: Counter[str] = Counter()

    def start_worker(self) -> None:
        n = len(self.workers) + 1
        log = self.tmp_path / f"worker-{n}.log"
        self.workers.append(celery_worker_start(
            queue=self.queue, hostname=f"{self.queue}-{n}@localhost", log_path=log,
            env={"REDIS_URL": self.redis.url, "CACHE_KEY_PREFIX": self.queue, "CELERY_VISIBILITY_TIMEOUT": "5"},
            extra_args=("--without-heartbeat",),
        ))
        wait_for(lambda: " ready." in log.read_text(), 60, f"worker {n} did not start")

    def restart_failed_workers(self) -> int:
        """What the deployment's ``Restart=on-failure`` does (deploy/systemd/klawerjas-worker.service): start again
        each worker that exited with a failure status. :returns: how many were restarted.

        Celery 5.7.0's consumer exited ("Unrecoverable error: AttributeError ... 'hostname'") when Redis died
        while the worker held an unacknowledged message, e.g. a clock timer waiting for its ETA; the worker now
        runs klawerjas_league/worker.py's (test_the_worker_survives_a_redis_blip_while_it_holds_a_clock_timer).
        """
        failed = [process for process in self.workers if process.poll() not in (None, 0)]
        for _ in failed:
            self.start_worker()
        return len(failed)

    def stop_worker(self) -> None:
        for process in self.workers:
            celery_worker_stop(process)

    def request(self, label: str, response) -> int:  # noqa: ANN001 - a test client response
        """Count one request by its status; a 500 fails the test at once."""
        self.tried[f"{label} {response.status_code}"] += 1
        assert response.status_code < 500 or response.status_code == 503, (label, response.status_code)
        return response.status_code


def _reset_celery_connections() -> None:
    from kombu import pools

    pools.reset()  # kombu's process-wide producer pools, keyed by connection: fresh ones for the broker now set
    celery_app._pool = None  # noqa: SLF001 - the next send makes a pool for the broker_url now set
    celery_app.amqp._producer_pool = None  # noqa: SLF001


@pytest.fixture
def night(tmp_path) -> Iterator[Night]:
    _require_postgresql()
    night = Night(tmp_path)
    night.redis.start()
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager", "task_default_queue")}
    celery_app.conf.update(broker_url=night.redis.url, task_always_eager=False, task_default_queue=night.queue)
    _reset_celery_connections()
    cache = {"default": {"BACKEND": "plumbing.cache.DegradingRedisCache", "LOCATION": night.redis.url,
                         "KEY_PREFIX": night.queue, "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.3, "SOCKET_TIMEOUT": 0.5}}}
    try:
        with override_settings(CACHES=cache, OUTBOX_REDISPATCH_SECONDS=3, CELERY_TASK_ALWAYS_EAGER=False):
            yield night
    finally:
        night.stop_worker()
        night.redis.stop()
        celery_app.conf.update(saved)
        _reset_celery_connections()
        print("\nfault suite, requests tried:", dict(sorted(night.tried.items())))


def _confirmed(world, days: int) -> Match:
    a = world.a
    return MatchFactory(competition=a.league, home=a.home, away=a.away, referee=a.referee,
                        scheduled_start=timezone.now() - dt.timedelta(days=days), phase=Match.Phase.FINISHED,
                        result_status=Match.ResultStatus.CONFIRMED, home_score=20 + days, away_score=10, winner=a.home)


def _approve(night: Night, client, match: Match, label: str) -> None:
    night.request(label, client.post(f"/official/matches/{match.pk}/", {"action": "approve"}))
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.APPROVED  # nothing written is lost


def _publish(night: Night, client, league, title: str) -> None:
    response = client.post(f"/api/competitions/{league.pk}/standings/", {"title": title},
                           content_type="application/json")
    assert night.request("publish", response) == 201
    assert StandingsSnapshot.objects.filter(competition=league, title=title).exists()


def _played(league) -> int:
    return sum(StandingsRow.objects.filter(competition=league).values_list("played", flat=True))


def _all_done() -> bool:
    outbox_flush()  # what Celery beat runs every OUTBOX_FLUSH_SECONDS
    return not OutboxMessage.objects.filter(done_at__isnull=True).exists()


def test_redis_and_the_worker_fail_mid_night_without_a_500_or_a_lost_update(night, client):
    world = make_world()
    league = world.a.league
    client.force_login(world.a.official)
    night.start_worker()

    # Redis up: an approval is recomputed by the worker.
    # The world's league has results approved already (2 appearances each); the recomputes count them too.
    already = 2 * Match.objects.filter(competition=league, result_status=Match.ResultStatus.APPROVED).count()
    _approve(night, client, world.a.confirmed, "approve (Redis up)")
    wait_for(lambda: _played(league) == already + 2, 60, "the worker recomputed the standings")

    # Redis killed mid-night: approvals, publication, the public pages, /healthz: 2xx or a clear 503.
    night.redis.kill()
    down = [_confirmed(world, days) for days in (21, 28)]
    for match in down:
        _approve(night, client, match, "approve (Redis down)")
    _publish(night, client, league, "While Redis was down")
    page = client.get(f"/competitions/{league.pk}/standings/")
    assert night.request("standings page (Redis down)", page) == 200
    assert _played(league) == already + 6  # the next read ran the waiting recompute itself
    health = client.get("/healthz")
    assert night.request("healthz (Redis down)", health) == 503
    assert set(health.json()["failing"]) == {"cache", "broker", "worker", "beat"}  # no worker answers, no beat
    waiting = OutboxMessage.objects.filter(done_at__isnull=True)
    assert list(waiting.values_list("task", flat=True)) == ["clubs.standings_published_email"]  # kept, not lost

    # Redis back: everything waiting catches up, exactly once.
    night.redis.start()
    _reset_celery_connections()
    wait_for(_all_done, 90, "the outbox caught up after Redis came back")
    assert TaskReceipt.objects.filter(key__startswith="notify:standings:").count() == 1

    # The worker stopped for a night's worth of tasks, then restarted: caught up, no duplicates.
    night.stop_worker()
    later = [_confirmed(world, days) for days in range(35, 35 + 7 * 5, 7)]
    for match in later:
        _approve(night, client, match, "approve (no worker)")
    _publish(night, client, league, "While no worker ran")
    assert OutboxMessage.objects.filter(done_at__isnull=True).count() >= len(later) + 1
    night.start_worker()
    wait_for(_all_done, 120, "the outbox caught up after the worker restarted")
    assert _played(league) == already + 2 * (3 + len(later))
    receipts = TaskReceipt.objects.filter(key__startswith="notify:standings:")
    assert receipts.count() == StandingsSnapshot.objects.filter(competition=league).count() == 2
    assert len(set(receipts.values_list("key", flat=True))) == receipts.count()
    night.tried["outbox messages run"] = OutboxMessage.objects.filter(done_at__isnull=False).count()
    night.tried["redispatches"] = sum(max(m.attempts - 1, 0) for m in OutboxMessage.objects.all())


def test_a_terminated_database_connection_fails_cleanly_and_writes_nothing(client, monkeypatch):
    _require_postgresql()
    import psycopg

    from matches.results import services as result_services
    from tests.conftest import _database_url

    world = make_world()
    match = world.a.confirmed
    client.force_login(world.a.official)
    admin_url = _database_url(connection.settings_dict).replace("postgres://", "postgresql://", 1)

    def lose_the_connection_mid_approval(competition_id: int) -> None:
        # Inside result_approve's transaction, after the match row was written: the server ends this connection.
        pid = connection.cursor().connection.info.backend_pid
        with psycopg.connect(admin_url, autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        Match.objects.filter(pk=match.pk).exists()  # the next query finds the connection gone

    monkeypatch.setattr(result_services, "_queue_standings", lose_the_connection_mid_approval)
    response = client.post(f"/api/fixtures/{match.pk}/approve/", {}, content_type="application/json")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    connection.close()
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.CONFIRMED  # nothing half-written
    assert not OutboxMessage.objects.exists()
    print(f"\nfault suite, terminated connection: answered {response.status_code}, approval rolled back")


def _table_post(night: Night, device, label: str, url: str, body: dict) -> dict:
    """A table device's write with Redis down: 2xx (a 503 would be a clear refusal; none is expected here)."""
    response = device.post(url, body, format="json")
    assert night.request(label, response) in (200, 201), response.content
    return response.json()


def test_goings_on_confirmations_and_rulings_survive_redis_dying_mid_night(night):
    """Issue 16's match night at the tables: Redis killed after the start; goings-on, the opponents' and the
    captains' confirmations and the referee's rulings all answer 2xx (or a clear 503), every one is in the
    database, and the ruling e-mails and the standings recompute they queued run exactly once after Redis is back."""
    from rest_framework.test import APIClient

    from matches.models import BoemEntry
    from referee.models import Ruling, StrafClaim
    from tests.factories import sheet_for

    world = make_world()
    a, league = world.a, world.a.league
    live = MatchFactory(competition=league, home=a.home, away=a.away, referee=a.referee,
                        scheduled_start=timezone.now().replace(microsecond=0) - dt.timedelta(minutes=1))
    sheet_for(live, a.home)
    sheet_for(live, a.away)
    referee, public = APIClient(), APIClient()
    referee.force_authenticate(a.referee)
    base = f"/api/referee/matches/{live.pk}"
    night.start_worker()

    # Redis up: the toss, the start, four table devices signed in.
    assert night.request("toss (Redis up)", referee.post(f"{base}/toss/", {"winner": "home"}, format="json")) == 200
    assert night.request("start (Redis up)", referee.post(f"{base}/start/")) == 200
    tables = {}
    for link in referee.get(f"{base}/table-links/").json():
        answer = APIClient().post("/api/table/sign-in/", {"code": link["code"]}, format="json")
        assert night.request("table sign-in (Redis up)", answer) == 201
        tables[link["table"]] = APIClient()
        tables[link["table"]].credentials(HTTP_AUTHORIZATION=f"Table {answer.json()['key']}")

    # Redis killed mid-night.
    night.redis.kill()
    written: list[int] = []
    for device in tables.values():
        for side, strokes in (("home", 1), ("away", 1), ("home", 2)):
            state = device.get("/api/table/")
            assert night.request("table sheet read (Redis down)", state) == 200
            body = {"side": side, "strokes": strokes, "opponents_under_fifty": strokes == 2}
            entry = _table_post(night, device, "going-on (Redis down)", "/api/table/goings-on/", body)
            written.append(entry["id"])
            confirmed = _table_post(night, device, "opponents confirm (Redis down)",
                                    f"/api/table/entries/{entry['id']}/confirm/", {})
            assert confirmed["state"] == "confirmed"
    # "af" at tables 1 and 2, ruled by the referee (upheld, rejected): each ruling queues its e-mail.
    claims = []
    for number, decision in ((1, "upheld"), (2, "rejected")):
        seats = next(t for t in tables[number].get("/api/table/").json()["tables"] if t["number"] == number)
        af = _table_post(night, tables[number], "af (Redis down)", "/api/table/af/",
                         {"claimant": seats["home"]["byspeler_player_id"],
                          "accused": seats["away"]["telman_player_id"], "offence": "signs"})
        claims.append(af["claim"])
        ruling = referee.post(f"{base}/claims/{af['claim']}/ruling/", {"decision": decision}, format="json")
        assert night.request("referee ruling (Redis down)", ruling) == 201, ruling.content
    assert night.request("referee console read (Redis down)", referee.get(f"{base}/")) == 200
    assert night.request("live state (Redis down)", public.get(f"/api/fixtures/{live.pk}/live/")) == 200

    # The captains confirm a result and the official approves it, Redis still down.
    result = a.provisional
    for user in (a.captain, a.away_captain):
        captain = APIClient()
        captain.force_authenticate(user)
        night.request("captain confirms result (Redis down)", captain.post(f"/api/fixtures/{result.pk}/confirm/"))
    result.refresh_from_db()
    assert result.result_status == Match.ResultStatus.CONFIRMED
    official = APIClient()
    official.force_authenticate(a.official)
    night.request("approve (Redis down)", official.post(f"/api/fixtures/{result.pk}/approve/", {}, format="json"))

    # Nothing written is lost.
    entries = BoemEntry.objects.filter(pk__in=written)
    assert entries.count() == len(written) == 12
    assert not entries.filter(confirmed_at__isnull=True).exists()
    assert Ruling.objects.filter(claim_id__in=claims).count() == 2
    assert StrafClaim.objects.filter(pk__in=claims).count() == 2
    result.refresh_from_db()
    assert result.result_status == Match.ResultStatus.APPROVED
    waiting = OutboxMessage.objects.filter(done_at__isnull=True)
    assert sorted(waiting.values_list("task", flat=True)) == [
        "clubs.ruling_email", "clubs.ruling_email", "matches.standings_recompute"]
    assert not waiting.filter(dispatched_at__isnull=False).exists()  # none reached the dead broker

    # Redis back: the ruling e-mails and the standings recompute catch up, exactly once.
    night.redis.start()
    _reset_celery_connections()
    night.tried["workers restarted by Restart=on-failure"] = night.restart_failed_workers()
    wait_for(_all_done, 90, "the outbox caught up after Redis came back")
    rulings = Ruling.objects.filter(claim_id__in=claims).values_list("pk", flat=True)
    receipts = TaskReceipt.objects.filter(key__in=[f"notify:ruling:{pk}" for pk in rulings])
    assert receipts.count() == 2
    assert _played(league) == 2 * Match.objects.filter(
        competition=league, result_status=Match.ResultStatus.APPROVED).count()
    outbox_flush()  # a flush after the catch-up sends nothing again
    time.sleep(1)
    assert TaskReceipt.objects.filter(key__startswith="notify:ruling:").count() == 2
    night.tried["outbox messages run"] = OutboxMessage.objects.filter(done_at__isnull=False).count()
    night.tried["writes answered 2xx while Redis was down"] = sum(
        count for label, count in night.tried.items()
        if "(Redis down) 2" in label and not any(word in label for word in ("read", "live state")))


# --- The worker survives a Redis blip while it holds a clock timer (issue 37) --------------------------------


def test_the_worker_survives_a_redis_blip_while_it_holds_a_clock_timer(tmp_path):
    """Redis killed and restarted on the same port while the worker holds the clock's timer (an ETA message,
    unacknowledged): the SAME worker process is alive afterwards and runs the timer (the interval is called,
    SAKBOC 1.2). Celery 5.7.0's own consumer exited here ("Unrecoverable error: AttributeError ... 'hostname'":
    it closed the connection after ``collect()`` had detached the transport, and kombu's restore of the unacked
    message then had no connection parameters); the worker runs klawerjas_league/worker.py's consumer."""
    _require_postgresql()
    from celery import Celery

    from tests.factories import match_started

    redis = PrivateRedis(tmp_path, persist=True)  # a Redis that keeps its data over a restart, as deployed
    redis.start()
    queue = f"blip-{uuid.uuid4().hex[:10]}"
    log = tmp_path / "worker.log"
    worker = celery_worker_start(
        queue=queue, hostname=f"{queue}@localhost", log_path=log,
        env={"REDIS_URL": redis.url, "CACHE_KEY_PREFIX": queue, "CELERY_VISIBILITY_TIMEOUT": "3"},
        extra_args=("--without-heartbeat",),
    )
    sender = Celery("blip-test", broker=redis.url, set_as_current=False)
    sender.conf.update(task_serializer="json", accept_content=["json"])
    try:
        wait_for(lambda: " ready." in log.read_text(), 60, "the worker did not start")
        wait_for(lambda: "match_clock_rearm" in log.read_text() and "succeeded" in log.read_text(), 30,
                 "the worker's start-up re-arm did not run")
        # The first half ends 12 s from now; the timer is the clock's own task, held by the worker until then.
        now = timezone.now().replace(microsecond=0)
        match = match_started(start=now - dt.timedelta(minutes=75) + dt.timedelta(seconds=12))
        due = now + dt.timedelta(seconds=12)
        sender.send_task("matches.match_clock_deadline", args=[match.pk], eta=due, queue=queue)
        wait_for(lambda: "match_clock_deadline[" in log.read_text(), 20, "the worker did not receive the timer")
        redis.save()  # what a deployed Redis has on disk when it dies

        redis.kill()
        time.sleep(1.5)
        redis.start()

        wait_for(lambda: Match.objects.get(pk=match.pk).phase == Match.Phase.INTERVAL, 90,
                 f"the timer did not run after the blip (worker log: {log})")
        text = log.read_text()
        assert worker.poll() is None, text[-3000:]  # the same process, never restarted
        assert "Connection to broker lost" in text and "Unrecoverable error" not in text
        assert re.search(r"match_clock_deadline\[\S+\] succeeded", text.split("Connection to broker lost")[-1])
        print(f"\nfault suite, Redis blip: worker pid {worker.pid} alive, timer ran after the blip")
    finally:
        celery_worker_stop(worker)
        redis.stop()


def _beat_start(night: Night, heartbeat_seconds: float) -> subprocess.Popen[bytes]:
    """Celery beat against the private Redis, its heartbeat every ``heartbeat_seconds`` (the deployment's beat)."""
    import os
    import sys

    from tests.conftest import PROJECT_DIR

    log = night.tmp_path / "beat.log"
    env = {**os.environ, "REDIS_URL": night.redis.url, "CACHE_KEY_PREFIX": night.queue,
           "CELERY_TASK_DEFAULT_QUEUE": night.queue, "BEAT_HEARTBEAT_SECONDS": str(heartbeat_seconds)}
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "klawerjas_league", "beat", "-l", "info",
             "-s", str(night.tmp_path / "beat-schedule")], cwd=PROJECT_DIR, env=env, stdout=out,
            stderr=subprocess.STDOUT)


def _healthz(client) -> tuple[int, list[str]]:
    response = client.get("/healthz")
    return response.status_code, response.json()["failing"]


def test_health_names_a_stopped_beat_and_worker_and_the_clock_keeps_time_without_them(night, client):
    """Issue 37: with a worker and beat running every check passes; beat stopped: /healthz names beat; the worker
    stopped during a match: /healthz answers 503 naming the worker, and the public page and the captains'
    confirmation still follow the clock (the deadlines passed are applied as the match is read, SAKBOC 1.2)."""
    from clubs.services import team_captain_set
    from matches.night import clock as night_clock
    from tests.factories import UserFactory, match_started

    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    night.start_worker()
    beat = _beat_start(night, heartbeat_seconds=1)
    try:
        with override_settings(BEAT_HEARTBEAT_MAX_AGE_SECONDS=4):
            wait_for(lambda: _healthz(client) == (200, []), 60, "every check passes with a worker and beat")
            checks = client.get("/healthz").json()["checks"]
            assert {name: check["status"] for name, check in checks.items()} == dict.fromkeys(
                ("database", "cache", "broker", "worker", "beat", "outbox"), "ok")

            celery_worker_stop(beat)  # beat stopped: its heartbeat grows old
            wait_for(lambda: _healthz(client) == (503, ["beat"]), 30, "/healthz names beat")
            night.tried["healthz (beat stopped) 503"] += 1

            night.stop_worker()  # the worker stopped during a match night
            status, failing = _healthz(client)
            assert status == 503 and failing == ["worker", "beat"]
            client.logout()
            anonymous = client.get("/healthz")
            assert anonymous.status_code == 503 and anonymous.json() == {
                "status": "unavailable", "failing": ["worker", "beat"]}
            night.tried["healthz (worker stopped) 503"] += 1
    finally:
        celery_worker_stop(beat)

    now = timezone.now().replace(microsecond=0)
    first_half_over = match_started(start=now - dt.timedelta(minutes=76))
    page = client.get(f"/matches/{first_half_over.pk}/")
    assert night.request("public match page (no worker)", page) == 200
    assert "Interval" in page.content.decode() and "First half" not in page.content.decode()

    played = match_started(start=now - dt.timedelta(minutes=170))
    night_clock.match_interval_call(match=played, now=now - dt.timedelta(minutes=95))
    night_clock.match_resume(match=played, now=now - dt.timedelta(minutes=85))
    for team in (played.home, played.away):
        team.captain.user = UserFactory()
        team.captain.save(update_fields=["user"])
        team_captain_set(team=team, player=team.captain)
        client.force_login(team.captain.user)
        response = client.post(f"/captain/matches/{played.pk}/confirm/", follow=True)
        assert night.request("captain confirms (no worker)", response) == 200
        assert "There is no result to confirm yet" not in response.content.decode()
    played.refresh_from_db()
    assert played.phase == Match.Phase.FINISHED and played.result_status == Match.ResultStatus.CONFIRMED
