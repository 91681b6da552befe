"""Errors reach someone, and the logs say which request (issue 37; plumbing/observability.py).

* A 500 reaches Sentry (a capturing transport, sentry-sdk's ``transport=``) tagged with the request id the response
  carries, and without anything personal (``send_default_pii=False``, POPIA s19).
* Without Sentry, the 500 is e-mailed to ``ADMINS`` (parsed robustly from the environment).
* ``LOG_FORMAT=json``: one JSON object a line with time (UTC), level, logger, message, request id and exception; the
  500's line carries the id the response carries. Plain lines carry time and level too.
* ``X-Request-ID``: made per request; a client's own is ignored unless a trusted proxy is in front; a task the
  request runs logs under the same id, and the request keeps it after.
"""

from __future__ import annotations

import json
import logging.config
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sentry_sdk
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from plumbing.observability import JsonFormatter, admins_from_env, logging_config, sentry_init

PROJECT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.plumbing.observed_urls")]


class CapturingTransport(Transport):
    """A Sentry transport that keeps every envelope instead of sending it."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)

    @property
    def events(self) -> list[dict]:
        return [e.get_event() for e in self.envelopes if e.get_event() is not None]


@pytest.fixture
def sentry_events():
    transport = CapturingTransport()
    assert sentry_init(dsn="https://public@sentry.invalid/1", environment="test", release="abc123",
                       transport=transport)
    yield transport
    sentry_sdk.init(dsn=None)  # off again for the other tests


def _client() -> Client:
    return Client(raise_request_exception=False)


def test_a_500_reaches_sentry_with_the_request_id_and_nothing_personal(sentry_events, django_user_model):
    user = django_user_model.objects.create_user("anna", "anna@example.org", "a-long-password-1")
    client = _client()
    client.force_login(user)
    response = client.get("/observed/fail/", HTTP_USER_AGENT="phone", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 500
    sentry_sdk.flush()
    failures = [e for e in sentry_events.events
                if any(v.get("type") == "DeliberateFailure" for v in e.get("exception", {}).get("values", []))]
    assert failures, sentry_events.events
    event = failures[0]
    assert event["tags"]["request_id"] == response["X-Request-ID"]
    assert event["environment"] == "test" and event["release"] == "abc123"
    # POPIA: no user, no address, no cookie leaves the server.
    text = json.dumps(event)
    assert "anna" not in text and "203.0.113.9" not in text and "sessionid" not in text
    assert "ip_address" not in event.get("user", {})


def test_sentry_is_off_without_a_dsn():
    assert sentry_init(dsn="", environment="test", release="") is False


def test_without_sentry_a_500_is_mailed_to_the_admins():
    with override_settings(ADMINS=admins_from_env("Ops Desk <ops@example.org>; bob@example.org")):
        response = _client().get("/observed/fail/")
    assert response.status_code == 500
    [message] = mail.outbox
    assert message.to == ["Ops Desk <ops@example.org>", "bob@example.org"]
    assert "DeliberateFailure" in message.body and "/observed/fail/" in message.subject + message.body


def test_admins_are_parsed_robustly():
    assert admins_from_env("") == []
    assert admins_from_env(' "Smit, Jan" <jan@example.org> , ops@example.org,,ops@EXAMPLE.org; nobody ') == [
        '"Smit, Jan" <jan@example.org>', "ops@example.org"]


def _settings_in_subprocess(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("SENTRY_DSN", "ADMINS", "LOG_FORMAT", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup()\n{code}"], cwd=PROJECT, capture_output=True, text=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "klawerjas_league.settings", **env}, timeout=60, check=True)


def test_the_settings_read_admins_and_sentry_from_the_environment():
    code = ("from django.conf import settings; import sentry_sdk; "
            "print(settings.ADMINS, sentry_sdk.get_client().is_active())")
    mailed = _settings_in_subprocess({"ADMINS": "Ops <ops@example.org>,b@example.org"}, code)
    assert mailed.stdout.strip() == "['Ops <ops@example.org>', 'b@example.org'] False"
    # With Sentry on, it takes the errors and nobody is e-mailed as well.
    tracked = _settings_in_subprocess({"ADMINS": "ops@example.org", "SENTRY_DSN": "https://k@sentry.invalid/1"}, code)
    assert tracked.stdout.strip() == "[] True"


def test_a_500_is_logged_as_json_with_the_request_id_the_response_carries(capsys):
    logging.config.dictConfig(logging_config(log_format="json", level="INFO"))  # LOG_FORMAT=json, to capsys
    try:
        response = _client().get("/observed/fail/")
        lines = capsys.readouterr().err.splitlines()
    finally:
        logging.config.dictConfig(settings.LOGGING)
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    errors = [r for r in records if r["logger"] == "django.request" and r["level"] == "ERROR"]
    assert len(errors) == 1, lines
    [record] = errors
    assert record["request_id"] == request_id
    assert "DeliberateFailure: deliberate failure" in record["exception"]
    assert record["time"].endswith("Z") and record["time"][10] == "T"
    assert "/observed/fail/" in record["message"]


def test_json_lines_are_one_object_each_and_plain_lines_have_time_and_level():
    record = logging.LogRecord("league", logging.WARNING, __file__, 1, "two\nlines", None, None)
    record.request_id = "abc"
    line = JsonFormatter().format(record)
    assert "\n" not in line
    assert json.loads(line) == {"time": json.loads(line)["time"], "level": "WARNING", "logger": "league",
                                "message": "two\nlines", "request_id": "abc"}
    plain = _settings_in_subprocess({}, "import logging; logging.getLogger('league').warning('hello')")
    assert plain.stderr.rstrip().endswith("WARNING league [-] hello")
    assert plain.stderr[:4].isdigit() and "Z WARNING" in plain.stderr
    as_json = _settings_in_subprocess({"LOG_FORMAT": "json"}, "import logging; logging.getLogger('league').error('hi')")
    assert json.loads(as_json.stderr.strip().splitlines()[-1])["message"] == "hi"


def test_a_request_id_is_made_per_request_and_a_clients_own_ignored_without_a_trusted_proxy():
    client, chosen = _client(), "0123456789abcdef0123456789abcdef"
    first, second = client.get("/healthz"), client.get("/healthz", HTTP_X_REQUEST_ID=chosen)
    assert first["X-Request-ID"] and second["X-Request-ID"] and first["X-Request-ID"] != second["X-Request-ID"]
    assert second["X-Request-ID"] != chosen
    with override_settings(NUM_PROXIES=1):
        assert client.get("/healthz", HTTP_X_REQUEST_ID=chosen)["X-Request-ID"] == chosen
        # Even from the proxy, something that is not an id is replaced.
        assert client.get("/healthz", HTTP_X_REQUEST_ID="<script>")["X-Request-ID"] != "<script>"


def test_a_task_the_request_runs_keeps_its_request_id():
    response = _client().get("/observed/task/")
    body = response.json()
    assert body["task"] == response["X-Request-ID"] == body["after"]


def test_a_failing_task_reaches_sentry_too(sentry_events):
    from tests.plumbing.observed_urls import task_fails

    with pytest.raises(Exception, match="deliberate failure in a task"):
        task_fails.delay()
    sentry_sdk.flush()
    messages = [v.get("value", "") for e in sentry_events.events for v in e.get("exception", {}).get("values", [])]
    assert any("deliberate failure in a task" in m for m in messages), sentry_events.events
