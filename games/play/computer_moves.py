"""Computer players' moves, in Celery tasks (never in the web request that made it their
turn, unless tasks run inline: the embedded default, without a broker).

After every commit that leaves a computer player's seat deciding (or a person's seat the
computer stands in for, ``games.play.stand_ins``), the services queue
``play_computer_turn(game, version)`` (``games.play.events.computer_turn``). The task thinks
outside any transaction (the "strong" computer searches for about a second), then submits
its action through the services at that version, like a player's move: a task that comes
late or twice finds the game moved on and does nothing (the version check refuses a stale
move). Its commit queues the next task if a computer player decides again, so several
computer moves in a row each reach the log as moves of their own.

A task that is never queued (the broker was down at that moment) or lost is caught by
``sweep_computer_turns``, every minute: a computer seat that has been deciding for
longer than ``STUCK_AFTER`` is queued again.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.utils import timezone

from games.core import IllegalAction
from games.models import Game, Seat
from games.play import errors, maintenance, moves
from guildhall_site.ops import metrics

log = logging.getLogger(__name__)

# A computer seat deciding for longer than this has lost its task: queue it again.
STUCK_AFTER = timedelta(seconds=60)


def _computer_seat(now: datetime) -> Q:
    """A computer player's seat, or a person's the computer stands in for now
    (``games.play.stand_ins``)."""
    stand_in = ~Q(stand_in="") & (Q(stand_in_until__isnull=True) | Q(stand_in_until__gt=now))
    return ~Q(computer_level="") | stand_in


@shared_task(name="games.play_computer_turn", ignore_result=True)
def play_computer_turn(game_id: int, version: int) -> bool:
    """One decision of the first computer seat the game waits for at ``version``; whether
    a move was made. During maintenance the computer waits as the people do: the sweep
    queues its turn again once maintenance has ended."""
    if maintenance.paused():
        return False
    game = Game.objects.filter(pk=game_id, version=version, status__in=Game.ACTIVE).first()
    if game is None:
        return False  # moved on, over, or gone: a later task (or none) has the turn
    seat = (
        Seat.objects.filter(game=game, deciding=True)
        .filter(_computer_seat(timezone.now()))
        .select_related("user")
        .order_by("number")
        .first()
    )
    if seat is None:
        return False
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    # Private records (parts of a pending choice) leave the version as it was: the task
    # also knows how many there were when it thought.
    drafts = len(game.drafts)
    # Seeded by the game, the version and the seat: a retried task thinks the same.
    rand = random.Random(f"{game.pk}:{version}:{drafts}:{seat.number}:{game.seed}")
    # A computer player's strength, or the one its player chose for a stand-in.
    chosen = seat.computer_level or seat.stand_in
    level = chosen if chosen in kind.computer_levels else "normal"
    start = time.perf_counter()
    action = kind.choose_at(level, state, seat.number, rand, budget_ms=settings.COMPUTER_BUDGET_MS)
    thought = time.perf_counter() - start
    try:
        moves.do_submit_action(game_id, seat.user, action, version)
    except (errors.StaleVersion, PermissionDenied, errors.GameNotActive):
        return False  # someone else's task, a concession or a cancel got there first
    except IllegalAction:
        now = Game.objects.filter(pk=game_id).values_list("version", "drafts").first()
        if now is not None and (now[0], len(now[1])) != (version, drafts):
            return False  # a twin task made its part of the choice first
        log.exception("The %s computer of game %s chose an illegal action", level, game_id)
        raise
    metrics.computer_move(game.kind, level, thought)
    return True


@shared_task(name="games.sweep_computer_turns", ignore_result=True)
def sweep_computer_turns(now: datetime | None = None) -> int:
    """Queue again the turns of computer seats deciding for longer than STUCK_AFTER; how
    many were queued (none during maintenance)."""
    if maintenance.paused():
        return 0
    now = now or timezone.now()
    stuck = (
        Seat.objects.filter(
            deciding=True,
            deciding_since__lte=now - STUCK_AFTER,
            game__status__in=Game.ACTIVE,
            game__updated__lte=now - STUCK_AFTER,
        )
        .filter(_computer_seat(now))
        .values_list("game_id", "game__version")
        .distinct()
    )
    count = 0
    for game_id, version in stuck:
        play_computer_turn.delay(game_id, version)
        count += 1
    if count:
        log.warning("Queued again the turns of %s computer players", count)
    return count
