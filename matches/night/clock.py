"""The clock keeps time without a worker: every read and write of a match applies the deadlines already passed.

The clock's timers (``matches.tasks.match_clock_deadline_task``, ETA'd by the services, re-armed by beat) call
:func:`matches.services.match_clock_advance` at each deadline. Without a worker (the embedded default has none,
or it is down) they never run, so every place that loads a match for a page, a phone, a confirmation or the API
first calls one of the two helpers here, which run the **same** idempotent service when, and only when, a
deadline is due (SAKBOC 1.2: the interval and time; 1.12: the end of extra time; 12.3: the grace):

* :func:`match_clock_catch_up` for a match already loaded with ``competition__union`` (the access helpers of
  ``matches.permissions``, :func:`matches.night.live.match_live`): no query when nothing is due;
* :func:`match_version_caught_up` for the hot paths that read only the match's live version (the public page's
  and the phones' ETags, the polls): it keeps the next deadline in the cache with that version, so a poll costs
  its one version query and a cache read when nothing is due (every write of a match night changes the version).
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from matches.models import Match
from matches.selectors import clock_next_deadline
from matches.services import match_clock_advance

#: Seconds a kept "next deadline" may be reused under the same live version: bounds how long a change of the
#: union's clock lengths (which does not change the match's version) can go unseen by a poll.
NEXT_DEADLINE_TIMEOUT = 300
_NO_DEADLINE = -1.0


def _deadline_due(match: Match, now: datetime) -> bool:
    deadline = clock_next_deadline(match)
    return deadline is not None and deadline[1] <= now


def match_clock_catch_up(*, match: Match, now: datetime | None = None) -> Match:
    """Act on the match's clock deadlines that have passed (``match_clock_advance``, the timers' service) and
    return ``match`` with its columns as they now are (the same object; its loaded relations are kept).

    ``match`` must have ``competition.union`` loaded (``select_related("competition__union")``): then nothing
    is queried when no deadline is due. When one is, the service locks the row, acts (dated at each deadline,
    not at ``now``) and the match's columns are read again. Idempotent: a concurrent timer or request that acted
    first leaves nothing to do (SAKBOC 1.2, 1.12, 12.3).
    """
    now = now or timezone.now()
    if not _deadline_due(match, now):
        return match
    match_clock_advance(match_id=match.pk, now=now)
    fresh = Match.objects.filter(pk=match.pk).first()
    if fresh is not None:
        for field in Match._meta.concrete_fields:
            if not field.is_relation:
                setattr(match, field.attname, getattr(fresh, field.attname))
    return match


_VERSION_SQL = f"SELECT live_version, competition_id FROM {Match._meta.db_table} WHERE id = %s"


def _next_deadline_key(match_id: int) -> str:
    return f"clock:next-deadline:{match_id}"


def match_version_caught_up(*, match_id: int, now: datetime | None = None) -> tuple[int, int] | None:
    """``(live_version, competition_id)`` of match ``match_id`` once its passed clock deadlines are acted on
    (``match_clock_advance``), or ``None`` when there is no such match: what the public match page, its live
    part, the table phones and the API's live state are kept and polled under.

    Cost: the cache keeps ``(live_version, competition_id, next deadline)`` per match (for
    :data:`NEXT_DEADLINE_TIMEOUT` seconds). Kept and not due: one indexed query (the version, written out: every
    phone's poll makes it). Nothing kept: one ORM query instead, which reads the deadline too. The version
    changed since it was kept (a write): both, once. A deadline due: the service's write, and the version read
    again.
    """
    now = now or timezone.now()
    key = _next_deadline_key(match_id)
    kept = cache.get(key)
    version = competition_id = None
    due_at = _NO_DEADLINE
    if kept is not None:
        with connection.cursor() as cursor:
            cursor.execute(_VERSION_SQL, [match_id])
            row = cursor.fetchone()
        if row is None:
            return None
        version, competition_id = int(row[0]), int(row[1])
        if kept[0] == version:
            due_at = kept[2]
        else:
            kept = None
    if kept is None:
        match = Match.objects.select_related("competition__union").filter(pk=match_id).first()
        if match is None:
            return None
        version, competition_id = match.live_version, match.competition_id
        deadline = clock_next_deadline(match)
        due_at = deadline[1].timestamp() if deadline is not None else _NO_DEADLINE
        cache.set(key, (version, competition_id, due_at), timeout=NEXT_DEADLINE_TIMEOUT)
    if due_at == _NO_DEADLINE or due_at > now.timestamp():
        return version, competition_id
    match_clock_advance(match_id=match_id, now=now)
    fresh = Match.objects.filter(pk=match_id).values_list("live_version", "competition_id").first()
    return None if fresh is None else (int(fresh[0]), int(fresh[1]))
