"""The Celery worker's consumer (``CELERY_WORKER_CONSUMER``): Celery 5.7.0's, surviving a Redis restart (issue 37).

Celery 5.7.0's ``Consumer.on_connection_error_after_connected`` first ``collect()``\\s the lost connection, which
detaches its transport (``transport.client = None``), then ``close()``\\s it. Closing the connection closes its
default channel, and kombu's Redis channel then restores the messages the worker holds unacknowledged (the clock's
timers wait for their ETA that way, ``acks_late``): it builds a new connection pool from ``transport.client``, now
``None``, and raises ``AttributeError: 'NoneType' object has no attribute 'hostname'``. That error is not one of
the connection errors the close ignores, so the worker exits ("Unrecoverable error", exit code 1) on every Redis
restart during a match night. Celery 5.6.3 did not close there; 5.7.0 added the close to release the old socket.

The fix: close the default channel *before* Celery's clean-up, while the transport still knows its client. The
restore then fails like any call to a Redis that is down (a connection error, caught here) and kombu marks it done;
the messages stay in Redis's unacknowledged set and come back after ``CELERY_VISIBILITY_TIMEOUT`` (swept every
``CELERY_UNACKED_RESTORE_SECONDS``). Celery's own clean-up then finds the channel closed and reconnects as usual.
Regression test: ``tests/plumbing/test_faults.py``,
``test_the_worker_survives_a_redis_blip_while_it_holds_a_clock_timer``.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer

logger = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    """Celery's consumer, closing the lost connection's default channel before Celery collects the connection."""

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        """Close the default channel first (its restore of unacknowledged messages needs the transport), then
        Celery's clean-up and reconnect. Any error of the early close is logged, never raised: the worker lives."""
        connection: Any = self.connection
        channel = getattr(connection, "_default_channel", None) if connection is not None else None
        if channel is not None:
            try:
                channel.close()
            except Exception as error:  # noqa: BLE001 - Redis is down: the messages wait in Redis, see the module
                logger.info("closing the lost broker channel: %s: %s", type(error).__name__, error)
        super().on_connection_error_after_connected(exc)
