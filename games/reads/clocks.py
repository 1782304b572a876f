"""Time limits: deadlines, and vacations that stop a player's clocks (taken and ended by
``games.play.vacations``).

A game with a time per move gives each seat it waits for ``move_days`` days of clock from
the moment its wait began (``Seat.deciding_since``). The clock stands still during the
player's vacations, so the deadline is the moment the clock has run that long
(``push_back``). ``Seat.deadline`` stores it for the sweep's indexed query; it is computed
afresh (never shifted by a difference) whenever a wait begins and whenever the player starts
or stops a vacation, so that two of these racing each other cannot push a deadline twice.

A user may take up to ``ALLOWANCE_PER_YEAR`` of vacation per calendar year (UTC). A vacation
starts now and has a planned end; coming back early ends it at once and gives the unused days
back. While a user is on vacation the others see "on vacation until ...", and the reminders
and deadline warnings for that user wait.

Quiet hours (``accounts.quiet_hours``) stop a player's clocks the same way, every night:
``clock_end`` adds the player's nights to their vacations.
The site's maintenance windows (``guildhall_site.upkeep``) stop everyone's clocks likewise:
``deadline_for`` counts them as vacations (games.play.maintenance).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Subquery
from django.utils import timezone

from accounts import quiet_hours
from accounts.models import User
from accounts.quiet_hours import QuietHours
from games.models import Vacation
from guildhall_site.upkeep import maintenance

ALLOWANCE_PER_YEAR = timedelta(days=21)
# The longest vacation asked for at once: this year's allowance and next year's.
MAX_DAYS = 2 * ALLOWANCE_PER_YEAR.days


def push_back(
    since: datetime, allowance: timedelta, periods: Iterable[tuple[datetime, datetime]]
) -> datetime:
    """When a clock started at ``since`` with ``allowance`` runs out, standing still during
    ``periods`` ((start, end) pairs that do not overlap)."""
    t, left = since, allowance
    for start, end in sorted(periods):
        if end <= t:
            continue
        start = max(start, t)
        if start >= t + left:
            break
        left -= start - t
        t = end
    return t + left


def clock_end(
    quiet: QuietHours | None,
    since: datetime,
    allowance: timedelta,
    vacations: Iterable[tuple[datetime, datetime]],
) -> datetime:
    """When a clock of ``allowance`` started at ``since`` runs out, standing still during
    the ``vacations`` and the player's ``quiet`` nights (which may overlap them)."""
    periods = [(a, b) for a, b in vacations if b > since]
    away = sum((b - max(a, since) for a, b in periods), timedelta(0))
    # Nights take at most MAX_HOURS of each day: the clock runs out before this horizon.
    horizon = since + allowance * 24 / (24 - quiet_hours.MAX_HOURS) + away + timedelta(days=2)
    return push_back(since, allowance, periods + quiet_hours.nights(quiet, since, horizon))


def quiet_of(user_id: int) -> QuietHours | None:
    user = (
        get_user_model()
        .objects.filter(pk=user_id)
        .only("quiet_from", "quiet_until", "time_zone")
        .first()
    )
    return None if user is None else quiet_hours.of(user)


def deadline_for(user_id: int, since: datetime, move_days: int | None) -> datetime | None:
    """The deadline of a turn that came to ``user_id`` at ``since`` (None without a limit).
    The clock stands still in the player's vacations and in the site's maintenance windows
    (games.play.maintenance), which count as everyone's vacation."""
    if not move_days:
        return None
    vacations = Vacation.objects.filter(user_id=user_id, end__gt=since).values_list("start", "end")
    periods = [*vacations, *maintenance.pauses_since(since)]
    return clock_end(quiet_of(user_id), since, timedelta(days=move_days), periods)


# Vacations -------------------------------------------------------------------------------------


def current_vacation(user: User, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, start__lte=now, end__gt=now).first()


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def _overlap(start: datetime, end: datetime, lo: datetime, hi: datetime) -> timedelta:
    return max(timedelta(0), min(end, hi) - max(start, lo))


def used_in_year(user: User, year: int, exclude: int | None = None) -> timedelta:
    lo, hi = _year_bounds(year)
    periods = Vacation.objects.filter(user=user, start__lt=hi, end__gt=lo)
    if exclude is not None:  # (exclude(pk=None) excluded nothing: a pk is never NULL)
        periods = periods.exclude(pk=exclude)
    return sum((_overlap(v.start, v.end, lo, hi) for v in periods), timedelta(0))


def time_left(user: User, year: int | None = None) -> timedelta:
    """Vacation time left in ``year`` (this year by default)."""
    year = year or timezone.now().astimezone(UTC).year
    return max(timedelta(0), ALLOWANCE_PER_YEAR - used_in_year(user, year))


def vacation_end_subquery(user: User, now: datetime) -> Subquery:
    """For annotating rows with the end of their user's current vacation (None if none)."""
    current = Vacation.objects.filter(user=user, start__lte=now, end__gt=now)
    return Subquery(current.values("end")[:1])


def on_vacation_until(user_ids: Iterable[int], now: datetime | None = None) -> dict[int, datetime]:
    """The end of the current vacation of each of these users who is on one."""
    now = now or timezone.now()
    rows = Vacation.objects.filter(user_id__in=list(user_ids), start__lte=now, end__gt=now)
    return dict(rows.values_list("user_id", "end"))
