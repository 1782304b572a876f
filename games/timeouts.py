"""The sweep of seats whose time ran out: the computer decides for them
(``services.do_time_out``). Apart from ``games.tasks`` because it drives the services,
which queue those tasks."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from games import services
from games.models import Game, Seat

log = logging.getLogger(__name__)

# At most this many expired waits per sweep (the next sweep, a minute later, goes on).
TIMEOUT_BATCH = 1000


# Named as when it lived in games.tasks, for beat schedules and messages already queued.
@shared_task(name="games.tasks.sweep_timeouts")
def sweep_timeouts(limit: int = TIMEOUT_BATCH) -> int:
    """Time out every wait whose deadline has passed; how many were timed out.

    The partial index on ``Seat.deadline`` finds them; ``services.do_time_out`` claims each
    with a conditional update, so two sweeps running at once (two beat ticks, two workers)
    act once.
    """
    now = timezone.now()
    expired = list(
        Seat.objects.filter(deadline__lte=now, deciding=True, game__status__in=Game.ACTIVE)
        .order_by("deadline")
        .values_list("game_id", "number", "wait_version")[:limit]
    )
    done = 0
    for game_id, number, wait_version in expired:
        try:
            if services.do_time_out(game_id, number, wait_version, now) is not None:
                done += 1
        except Exception:
            # One broken game must not stop the others; it is tried again next minute.
            log.exception("Could not time out seat %s of game %s", number, game_id)
    if expired:
        log.info("Time-out sweep: %s of %s expired waits timed out", done, len(expired))
    return done
