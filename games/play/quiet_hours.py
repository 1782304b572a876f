"""Setting a player's quiet hours (``accounts.quiet_hours``): checked, stored, and the
deadlines of the games that wait for them computed again (as a vacation does)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.quiet_hours import CHANGE_EVERY, MAX_HOURS, length
from games.play.errors import Limited
from games.play.vacations import refresh_deadlines


def do_set_quiet_hours(
    user: User, start: int | None, end: int | None, now: datetime | None = None
) -> None:
    """``user``'s nights are from ``start`` to ``end`` o'clock (both None: no quiet hours).

    At most MAX_HOURS a night; set or changed at most once in CHANGE_EVERY (``Limited``), so
    that moving the night along with the clock cannot keep a clock still (turned off at any
    time)."""
    now = now or timezone.now()
    if (start is None) != (end is None):
        raise ValidationError(_("Give both the hour your night begins and the hour it ends"))
    if start is not None and end is not None:
        if not (0 <= start < 24 and 0 <= end < 24):
            raise ValidationError(_("An hour is a whole number from 0 to 23"))
        if start == end or length(start, end) > MAX_HOURS:
            raise ValidationError(
                _("Quiet hours last from one to %(most)d hours a day") % {"most": MAX_HOURS}
            )
    with transaction.atomic():
        row = get_user_model().objects.select_for_update().get(pk=user.pk)
        if (row.quiet_from, row.quiet_until) == (start, end):
            return
        # Turning them off only makes clocks run: always allowed.
        since = None if row.quiet_changed_at is None else now - row.quiet_changed_at
        if start is not None and since is not None and since < CHANGE_EVERY:
            wait = CHANGE_EVERY - since
            raise Limited(
                _("You may change your quiet hours once a day"), int(wait.total_seconds()) + 1
            )
        row.quiet_from, row.quiet_until, row.quiet_changed_at = start, end, now
        row.save(update_fields=["quiet_from", "quiet_until", "quiet_changed_at"])
    user.quiet_from, user.quiet_until, user.quiet_changed_at = start, end, now
    refresh_deadlines(user)
