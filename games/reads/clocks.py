"""Time limits: deadlines, and vacations that stop a player's clocks.

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
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import list_stamps
from games.models import Game, Seat, Vacation

ALLOWANCE_PER_YEAR = timedelta(days=21)
# The longest vacation asked for at once: this year's allowance and next year's.
MAX_DAYS = 2 * ALLOWANCE_PER_YEAR.days


def push_back(since: datetime, allowance: timedelta, periods: Iterable[tuple]) -> datetime:
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


def deadline_for(user_id: int, since: datetime, move_days: int | None) -> datetime | None:
    """The deadline of a turn that came to ``user_id`` at ``since`` (None without a limit)."""
    if not move_days:
        return None
    periods = Vacation.objects.filter(user_id=user_id, end__gt=since).values_list("start", "end")
    return push_back(since, timedelta(days=move_days), periods)


def refresh_deadlines(user) -> int:
    """Compute again the deadlines of the seats of ``user`` that a game waits for; how many
    changed.

    Each under its game's row lock, after the vacation change has committed: a move that
    commits meanwhile either saw the vacation (same result) or is recomputed here.
    """
    changed = 0
    ids = Seat.objects.filter(
        user=user, deciding=True, game__status__in=Game.ACTIVE, game__move_days__isnull=False
    ).values_list("game_id", flat=True)
    for game_id in list(ids):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or not game.is_active or game.move_days is None:
                continue
            seat = Seat.objects.filter(game=game, user=user, deciding=True).first()
            if seat is None:
                continue  # the wait ended in the meantime: the move set the deadline
            deadline = deadline_for(user.pk, seat.deciding_since, game.move_days)
            if deadline != seat.deadline:
                Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
                list_stamps.games_changed([game_id])
                changed += 1
    return changed


# Vacations -------------------------------------------------------------------------------------


def current_vacation(user, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, start__lte=now, end__gt=now).first()


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def _overlap(start: datetime, end: datetime, lo: datetime, hi: datetime) -> timedelta:
    return max(timedelta(0), min(end, hi) - max(start, lo))


def used_in_year(user, year: int, exclude: int | None = None) -> timedelta:
    lo, hi = _year_bounds(year)
    periods = Vacation.objects.filter(user=user, start__lt=hi, end__gt=lo).exclude(pk=exclude)
    return sum((_overlap(v.start, v.end, lo, hi) for v in periods), timedelta(0))


def time_left(user, year: int | None = None) -> timedelta:
    """Vacation time left in ``year`` (this year by default)."""
    year = year or timezone.now().astimezone(UTC).year
    return max(timedelta(0), ALLOWANCE_PER_YEAR - used_in_year(user, year))


def do_start_vacation(user, days: int, now: datetime | None = None) -> Vacation:
    """``user`` goes on vacation from now for ``days`` days (within what is left this year,
    counted in each calendar year the vacation touches)."""
    now = now or timezone.now()
    if not isinstance(days, int) or days < 1:
        raise ValidationError(_("A vacation lasts at least one day"))
    if days > MAX_DAYS:
        raise ValidationError(_("A vacation lasts at most %(most)d days") % {"most": MAX_DAYS})
    end = now + timedelta(days=days)
    with transaction.atomic():
        # One vacation at a time per user: lock the user's row while checking.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Vacation.objects.filter(user=user, end__gt=now).exists():
            raise ValidationError(_("You are already on vacation"))
        for year in range(now.astimezone(UTC).year, end.astimezone(UTC).year + 1):
            lo, hi = _year_bounds(year)
            if used_in_year(user, year) + _overlap(now, end, lo, hi) > ALLOWANCE_PER_YEAR:
                left = time_left(user, year)
                raise ValidationError(
                    ngettext(
                        "That is more than your vacation left in %(year)d: %(days)d day",
                        "That is more than your vacation left in %(year)d: %(days)d days",
                        left.days,
                    )
                    % {"year": year, "days": left.days}
                )
        vacation = Vacation.objects.create(user=user, start=now, end=end)
    refresh_deadlines(user)
    return vacation


def do_stop_vacation(user, now: datetime | None = None) -> Vacation | None:
    """``user`` is back: the vacation ends now (the unused days are not counted)."""
    now = now or timezone.now()
    with transaction.atomic():
        vacation = (
            Vacation.objects.select_for_update()
            .filter(user=user, start__lte=now, end__gt=now)
            .first()
        )
        if vacation is None:
            return None
        if now - vacation.start < timedelta(seconds=1):
            vacation.delete()
        else:
            vacation.end = now
            vacation.save(update_fields=["end"])
    refresh_deadlines(user)
    return vacation


def vacation_end_subquery(user, now: datetime) -> Subquery:
    """For annotating rows with the end of their user's current vacation (None if none)."""
    current = Vacation.objects.filter(user=user, start__lte=now, end__gt=now)
    return Subquery(current.values("end")[:1])


def on_vacation_until(user_ids: Iterable[int], now: datetime | None = None) -> dict[int, datetime]:
    """The end of the current vacation of each of these users who is on one."""
    now = now or timezone.now()
    rows = Vacation.objects.filter(user_id__in=list(user_ids), start__lte=now, end__gt=now)
    return dict(rows.values_list("user_id", "end"))
