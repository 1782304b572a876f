"""What this process remembers for a moment of the upkeep's state, in front of the cache.

Every page asks whether maintenance is on, which announcements to show and whether its
player's address bounced: remembered here for ``SECONDS``, these cost a page neither a query
nor a trip to Redis, even right after the cache was emptied. The price: a switch made in
another process is seen here up to ``SECONDS`` later (one made in this process, at once).
"""

from __future__ import annotations

import time
from typing import Any

SECONDS = 2.0
# Past this many entries (addresses), a memo starts again empty rather than grow.
MAX_ENTRIES = 10_000

MISSING = object()
_memos: list[Memo] = []


class Memo:
    def __init__(self) -> None:
        self._items: dict[str, tuple[float, Any]] = {}
        _memos.append(self)

    def get(self, key: str) -> Any:
        found = self._items.get(key)
        if found is None or found[0] < time.monotonic():
            return MISSING
        return found[1]

    def set(self, key: str, value: Any) -> None:
        if len(self._items) >= MAX_ENTRIES:
            self._items = {}
        self._items[key] = (time.monotonic() + SECONDS, value)

    def forget(self, key: str) -> None:
        self._items.pop(key, None)


def clear_all() -> None:
    """Forget everything (the tests, between two: as they empty the cache)."""
    for memo in _memos:
        memo._items = {}
