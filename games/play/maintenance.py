"""Maintenance and the games' clocks: nobody loses on time while the site is read-only.

While maintenance is on (``guildhall_site.upkeep.maintenance``) the sweeps that time out
waits and send reminders and deadline warnings skip, and the computer players wait (their
moves are changes like any other). The clocks stand still in every maintenance window
(``games.reads.clocks.deadline_for`` counts the windows as it counts vacations), so when it
ends, ``do_end_maintenance`` computes again the deadline of every wait that began before its
end: a deadline that fell in the window, or after it, moves back by the time the clock
stood still. Whatever else keeps time above the games (a tournament's rounds) hears
``ending`` just before, while its sweeps still wait, and moves its own deadlines in the
transaction that ends the window: once, even if ending is tried again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from games.models import Game, Seat
from games.reads import clocks, list_stamps
from guildhall_site.upkeep import maintenance
from guildhall_site.upkeep.models import MaintenanceWindow

# Sent with ``start`` and ``end`` (the window of the maintenance going on, as it ends) just
# before it does: each receiver moves back what it times (their sweeps wait until the
# switch, so nothing is decided at a deadline about to move) and returns (what it moved,
# how many).
ending = Signal()


@dataclass(frozen=True)
class Ended:
    window: MaintenanceWindow
    deadlines_moved: int
    # What the receivers of ``ending`` moved: how many of each.
    also_moved: dict[str, int]


def do_start_maintenance(
    message: str = "", until: datetime | None = None
) -> maintenance.Maintenance:
    return maintenance.switch_on(message=message, until=until)


def do_end_maintenance(now: datetime | None = None) -> Ended | None:
    """End the maintenance going on and extend the clocks of the waits it held up, and
    whatever the receivers of ``ending`` time; None when none was on."""
    end = now or timezone.now()
    # What the receivers move and the window's end commit together, under the window's row
    # lock: an end that fails part way has moved nothing, and of two ends at once the second
    # finds none going on. (The games' clocks below are computed again from the windows, so
    # they need neither.)
    with transaction.atomic():
        window = MaintenanceWindow.objects.select_for_update().filter(end__isnull=True).first()
        if window is None:
            return None
        also: dict[str, int] = {}
        for _receiver, answer in ending.send(sender=Ended, start=window.start, end=end):
            what, moved = cast(tuple[str, int], answer)
            also[what] = also.get(what, 0) + moved
        maintenance.end_window(window, end)
    maintenance.tell_off()
    assert window.end is not None  # end_window ended it
    return Ended(window, extend_clocks(window.end), also)


def extend_clocks(before: datetime) -> int:
    """Compute again the deadlines of the waits that began before ``before`` (a window's
    end) in games with a time limit; how many moved.

    Each game under its row lock (the order of every action on a game), as vacations do
    (``games.play.vacations``): a move that ends a wait meanwhile either committed first
    (its seat no longer decides, or decides from a new time: computed again here, to the
    same deadline) or waits for this lock.
    """
    game_ids = (
        Seat.objects.filter(
            deciding=True,
            deciding_since__lt=before,
            game__status__in=Game.ACTIVE,
            game__move_days__isnull=False,
        )
        .values_list("game_id", flat=True)
        .distinct()
    )
    moved = 0
    for game_id in list(game_ids):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or not game.is_active or game.move_days is None:
                continue
            changed = False
            for seat in Seat.objects.filter(game=game, deciding=True, deciding_since__lt=before):
                assert seat.deciding_since is not None  # filtered on
                deadline = clocks.deadline_for(seat.user_id, seat.deciding_since, game.move_days)
                if deadline != seat.deadline:
                    Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
                    moved += 1
                    changed = True
            if changed:
                list_stamps.games_changed([game_id])
    return moved


def paused() -> bool:
    """Whether the clocks' sweeps and the computer players wait now."""
    return maintenance.is_on()
