"""Quiet hours: the hours of the night, in a player's own time zone, during which their
clocks stand still and no notice reaches them (``games.reads.clocks`` and
``games.notifications.delivery`` ask here).

A player chooses a start and an end hour (``User.quiet_from``, ``User.quiet_until``, whole
hours, the end on the next day when it is not later than the start); at most ``MAX_HOURS``
a day, so that a game can never stall for long, and changed at most once in ``CHANGE_EVERY``
so that moving them along with the clock buys no time. Nights follow the zone's daylight
saving time: a night is from its start hour to its end hour as the clock on the wall shows.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from accounts.models import User

MAX_HOURS = 10
CHANGE_EVERY = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class QuietHours:
    start: int  # the hour the night begins, 0-23
    end: int  # the hour it ends, 0-23 (the next day when not after start)
    zone: str  # an IANA time zone name

    @property
    def hours(self) -> int:
        return length(self.start, self.end)


def length(start: int, end: int) -> int:
    """How many hours a night from ``start`` to ``end`` lasts (24 for start == end)."""
    return (end - start) % 24 or 24


def of(user: User) -> QuietHours | None:
    """``user``'s quiet hours, None without."""
    start, end = getattr(user, "quiet_from", None), getattr(user, "quiet_until", None)
    if start is None or end is None:
        return None
    return QuietHours(start, end, user.time_zone)


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _night(quiet: QuietHours, day: date, zone: zoneinfo.ZoneInfo) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(quiet.start), tzinfo=zone)
    end_day = day if quiet.end > quiet.start else day + timedelta(days=1)
    end = datetime.combine(end_day, time(quiet.end), tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC)


def nights(quiet: QuietHours | None, lo: datetime, hi: datetime) -> list[tuple[datetime, datetime]]:
    """The nights (UTC start, end) that overlap [lo, hi), in order."""
    if quiet is None or hi <= lo:
        return []
    zone = _zone(quiet.zone)
    day = lo.astimezone(zone).date() - timedelta(days=1)
    last = hi.astimezone(zone).date()
    out = []
    while day <= last:
        start, end = _night(quiet, day, zone)
        if end > lo and start < hi and end > start:
            out.append((start, end))
        day += timedelta(days=1)
    return out


def asleep_until(quiet: QuietHours | None, now: datetime) -> datetime | None:
    """The end of the night ``now`` falls in (None when the player is awake)."""
    for start, end in nights(quiet, now, now + timedelta(seconds=1)):
        if start <= now < end:
            return end
    return None
