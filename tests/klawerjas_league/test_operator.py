"""The operator's page (issue 37): staff see health, the stuck outbox (retry, drop after a confirmation), the
last backup and the versions; nobody else does."""

from datetime import timedelta

import pytest
from django.utils import timezone

from plumbing.models import OutboxMessage
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True))
    return client


def _stuck(**kwargs) -> OutboxMessage:
    message = OutboxMessage.objects.create(task="clubs.ruling_email", args=[7], **kwargs)
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=30))
    return message


def test_only_staff_see_the_operator_page(client):
    assert client.get("/operator/").status_code == 302  # to the sign-in
    client.force_login(UserFactory())
    assert client.get("/operator/").status_code == 403
    assert b'href="/operator/"' not in client.get("/").content


def test_the_page_shows_health_outbox_backup_and_versions(staff_client, settings, tmp_path):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded default (CI sets REDIS_URL, with no worker here)
    settings.BACKUP_DIR = tmp_path
    _stuck(last_error="SMTPServerDisconnected: Connection unexpectedly closed")
    page = staff_client.get("/operator/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "No backup yet." in text
    assert "SMTPServerDisconnected: Connection unexpectedly closed" in text and "clubs.ruling_email" in text
    assert "Database" in text and "Not used" in text  # the embedded default: no broker, worker or beat
    from django.db import connection

    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    assert "Django" in text and "Celery" in text and database in text
    assert b'href="/operator/"' in staff_client.get("/").content  # in the staff's menu

    (tmp_path / "klawerjas-20261128T010000Z.sqlite3").write_bytes(b"x" * 2048)
    (tmp_path / "klawerjas-20261128T020000Z.sqlite3.age").write_bytes(b"x" * 4096)
    text = staff_client.get("/operator/").content.decode()
    assert "klawerjas-20261128T020000Z.sqlite3.age" in text and "4.0\xa0KB" in text


def test_retry_hands_the_message_on_and_drop_asks_first(staff_client, monkeypatch):
    from plumbing import outbox

    sent = []
    monkeypatch.setattr(outbox.outbox_deliver_task, "apply_async", lambda args: sent.append(args))
    message = _stuck(last_error="boom")
    response = staff_client.post(f"/operator/outbox/{message.pk}/retry/", follow=True)
    assert sent == [(message.pk,)] and "handed to the worker again" in response.content.decode()
    message.refresh_from_db()
    assert message.last_error == "" and message.dispatched_at is not None and message.attempts == 1

    ask = staff_client.get(f"/operator/outbox/{message.pk}/drop/")
    assert ask.status_code == 200 and "Drop this message?" in ask.content.decode()
    assert OutboxMessage.objects.filter(pk=message.pk).exists()  # asking drops nothing
    staff_client.post(f"/operator/outbox/{message.pk}/drop/")
    assert not OutboxMessage.objects.filter(pk=message.pk).exists()
    assert staff_client.get(f"/operator/outbox/{message.pk}/drop/").status_code == 404


def test_a_failing_delivery_keeps_its_error_and_the_message_pending():
    from plumbing.outbox import outbox_deliver_task

    message = OutboxMessage.objects.create(task="no.such_task", args=[])
    with pytest.raises(KeyError):
        outbox_deliver_task.run(message.pk)
    message.refresh_from_db()
    assert message.done_at is None and message.last_error == "NotRegistered: 'no.such_task'"
