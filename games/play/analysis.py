"""Explaining a finished game (docs/replays.md, "Analysis"): one of its players asks
(``do_request_analysis``), and the computer players' lane computes it once
(``analyse_game``, at the lowest priority: every computer move of the lane goes first),
within the budget of the settings (``ANALYSIS_ITERATIONS`` a decision, ``ANALYSIS_SECONDS``
a game), and keeps it (``games.models.Analysis``).

Nothing of it exists before the game is over: the request and the task both refuse a game
that is not finished. The task claims the row (queued -> running) so that a task delivered
twice computes once; a claim left running for longer than ``lost_after()`` (a worker that
died) may be asked for again.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.core import analysis as core
from games.models import Analysis, Game, Move, Seat
from games.play import events
from games.play.errors import NotAPlayer, NotFound

log = logging.getLogger(__name__)


def budget() -> core.Budget:
    return core.Budget(iterations=settings.ANALYSIS_ITERATIONS, seconds=settings.ANALYSIS_SECONDS)


def lost_after() -> timedelta:
    """How long a queued or running analysis may take before it counts as lost: the lane
    may be busy with moves first, then the budget, with room to spare."""
    return timedelta(seconds=10 * 60 + 2 * settings.ANALYSIS_SECONDS)


def do_request_analysis(game_id: int, user: User) -> tuple[Analysis, bool]:
    """Ask for the analysis of a finished game of ``user``'s: the stored one if there is one
    (or one on its way), else a new one queued; and whether it was queued now."""
    with transaction.atomic():
        game = Game.objects.select_for_update().defer("snapshot").filter(pk=game_id).first()
        if game is None:
            raise NotFound(_("No such game"))
        if game.status != Game.Status.FINISHED:
            raise NotFound(_("This game is not finished: only finished games can be analysed."))
        if not Seat.objects.filter(game=game, user=user).exists():
            raise NotAPlayer(_("Only the game's players may ask for its analysis."))
        if game.game_kind.analyst is None:
            raise NotFound(_("This game cannot be analysed."))
        now = timezone.now()
        row, created = Analysis.objects.get_or_create(
            game=game,
            defaults={
                "requested_by": user,
                "iterations": settings.ANALYSIS_ITERATIONS,
                "seconds": settings.ANALYSIS_SECONDS,
            },
        )
        lost = row.status != Analysis.Status.READY and row.requested < now - lost_after()
        if lost:
            row.status, row.requested, row.requested_by = Analysis.Status.QUEUED, now, user
            row.started = None
            row.save(update_fields=["status", "requested", "requested_by", "started"])
        if created or lost:
            events.analysis_requested(game.pk)
    return row, created or lost


@shared_task(name="games.analyse_game", ignore_result=True)
def analyse_game(game_id: int) -> bool:
    """Compute the analysis asked for ``game_id``; whether it did. Refused for a game that
    is not finished, one nobody asked for, and one already claimed."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        log.warning("Refused to analyse game %s: it is not finished", game_id)
        return False
    claimed = Analysis.objects.filter(game=game, status=Analysis.Status.QUEUED).update(
        status=Analysis.Status.RUNNING, started=timezone.now()
    )
    if not claimed:
        return False  # not asked for, or another delivery of the task has it
    kind = game.game_kind
    records = [
        m.record() for m in Move.objects.filter(game=game).order_by("number").only(*Move.RECORD)
    ]
    given = budget()
    start = time.perf_counter()
    try:
        result = core.analyse(
            kind,
            game.engine_options(),
            game.names,
            game.seed,
            records,
            given,
            rules=game.rules,
            search_seed=game.pk,
        )
    except Exception:
        # Asked for again, it starts afresh (the error is logged, not hidden).
        Analysis.objects.filter(game=game, status=Analysis.Status.RUNNING).update(
            status=Analysis.Status.QUEUED, requested=timezone.now() - lost_after()
        )
        raise
    Analysis.objects.filter(game=game, status=Analysis.Status.RUNNING).update(
        status=Analysis.Status.READY,
        finished=timezone.now(),
        iterations=given.iterations,
        seconds=round(time.perf_counter() - start, 3),
        result=result.to_json(),
    )
    log.info(
        "Analysed game %s: %d decisions in %.1f s (%s)",
        game_id,
        len(result.decisions),
        result.seconds,
        "complete" if result.complete else f"{result.left_out} left out",
    )
    return True
