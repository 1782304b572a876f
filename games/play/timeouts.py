"""Time limits: a seat whose time ran out has its decisions made by the computer
(``do_time_out``), and the sweep that finds them every minute (``sweep_timeouts``)."""

from __future__ import annotations

import logging
import random
from datetime import datetime

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.core.match import RESIGN
from games.models import Game, Seat
from games.play import events, maintenance
from games.play.change import MAX_AUTOMATIC_DECISIONS, Change, lock_game
from games.reads import clocks, list_stamps
from guildhall_site.ops import metrics

log = logging.getLogger(__name__)

# After this many waits in a row played by the computer because time ran out, the seat is
# abandoned: it resigns (ranks last) and the computer plays it to the end.
TIMEOUTS_TO_ABANDON = 3
# Site events in a move's events (the games ignore them; games.reads.movelog shows them).
TIMEOUT_EVENT = "timeout"
ABANDONED_EVENT = "abandoned"


def do_time_out(
    game_id: int, number: int, wait_version: int, now: datetime | None = None
) -> Game | None:
    """Seat ``number`` of game ``game_id``, in its wait that began at ``wait_version``, ran
    out of time: the computer makes its decisions until the game no longer waits for it
    (the game's ``choose``, seeded by the game and the wait, so a retry plays the same), as
    automatic moves marked by a ``timeout`` event. The third time-out in a row abandons the
    seat instead: it resigns and the computer plays it on. Returns the game, or None when
    there was nothing to do (the player moved, another worker got there first, or a vacation
    pushed the deadline back).

    Claimed with a conditional update (healthchecks' sendalerts): of two sweeps that saw the
    same expired wait, only the one whose update changed the row acts; the other waits for
    the first's lock, then its update matches nothing.

    Locks in the one order of every action on a game (``games.play.moves``): the game's row
    first, then its seats. A time-out that locked the seat first and a concession (game,
    then seats) could each wait for the other's row: a deadlock.
    """
    now = now or timezone.now()
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            return None
        game = lock_game(game_id)
        claimed = Seat.objects.filter(
            game_id=game_id,
            number=number,
            wait_version=wait_version,
            deciding=True,
            deadline__lte=now,
            game__status__in=Game.ACTIVE,
        ).update(deadline=None)
        if not claimed:
            return None
        change = Change(game)
        seat = change.seats[number]
        # A vacation may have started after the sweep read the deadline.
        assert seat.deciding_since is not None  # claimed above as deciding
        deadline = clocks.deadline_for(seat.user_id, seat.deciding_since, game.move_days)
        if deadline is not None and deadline > now:
            Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
            list_stamps.users_changed(s.user_id for s in change.seats.values())
            return None
        timeouts = seat.consecutive_timeouts + 1
        marker = {"type": TIMEOUT_EVENT, "player": number}
        if timeouts >= TIMEOUTS_TO_ABANDON and not seat.computer_plays:
            abandoned = {"type": ABANDONED_EVENT, "player": number}
            change.apply({"kind": RESIGN}, number, automatic=True, marks=[marker, abandoned])
            seat.abandoned = True
        else:
            rand = random.Random(f"{game.pk}:{game.version}:timeout")
            for _step in range(MAX_AUTOMATIC_DECISIONS):
                # This wait only: not the next round of a simultaneous game, which the
                # seat's last choice may have opened.
                if number not in change.kind.deciders(change.state):
                    break
                if change.waits.seat(number).restarted:
                    break
                action = change.kind.choose(change.state, number, rand)
                change.apply(action, number, automatic=True, marks=[marker])
        change.play_computer_seats()
        Seat.objects.filter(pk=seat.pk).update(
            consecutive_timeouts=timeouts, abandoned=seat.abandoned
        )
        game = change.save()
        metrics.timeout_applied(game.kind, abandoned=seat.abandoned)
        if seat.abandoned:
            events.abandoned(game_id, number)
        return game


# At most this many expired waits per sweep (the next sweep, a minute later, goes on).
TIMEOUT_BATCH = 1000


# Named as when it lived in games.tasks, for beat schedules and messages already queued.
@shared_task(name="games.tasks.sweep_timeouts")
def sweep_timeouts(limit: int = TIMEOUT_BATCH) -> int:
    """Time out every wait whose deadline has passed; how many were timed out.

    The partial index on ``Seat.deadline`` finds them; ``do_time_out`` claims each
    with a conditional update, so two sweeps running at once (two beat ticks, two workers)
    act once. Skipped during maintenance: nobody could move, so nobody runs out of time
    (games.play.maintenance extends the clocks when it ends).
    """
    if maintenance.paused():
        return 0
    now = timezone.now()
    expired = list(
        Seat.objects.filter(deadline__lte=now, deciding=True, game__status__in=Game.ACTIVE)
        .order_by("deadline")
        .values_list("game_id", "number", "wait_version")[:limit]
    )
    done = 0
    for game_id, number, wait_version in expired:
        try:
            if do_time_out(game_id, number, wait_version, now) is not None:
                done += 1
        except Exception:
            # One broken game must not stop the others; it is tried again next minute.
            log.exception("Could not time out seat %s of game %s", number, game_id)
    if expired:
        log.info("Time-out sweep: %s of %s expired waits timed out", done, len(expired))
    return done
