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

The per-address limits (failed sign-ins, wrong table codes, the table API's sign-in throttle) are counters, not a
speed-up: a counter that silently stops counting while Redis is down turns every limit off. They live in a cache
of their own, ``CACHES["limits"]`` (:func:`caches_config`), a :class:`FailoverCache`: Redis while it answers, and
this process's memory while it does not (issue 35, finding 5).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.utils.module_loading import import_string
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

logger = logging.getLogger(__name__)

#: The cache alias of the per-address counters (``plumbing.limits``).
LIMITS_CACHE = "limits"


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


#: When each failing primary (by its location) is next tried, per process: a down Redis is not waited for on every
#: call (each attempt can cost a socket timeout), only once every ``RETRY_SECONDS``.
_PRIMARY_DOWN_UNTIL: dict[str, float] = {}


class FailoverCache(BaseCache):
    """A cache for counters that must keep counting when Redis fails (``CACHES["limits"]``).

    ``OPTIONS["PRIMARY"]`` is the cache it uses (a ``CACHES`` entry: ``BACKEND``, ``LOCATION``, ``OPTIONS``; its
    ``KEY_PREFIX``, ``VERSION`` and ``TIMEOUT`` are this entry's). Every call goes to the primary; when the primary
    raises (django-redis: ``ConnectionInterrupted``, Redis unreachable), the call is answered from this process's
    memory instead (a ``LocMemCache``), and so is every call for the next ``OPTIONS["RETRY_SECONDS"]`` (default 5),
    after which the primary is tried again. Counts made meanwhile stay in memory: each web worker then counts on its
    own, so a limit of N lets through at most N per worker process, never unlimited. A ``ValueError`` (``incr`` of a
    missing key) is the cache's answer, not a failure, and is raised as it is.
    """

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        options = params.get("OPTIONS", {})
        shared: dict[str, Any] = {name: params[name] for name in ("KEY_PREFIX", "VERSION", "TIMEOUT", "KEY_FUNCTION")
                                  if name in params}
        primary = {**options["PRIMARY"], **shared}
        backend = import_string(primary.pop("BACKEND"))
        self.primary: BaseCache = backend(primary.pop("LOCATION", ""), primary)
        self.fallback = LocMemCache(f"klawerjas-failover-{location}", {**shared, "OPTIONS": {"MAX_ENTRIES": 10000}})
        self.retry_seconds = float(options.get("RETRY_SECONDS", 5))
        self._name = location

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= _PRIMARY_DOWN_UNTIL.get(self._name, 0.0):
            try:
                return getattr(self.primary, method)(*args, **kwargs)
            except ValueError:
                raise
            except Exception as error:  # noqa: BLE001 - any failure of the primary: count in memory instead
                _PRIMARY_DOWN_UNTIL[self._name] = time.monotonic() + self.retry_seconds
                logger.warning("limits cache: %s failed (%s); counting in this process's memory for %s s",
                               method, error.__cause__ or error, self.retry_seconds)
        return getattr(self.fallback, method)(*args, **kwargs)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        """Set ``key`` unless it exists; whether it was set."""
        return self._call("add", key, value, timeout=timeout, version=version)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        """The value of ``key``, or ``default``."""
        return self._call("get", key, default=default, version=version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        """Set ``key`` (for ``timeout`` seconds)."""
        self._call("set", key, value, timeout=timeout, version=version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        """Renew the expiry of ``key``; whether it exists."""
        return self._call("touch", key, timeout=timeout, version=version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        """Forget ``key``; whether it existed."""
        return self._call("delete", key, version=version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """Add ``delta`` to the count at ``key`` (keeping its expiry) and return it. :raises ValueError: no such
        key."""
        return self._call("incr", key, delta=delta, version=version)

    def clear(self) -> None:
        """Forget every key, in the primary (when it answers) and in memory."""
        self.fallback.clear()
        self._call("clear")


def caches_config(*, redis_url: str, key_prefix: str = "klawerjas", socket_timeout: float = 0.5) -> dict[str, Any]:
    """``settings.CACHES``: ``"default"`` the cache that only speeds pages up, ``"limits"`` the per-address counters.

    With ``redis_url``: both on Redis; the default a :class:`DegradingRedisCache` (Redis down: no cache), the limits
    a :class:`FailoverCache` over django-redis's own cache (Redis down: counted in memory), under a key prefix of
    their own (``<key_prefix>-limits``) so that the default cache dropping its keys leaves the counters alone.
    Without: both in this process's memory. ``socket_timeout`` (seconds) bounds a wait for an unreachable Redis.
    """
    if not redis_url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "klawerjas"},
                LIMITS_CACHE: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                               "LOCATION": "klawerjas-limits"}}
    sockets = {"SOCKET_CONNECT_TIMEOUT": socket_timeout, "SOCKET_TIMEOUT": socket_timeout}
    return {
        "default": {"BACKEND": "plumbing.cache.DegradingRedisCache", "LOCATION": redis_url,
                    "KEY_PREFIX": key_prefix, "TIMEOUT": 300, "OPTIONS": sockets},
        LIMITS_CACHE: {"BACKEND": "plumbing.cache.FailoverCache", "LOCATION": redis_url,
                       "KEY_PREFIX": f"{key_prefix}-limits", "TIMEOUT": 600,
                       "OPTIONS": {"PRIMARY": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": redis_url,
                                               "OPTIONS": sockets}}},
    }
