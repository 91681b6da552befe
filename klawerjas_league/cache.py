"""Django's cache on Redis that degrades to "no cache" when Redis is unreachable (issue 16).

The site uses the cache only to go faster: every cached value (standings, the standings page, a match's live
part) can be rebuilt from the database. So an unreachable Redis must never answer 500: with
:class:`DegradingRedisCache` as ``CACHES["default"]`` (``settings.py`` when ``REDIS_URL`` is set) a read answers
"not cached" and a write does nothing, and every page is built from the database; ``/healthz`` still answers 503
naming the cache (its probe reads back what it wrote). It is the one place this is handled: no view catches a
cache error.

It is django-redis's ``RedisCache`` (short socket timeouts in ``OPTIONS``) with one thing added. A write that
failed may have been an invalidation (a standings change renews the page's token; a recompute deletes the
cached table), and a Redis that comes back with its data (persistence, or a network cut rather than a crash)
would then serve values that are no longer true for a day. So after a failed write, the first operation that
reaches Redis again first deletes every key of this cache (its ``KEY_PREFIX``; never the broker's keys, never
``FLUSHDB``): the cache is empty, not wrong.
"""

from __future__ import annotations

import logging
from typing import Any

from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

logger = logging.getLogger(__name__)


class DegradingRedisCache(RedisCache):
    """A django-redis cache whose every read and write survives an unreachable Redis (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._ignore_exceptions = True  # the methods django-redis wraps (ttl, lock, …) degrade too
        self._log_ignored_exceptions = False
        self.writes_lost = False

    def _call(self, method: str, fallback: Any, *args: Any, write: bool, **kwargs: Any) -> Any:
        try:
            if self.writes_lost:
                self.client.delete_pattern("*")
                self.writes_lost = False
                logger.warning("cache: Redis answers again; dropped every cached value (writes were lost)")
            return getattr(self.client, method)(*args, **kwargs)
        except ConnectionInterrupted as error:
            if write:
                self.writes_lost = True
            logger.warning("cache: Redis unreachable, %s served without the cache: %s", method, error.__cause__)
            return fallback

    def get(self, key: Any, default: Any = None, version: int | None = None, client: Any = None) -> Any:
        """The cached value, or ``default`` when it is missing or Redis is unreachable."""
        return self._call("get", default, key, default=default, version=version, client=client, write=False)

    def get_many(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        """The cached values found (none when Redis is unreachable)."""
        return self._call("get_many", {}, *args, write=False, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> bool:
        """Whether the key is cached (False when Redis is unreachable)."""
        return self._call("has_key", False, *args, write=False, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> bool:
        """Cache a value; False when Redis is unreachable."""
        return self._call("set", False, *args, write=True, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> bool:
        """Cache a value unless the key exists; False when it exists or Redis is unreachable."""
        return self._call("add", False, *args, write=True, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Cache several values; nothing when Redis is unreachable."""
        return self._call("set_many", [], *args, write=True, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        """Forget a key; False when Redis is unreachable (remembered: the cache is emptied when it is back)."""
        return bool(self._call("delete", False, *args, write=True, **kwargs))

    def delete_many(self, *args: Any, **kwargs: Any) -> int:
        """Forget several keys; 0 when Redis is unreachable (and the cache is emptied when it is back)."""
        return self._call("delete_many", 0, *args, write=True, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        """Renew a key's expiry; False when Redis is unreachable."""
        return self._call("touch", False, *args, write=True, **kwargs)

    def incr(self, key: Any, delta: int = 1, version: int | None = None, client: Any = None) -> int:
        """Add ``delta`` to a cached count (``ValueError`` when missing, as Django's caches do); when Redis is
        unreachable the count is not kept and ``delta`` is returned."""
        return self._call("incr", delta, key, delta=delta, version=version, client=client, write=True)

    def decr(self, key: Any, delta: int = 1, version: int | None = None, client: Any = None) -> int:
        """Subtract ``delta`` from a cached count; ``-delta`` when Redis is unreachable."""
        return self._call("decr", -delta, key, delta=delta, version=version, client=client, write=True)
