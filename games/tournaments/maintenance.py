"""Maintenance and the tournaments' rounds (games.play.maintenance does the games' clocks):
while it is on, nobody can move, so the tournaments' sweep waits (``tasks.sweep``) and no
round is adjudicated; as it ends, every round still playing is given back the time it stood
still, as every game's clock is."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.dispatch import receiver

from games.play.maintenance import ending
from games.tournaments import services
from games.tournaments.models import Round


@receiver(ending)
def _maintenance_ends(
    sender: object, start: datetime, end: datetime, **kwargs: object
) -> tuple[str, int]:
    return "tournament rounds' deadlines", extend_rounds(start, end)


def extend_rounds(start: datetime, end: datetime) -> int:
    """Push back the deadline of every round still playing by the time the maintenance
    from ``start`` to ``end`` stood within it (from its start, or the round's if later);
    how many moved. Called just before the maintenance goes off, with the moment it does
    (``games.play.maintenance.ending``): until then the sweep leaves the rounds alone, so
    none is adjudicated at a deadline that is about to move."""
    if end <= start:
        return 0
    held = Round.objects.filter(status=Round.Status.PLAYING, deadline__gt=start, started__lt=end)
    moved = 0
    for tournament_id in sorted(set(held.values_list("tournament_id", flat=True))):
        with transaction.atomic():
            services._lock(tournament_id)  # (the order of every change to a tournament)
            for rnd in held.filter(tournament_id=tournament_id):
                rnd.deadline += end - max(start, rnd.started)
                rnd.save(update_fields=["deadline"])
                moved += 1
    return moved
