"""The transactional outbox (issue 16): with the broker down, an approval answers without a 500, the standings
recompute and the e-mails it calls for are kept in the database, the next read of the standings runs the
recompute, and the flush sends the rest once the broker is back, each exactly once."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import transaction

from klawerjas_league.celery import app as celery_app
from matches.models import Match, StandingsRow
from plumbing.models import OutboxMessage
from plumbing.outbox import outbox_deliver, outbox_flush

# Real commits (not a test case's rolled-back transaction), so on_commit runs when the service commits, as in
# production, before the view looks at what is waiting.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down() -> Iterator[None]:
    """Celery sends to a Redis that is not there (a port nothing listens on), as when Redis is down."""
    eager, url = celery_app.conf.task_always_eager, celery_app.conf.broker_url
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = False, "redis://127.0.0.1:1/0"
    _fresh_connections()
    yield
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = eager, url
    _fresh_connections()


def _fresh_connections() -> None:
    """Forget Celery's and kombu's cached connection pools, so the next send uses the broker_url now set."""
    from kombu import pools

    pools.reset()
    celery_app._pool = None  # noqa: SLF001
    celery_app.amqp._producer_pool = None  # noqa: SLF001


def _approve(client, world):
    client.force_login(world.a.official)
    started = time.monotonic()
    response = client.post(f"/official/matches/{world.a.confirmed.pk}/", {"action": "approve"}, follow=True)
    return response, time.monotonic() - started


def test_approval_with_the_broker_down_answers_with_a_notice_and_the_next_read_recomputes(
    client, world, broker_down
):
    league = world.a.league
    response, seconds = _approve(client, world)
    assert response.status_code == 200 and seconds < 5
    assert "task queue cannot be reached" in response.content.decode()
    world.a.confirmed.refresh_from_db()
    assert world.a.confirmed.result_status == Match.ResultStatus.APPROVED
    waiting = OutboxMessage.objects.get(task="matches.standings_recompute")
    assert waiting.args == [league.pk] and waiting.dispatched_at is None and waiting.done_at is None
    assert not StandingsRow.objects.filter(competition=league).exists()  # no worker has run it

    client.logout()
    page = client.get(f"/competitions/{league.pk}/standings/")  # the next read honours it
    assert page.status_code == 200 and world.a.confirmed.home.name in page.content.decode()
    assert StandingsRow.objects.filter(competition=league).count() >= 2
    waiting.refresh_from_db()
    assert waiting.done_at is not None
    assert outbox_deliver(message_id=waiting.pk) is False  # a later delivery finds it done


def test_the_api_approval_with_the_broker_down_answers_200_with_a_notice(client, world, broker_down):
    client.force_login(world.a.official)
    response = client.post(f"/api/fixtures/{world.a.confirmed.pk}/approve/", {}, content_type="application/json")
    assert response.status_code == 200 and response.json()["result_status"] == "approved"
    assert "task queue cannot be reached" in response.json()["notice"]
    assert OutboxMessage.objects.filter(task="matches.standings_recompute", done_at__isnull=True).exists()


def test_the_flush_catches_up_once_the_broker_is_back_exactly_once(
    client, world, broker_down, mailoutbox
):
    from matches.results.services import standings_publish

    league = world.a.league
    _approve(client, world)
    standings_publish(competition=league, title="Round 1")
    assert OutboxMessage.objects.filter(done_at__isnull=True, dispatched_at__isnull=True).count() == 2
    assert outbox_flush() == 0 and mailoutbox == []  # still down: nothing sent, nothing lost

    celery_app.conf.task_always_eager = True  # the broker (and a worker) are back
    assert outbox_flush() == 2
    assert not OutboxMessage.objects.filter(done_at__isnull=True).exists()
    assert StandingsRow.objects.filter(competition=league).exists()
    sent = len(mailoutbox)
    assert sent >= 1
    assert outbox_flush() == 0  # nothing left to send
    for message in OutboxMessage.objects.all():
        assert outbox_deliver(message_id=message.pk) is False  # a broker's second delivery does nothing
    assert len(mailoutbox) == sent


def test_a_rolled_back_change_leaves_nothing_in_the_outbox(world):
    from matches.results.services import result_approve

    with pytest.raises(RuntimeError):
        with transaction.atomic():
            result_approve(match=world.a.confirmed, user=world.a.official)
            raise RuntimeError("the request failed after the approval")
    assert not OutboxMessage.objects.exists()


def test_with_the_broker_up_the_approval_is_sent_at_once(client, world):
    response, _ = _approve(client, world)
    assert "the standings are being recomputed" in response.content.decode()
    message = OutboxMessage.objects.get(task="matches.standings_recompute")
    assert message.done_at is not None and message.attempts == 1
