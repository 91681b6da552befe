"""The clock keeps time without a worker: every read and write of a match applies the deadlines already passed.

The clock's timers (``matches.tasks.match_clock_deadline_task``, ETA'd by the services, re-armed by beat) call
:func:`matches.services.match_clock_advance` at each deadline. Without a worker (the embedded default has none,
or it is down) they never run, so every place that loads a match for a page, a phone, a confirmation or the API
first calls one of the two helpers here, which run the **same** idempotent service when, and only when, a
deadline is due (SAKBOC 1.2: the interval and time; 1.12: the end of extra time; 12.3: the grace):

* :func:`match_clock_catch_up` for a match already loaded with ``competition__union`` (the access helpers of
  ``matches.permissions``, :func:`matches.live.match_live`): no query when nothing is due;
* :func:`match_clock_catch_up_by_id` for the hot paths that read only the match's live version (the public page's
  and the phones' ETags, the polls): it keeps the next deadline in the cache under that version, so a poll costs
  one cache read and no query when nothing is due (every write of a match night changes the version).
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
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


def _next_deadline_key(match_id: int, version: int) -> str:
    return f"clock:next-deadline:{match_id}:{version}"


def match_clock_catch_up_by_id(*, match_id: int, version: int, now: datetime | None = None) -> int:
    """Act on match ``match_id``'s passed deadlines, knowing only its ``live_version``; :returns: the live version
    to use (``version`` when nothing was due, else the version after the service's write).

    The next deadline is kept in the cache under ``(match_id, version)`` for :data:`NEXT_DEADLINE_TIMEOUT`
    seconds, so a poll makes no query when nothing is due; on a miss the match is read once (one query).
    A match that does not exist returns ``version`` unchanged.
    """
    now = now or timezone.now()
    key = _next_deadline_key(match_id, version)
    due_at = cache.get(key)
    if due_at is None:
        match = Match.objects.select_related("competition__union").filter(pk=match_id).first()
        if match is None:
            return version
        deadline = clock_next_deadline(match)
        due_at = deadline[1].timestamp() if deadline is not None else _NO_DEADLINE
        cache.set(key, due_at, timeout=NEXT_DEADLINE_TIMEOUT)
    if due_at == _NO_DEADLINE or due_at > now.timestamp():
        return version
    match_clock_advance(match_id=match_id, now=now)
    new_version = Match.objects.filter(pk=match_id).values_list("live_version", flat=True).first()
    return version if new_version is None else int(new_version)
