"""The cache: Redis, and a cache in the process while Redis cannot be reached.

Everything the site keeps in the cache can be lost: the API's throttles and allauth's login
rate limits. An outage of Redis must not turn every API request and every login into a 500,
so each operation that cannot reach Redis is done on a cache of this process instead, with a
warning in the log. The limits then count per process, which keeps them working (more
loosely) rather than failing open altogether. After a failure, Redis is left alone for
``RETRY_AFTER`` seconds, so that requests do not each wait for a dead server's timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

# Only the failures of reaching the server: any other error is a bug and must be seen.
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)
RETRY_AFTER = 5.0


# The cache's operations, called by name: what each takes and gives is RedisCache's own.
def _with_fallback(name: str) -> Callable[..., Any]:
    def method(self: RedisWithLocalFallback, *args: Any, **kwargs: Any) -> Any:
        return self._call(name, *args, **kwargs)

    method.__name__ = name
    return method


class RedisWithLocalFallback(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = {**params, "OPTIONS": dict(params.get("OPTIONS") or {})}
        # How many entries the process keeps while Redis is away: few for big ones (pages).
        max_entries = params["OPTIONS"].pop("FALLBACK_MAX_ENTRIES", 10_000)
        super().__init__(server, params)
        self._local = LocMemCache(f"fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": max_entries}})
        self._down_until: float | None = None  # None while Redis answers
        self._lock = threading.Lock()

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        down_until = self._down_until
        if down_until is None or time.monotonic() >= down_until:
            try:
                result = getattr(super(), name)(*args, **kwargs)
            except UNREACHABLE as error:
                self._went_down(error)
            else:
                if down_until is not None:
                    self._came_back()
                return result
        return getattr(self._local, name)(*args, **kwargs)

    def _went_down(self, error: Exception) -> None:
        with self._lock:
            was_up = self._down_until is None
            self._down_until = time.monotonic() + RETRY_AFTER
        if was_up:
            # Once per outage and process, not once per request.
            log.warning("Redis cache unreachable (%s): using this process's cache", error)

    def _came_back(self) -> None:
        with self._lock:
            self._down_until = None
        log.warning("Redis cache reachable again")

    add = _with_fallback("add")
    get = _with_fallback("get")
    set = _with_fallback("set")
    touch = _with_fallback("touch")
    delete = _with_fallback("delete")
    get_many = _with_fallback("get_many")
    has_key = _with_fallback("has_key")
    incr = _with_fallback("incr")
    set_many = _with_fallback("set_many")
    delete_many = _with_fallback("delete_many")
    clear = _with_fallback("clear")
