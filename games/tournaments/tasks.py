"""The tournaments' Celery tasks: the platform's hook when a game ends, the notices, and the
sweep (beat, every minute) that closes sign-ups, adjudicates rounds past their deadline,
withdraws players who timed out twice, and catches what a lost task left behind."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from games.play import maintenance
from games.tournaments import notices, services

log = logging.getLogger(__name__)


# The name games.play.events.GAME_ENDED queues after every game's end.
@shared_task(name="games.tasks.game_ended", ignore_result=True)
def game_ended(game_id: int) -> None:
    services.do_game_ended(game_id)


@shared_task(name="tournaments.send_notices", ignore_result=True)
def send_notices(ids: list[int]) -> list[str]:
    return _deliver_each(ids)


def _deliver_each(ids: list[int], now: datetime | None = None) -> list[str]:
    outcomes = []
    for pk in ids:
        try:
            outcomes.append(notices.deliver(pk, now))
        except SoftTimeLimitExceeded:
            raise  # the hard limit follows: the sweep takes the rest
        except Exception:
            # One notice that raised (it waits for the sweep, after the backoff) holds up
            # none of the others.
            log.exception("Tournament notice %s raised: the sweep tries it again", pk)
            outcomes.append("error")
    return outcomes


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep(now: datetime | None = None) -> int:
    """Everything due in every tournament; how many were looked at. Skipped during
    maintenance: nobody can move, so no round may be decided at its deadline (the rounds'
    deadlines move back as it ends: ``games.tournaments.maintenance``)."""
    if maintenance.paused():
        return 0
    now = now or timezone.now()
    due = services.due_tournaments(now)
    for action, pk in due:
        try:
            if action == "close":
                services.do_close_signup(pk, now)
            else:
                services.do_update(pk, now)
        except Exception:
            # One broken tournament must not stop the others; the next sweep tries again.
            log.exception("Could not move tournament %s on", pk)
    _deliver_each(notices.due(now), now)
    return len(due)
