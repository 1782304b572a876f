"""Maintenance mode: the site answers reads and refuses changes (moves, forms, API writes)
with 503 and Retry-After, every page says so, and the workers pause what would make a player
lose on time (games.play.maintenance extends the clocks when it ends).

The state is a row (``MaintenanceWindow``), so that every process sees it whatever runs the
site: the web and events processes and the workers on Redis, or the embedded default on
SQLite. Each process reads it through the cache (``CACHE_KEY``) and remembers it for a
moment (``memo``): with Redis, switching changes the shared entry at once and every process
notices within ``memo.SECONDS``; with a cache in each process's memory (no REDIS_URL),
within ``cache_seconds()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from guildhall_site.upkeep.memo import MISSING, Memo
from guildhall_site.upkeep.models import MaintenanceWindow

CACHE_KEY = "upkeep:maintenance"
_memo = Memo()
PAUSES_KEY = "upkeep:maintenance-pauses"
# What Retry-After says without a planned end, or once it has passed; and at most.
RETRY_SECONDS = 300
MAX_RETRY_SECONDS = 3600


def cache_seconds() -> int:
    """How long a process trusts the cached state: Redis is shared and each switch writes
    it, so long; a process's own memory learns of a switch in another process only when its
    entry runs out, so a few seconds."""
    return 300 if settings.REDIS_URL else 5


@dataclass(frozen=True)
class Maintenance:
    since: datetime
    message: str
    until: datetime | None

    def retry_after(self, now: datetime | None = None) -> int:
        """Whole seconds a client should wait: until the planned end, else RETRY_SECONDS."""
        now = now or timezone.now()
        if self.until is None or self.until <= now:
            return RETRY_SECONDS
        return max(1, min(MAX_RETRY_SECONDS, math.ceil((self.until - now).total_seconds())))


def _of(window: MaintenanceWindow) -> Maintenance:
    return Maintenance(since=window.start, message=window.message, until=window.until)


def current() -> Maintenance | None:
    """The maintenance going on, or None: from this process's memo, the cache, else one
    query."""
    stored = _memo.get(CACHE_KEY)
    if stored is MISSING:
        stored = cache.get(CACHE_KEY)
        if stored is None:
            window = MaintenanceWindow.objects.filter(end__isnull=True).first()
            stored = {} if window is None else vars(_of(window))
            cache.set(CACHE_KEY, stored, cache_seconds())
        _memo.set(CACHE_KEY, stored)
    return Maintenance(**stored) if stored else None


def _remember(stored: dict[str, Any]) -> None:
    cache.set(CACHE_KEY, stored, cache_seconds())
    _memo.set(CACHE_KEY, stored)


def is_on() -> bool:
    return current() is not None


def switch_on(message: str = "", until: datetime | None = None) -> Maintenance:
    """Start maintenance, or change the message and planned end of the one going on."""
    with transaction.atomic():
        window = MaintenanceWindow.objects.select_for_update().filter(end__isnull=True).first()
        if window is None:
            window = MaintenanceWindow.objects.create(message=message, until=until)
        else:
            window.message, window.until = message, until
            window.save(update_fields=["message", "until"])
    _remember(vars(_of(window)))
    return _of(window)


def switch_off(now: datetime | None = None) -> MaintenanceWindow | None:
    """End the maintenance going on; the window it was (None when none was on). The games'
    clocks are extended by games.play.maintenance, which ends it the same way in a
    transaction of its own."""
    with transaction.atomic():
        window = MaintenanceWindow.objects.select_for_update().filter(end__isnull=True).first()
        if window is not None:
            end_window(window, now or timezone.now())
    tell_off()
    return window


def end_window(window: MaintenanceWindow, now: datetime) -> None:
    """Write the end of ``window``, locked in the caller's transaction; ``tell_off`` once it
    has committed."""
    window.end, window.ongoing = max(now, window.start), None
    window.save(update_fields=["end", "ongoing"])


def tell_off() -> None:
    """Every process learns that no maintenance is on, and of the windows' new list (after
    the commit: a rolled back end must not be told)."""
    _remember({})
    cache.delete(PAUSES_KEY)


def pauses_since(since: datetime) -> list[tuple[datetime, datetime]]:
    """The maintenance windows ended after ``since``: the games' clocks stood still in them.
    Read from the cache (every window, few), so that a new wait's deadline costs no query."""
    windows = cache.get(PAUSES_KEY)
    if windows is None:
        windows = list(
            MaintenanceWindow.objects.filter(end__isnull=False)
            .order_by("start")
            .values_list("start", "end")
        )
        cache.set(PAUSES_KEY, windows, cache_seconds())
    return [(start, end) for start, end in windows if end > since]
