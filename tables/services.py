"""Writes of the table device that belong to the tables app: each table write exactly once.

:func:`table_write_once` runs a table write (a going-on, a confirmation, a dispute, an "af": the services of
``matches.boem_sheet`` and ``referee.services``) under the client's idempotency key, in one transaction with the
:class:`~tables.models.TableWrite` that keeps its answer; the database's unique constraint on the key decides
between two copies of a request that arrive together.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from matches.models import TableDevice
from tables.models import TableWrite

#: What an idempotency key may be: a UUID, or any 8 to 64 letters, digits, ``-`` and ``_``.
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class KeyReused(Exception):
    """The key was used before for another request (HTTP 422); ``str()`` says which, in words."""


@dataclass(frozen=True)
class WriteAnswer:
    """A table write's answer: ``status`` (HTTP), ``body`` (JSON-ready dict), ``replayed`` (True: the stored
    answer of an earlier request with the same key; nothing was written now)."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def idempotency_key_check(key: str) -> str:
    """``key`` stripped, or ``""`` when none was sent.

    :raises ValidationError: a key that is not 8 to 64 letters, digits, ``-`` or ``_`` (a UUID is).
    """
    key = (key or "").strip()
    if key and not KEY_PATTERN.match(key):
        raise ValidationError("An idempotency key is 8 to 64 letters, digits, '-' or '_' (send a UUID).",
                              code="invalid_key")
    return key


def request_fingerprint(*, kind: str, channel: str, asked: dict[str, Any]) -> str:
    """SHA-256 (hex) of what a write asked: its kind, the channel (``page`` or ``api``: their answers differ in
    shape) and its fields, the sheet ``version`` left out (a write refused as stale may be sent again, with the
    same key, based on the sheet as it is now)."""
    meaning = {k: v for k, v in asked.items() if k != "version"}
    text = json.dumps({"kind": kind, "channel": channel, "asked": meaning}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _stored(device: TableDevice, key: str) -> TableWrite | None:
    return TableWrite.objects.filter(match_id=device.link.match_id, table_number=device.link.table_number,
                                     key=key).first()


def _replay(write: TableWrite, fingerprint: str) -> WriteAnswer:
    if write.fingerprint != fingerprint:
        raise KeyReused(f"This idempotency key was used at {write.received_at:%H:%M:%S} for another "
                        f"{write.get_kind_display().lower()}: send a new key for a new entry.")
    return WriteAnswer(status=write.status_code, body=write.result, replayed=True)


def table_write_once(
    *, device: TableDevice, key: str, kind: str, fingerprint: str,
    perform: Callable[[], tuple[int, dict[str, Any]]], entered_at: datetime | None = None,
) -> WriteAnswer:
    """Run ``perform`` (the write: it calls one service and returns ``(status, body)``) once for ``key`` at the
    device's table: the first time it runs and its answer is kept with the key, in the same transaction; again,
    the kept answer is returned and nothing runs. Without a key, ``perform`` simply runs.

    :param kind: a :class:`TableWrite.Kind` value. :param fingerprint: :func:`request_fingerprint` of the request.
    :param entered_at: when the device says the entry was made (it may have waited offline), kept for the record.
    :raises KeyReused: ``key`` was used before for another request.
    :raises ValidationError, PermissionDenied: the service's refusal (nothing is written, nor kept: the same
        key may be sent again).
    """
    if not key:
        status, body = perform()
        return WriteAnswer(status=status, body=body)
    try:
        with transaction.atomic():
            found = _stored(device, key)
            if found is not None:
                return _replay(found, fingerprint)
            status, body = perform()
            write = TableWrite(match_id=device.link.match_id, table_number=device.link.table_number, device=device,
                               key=key, kind=kind, fingerprint=fingerprint, status_code=status, result=body,
                               entered_at=entered_at)
            # The unique key is the database's constraint (below); the match and device are the request's own,
            # loaded with it: not looked up again.
            write.full_clean(exclude=["match", "device"], validate_constraints=False)
            write.save()
            return WriteAnswer(status=status, body=body)
    except IntegrityError:
        # Another copy of this request committed first (the same key, at the same moment): its answer stands,
        # and this copy's write was rolled back with the whole transaction.
        found = _stored(device, key)
        if found is None:
            raise
        return _replay(found, fingerprint)
