"""Reads reused for a moment in this process: what a public poll asks hundreds of times a second (issue 40).

A phone following a match polls every 3 seconds; on the busiest night 2,000 of them ask about 60 matches, each
worker hearing every match several times a second. What such a poll needs (the match's live version) changes
at most a few times a minute, and a reverse proxy may already answer it up to ``SHARED_CACHE_SECONDS`` old
(``plumbing.page_cache``). :class:`RecentReads` keeps a read in the process's memory for a second or so, so that
most polls cost neither a database query nor a cache round trip; the writer's own process forgets it when its
write commits (:meth:`RecentReads.forget`), so only the other processes can lag, and never by more than the
given seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class RecentReads[K: Hashable, V]:
    """What ``read()`` gave for each key, reused for ``seconds()`` seconds in this process (thread-safe: one
    dictionary's single reads and writes; two threads that miss at once both read, and the later one stays).

    :param seconds: how long a read is reused, asked at every use (a setting: 0 turns reuse off).
    :param limit: at most this many keys are kept; past it all are dropped at once (a night follows a few hundred
        matches at most; the limit only bounds the memory a scan of many addresses could take).
    """

    def __init__(self, seconds: Callable[[], float], *, limit: int = 4096) -> None:
        self._seconds = seconds
        self._limit = limit
        self._kept: dict[K, tuple[float, V]] = {}

    def get(self, key: K, read: Callable[[], V | None]) -> V | None:
        """The value kept for ``key`` if read less than ``seconds()`` ago, else ``read()`` (kept unless ``None``:
        "not there" is never reused, so a thing made a moment later is found)."""
        seconds = self._seconds()
        now = time.monotonic()
        if seconds > 0:
            kept = self._kept.get(key)
            if kept is not None and now - kept[0] < seconds:
                return kept[1]
        value = read()
        if value is not None and seconds > 0:
            if len(self._kept) >= self._limit:
                self._kept.clear()
            self._kept[key] = (now, value)
        return value

    def forget(self, key: K) -> None:
        """Drop what is kept for ``key`` (its data changed in this process: the next use reads it again)."""
        self._kept.pop(key, None)

    def clear(self) -> None:
        """Drop everything kept (the tests do, between tests: a rolled-back database reuses ids)."""
        self._kept.clear()
