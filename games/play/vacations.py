"""Vacations: a player stops their clocks for a few days (``games.reads.clocks`` says how
much is left and computes the deadlines); the deadlines of their waits follow at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.models import Game, Seat, Vacation
from games.reads import list_stamps
from games.reads.clocks import (
    ALLOWANCE_PER_YEAR,
    MAX_DAYS,
    _overlap,
    _year_bounds,
    deadline_for,
    time_left,
    used_in_year,
)


def do_start_vacation(user: User, days: int, now: datetime | None = None) -> Vacation:
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


def do_stop_vacation(user: User, now: datetime | None = None) -> Vacation | None:
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


def refresh_deadlines(user: User) -> int:
    """Compute again the deadlines of the seats of ``user`` that a game waits for; how many
    changed.

    Each under its game's row lock, after the vacation change has committed, in every
    active game with a clock, not only those that wait for the user as this reads them: a
    move in flight (which read the user's vacations with the seats, ``games.play.seats``)
    holds that lock, so a wait it begins is seen here once it has committed. A move either
    saw the vacation (same result) or is recomputed here.
    """
    changed = 0
    ids = Seat.objects.filter(
        user=user, game__status__in=Game.ACTIVE, game__move_days__isnull=False
    ).values_list("game_id", flat=True)
    for game_id in list(ids):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or not game.is_active or game.move_days is None:
                continue
            seat = Seat.objects.filter(game=game, user=user, deciding=True).first()
            if seat is None:
                continue  # the wait ended in the meantime: the move set the deadline
            assert seat.deciding_since is not None  # a deciding seat's wait has begun
            deadline = deadline_for(user.pk, seat.deciding_since, game.move_days)
            if deadline != seat.deadline:
                Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
                list_stamps.games_changed([game_id])
                changed += 1
    return changed
