"""Prometheus metrics at /metrics (issue 37; plumbing/metrics.py), for the addresses the operator allows.

The metrics move with what happens: a request is counted by its URL name and status, SQL statements are counted,
the outbox gauges read the waiting messages, and a table write is counted once (its replay is not). Only addresses
in ``METRICS_ALLOWED_ADDRESSES`` (default: this machine) read them, judged by the real client address: a forged
``X-Forwarded-For`` opens nothing, and behind the proxy a client outside is refused though the proxy is local.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.utils import timezone
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from matches.models import MatchTable
from matches.night import table_links
from plumbing.metrics import metrics_networks
from plumbing.models import OutboxMessage
from tests.tables.conftest import playing  # noqa: F401 - the table fixture

pytestmark = pytest.mark.django_db
PROJECT = Path(__file__).resolve().parents[2]


def _samples(response) -> dict[tuple[str, tuple], float]:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.content.decode()) for s in family.samples}


def test_requests_queries_and_the_outbox_are_measured():
    client = Client()
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/no-such-page/").status_code == 404
    OutboxMessage.objects.create(task="matches.standings_refresh", args=[1], key="standings:1")
    old = OutboxMessage.objects.create(task="matches.standings_refresh", args=[2], key="standings:2")
    OutboxMessage.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    OutboxMessage.objects.create(task="matches.standings_refresh", args=[3], done_at=timezone.now())

    samples = _samples(client.get("/metrics"))
    healthz = {labels: value for (name, labels), value in samples.items()
               if name == "klawerjas_http_requests_total" and ("view", "healthz") in labels}
    assert sum(healthz.values()) >= 1
    assert samples[("klawerjas_http_requests_total",
                    (("method", "GET"), ("status", "404"), ("view", "unresolved")))] >= 1
    assert any(name == "klawerjas_http_request_duration_seconds_count" for name, _ in samples)
    assert sum(v for (name, _), v in samples.items() if name == "klawerjas_db_queries_total") > 3
    assert samples[("klawerjas_outbox_pending", ())] == 2
    assert 590 <= samples[("klawerjas_outbox_oldest_pending_age_seconds", ())] <= 700


def test_only_allowed_addresses_read_the_metrics():
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="203.0.113.5").get("/metrics").status_code == 404
    # No proxy is trusted: a forged X-Forwarded-For from outside changes nothing.
    assert Client(REMOTE_ADDR="203.0.113.5").get("/metrics", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 404
    with override_settings(NUM_PROXIES=1, REST_FRAMEWORK={"NUM_PROXIES": 1}):
        # Behind the proxy (on this machine) the client is the address the proxy forwarded.
        from_outside = Client(REMOTE_ADDR="127.0.0.1").get("/metrics", HTTP_X_FORWARDED_FOR="198.51.100.7")
        assert from_outside.status_code == 404
        from_inside = Client(REMOTE_ADDR="127.0.0.1").get("/metrics", HTTP_X_FORWARDED_FOR="127.0.0.1")
        assert from_inside.status_code == 200
    with override_settings(METRICS_ALLOWED_ADDRESSES=["10.8.0.0/16", "2001:db8::/32"]):
        assert Client(REMOTE_ADDR="10.8.3.4").get("/metrics").status_code == 200
        assert Client(REMOTE_ADDR="2001:db8::5").get("/metrics").status_code == 200
        assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 404


def test_a_bad_allowed_address_is_named():
    with pytest.raises(ValueError, match="'10.0.0.300'"):
        metrics_networks("127.0.0.1, 10.0.0.300")
    assert [str(n) for n in metrics_networks("127.0.0.1,, 10.0.0.0/8 ")] == ["127.0.0.1/32", "10.0.0.0/8"]


def _table_writes() -> float:
    return REGISTRY.get_sample_value("klawerjas_table_writes_total", {"kind": "going_on"}) or 0.0


def test_a_table_write_is_counted_once_and_its_replay_not(playing, django_capture_on_commit_callbacks):  # noqa: F811
    link = next(link for link in table_links.table_links_ensure(match=playing) if link.table_number == 1)
    api = APIClient()
    key = api.post("/api/table/sign-in/", {"link": link.secret}, format="json").json()["key"]
    api.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    version = MatchTable.objects.get(match=playing, number=1).sheet_version
    body, idempotency = {"side": "home", "strokes": 1, "version": version}, uuid.uuid4().hex
    before = _table_writes()
    with django_capture_on_commit_callbacks(execute=True):
        first = api.post("/api/table/goings-on/", body, format="json", HTTP_IDEMPOTENCY_KEY=idempotency)
    assert first.status_code == 201, first.content
    assert _table_writes() == before + 1
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post("/api/table/goings-on/", body, format="json", HTTP_IDEMPOTENCY_KEY=idempotency)
    assert again.status_code == 201 and again.json() == first.json()
    assert _table_writes() == before + 1


def test_gunicorn_workers_are_added_up_in_multiprocess_mode(tmp_path):
    """With ``PROMETHEUS_MULTIPROC_DIR`` each process writes its counts there and ``/metrics`` sums them: two
    processes answer a request each, a third reads 2."""
    folder = tmp_path / "prometheus"
    folder.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")},
           "DJANGO_SETTINGS_MODULE": "klawerjas_league.settings", "PROMETHEUS_MULTIPROC_DIR": str(folder),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}"}
    script = ("import django; django.setup(); from django.test import Client; c = Client(); {}")
    for _ in range(2):
        subprocess.run([sys.executable, "-c", script.format("c.get('/no-such-page/')")], cwd=PROJECT, env=env,
                       check=True, capture_output=True, timeout=60)
    read = subprocess.run([sys.executable, "-c", script.format("print(c.get('/metrics').content.decode())")],
                          cwd=PROJECT, env=env, check=True, capture_output=True, text=True, timeout=60)
    [line] = [line for line in read.stdout.splitlines()
              if line.startswith("klawerjas_http_requests_total{") and 'view="unresolved"' in line]
    assert line.endswith(" 2.0")
