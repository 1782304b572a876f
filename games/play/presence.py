"""Who is looking at a game: a seat's ``last_seen_at``, written when the board or the API
reads the game (a turn email or push is not sent to a player looking at it; the board shows
who is online)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Seat

# A seat's last_seen_at is written at most this often: most reads of an open board, and most
# polls, write nothing.
SEEN_PRECISION = timedelta(seconds=20)


def mark_seen(game_id: int, user, seen_at: datetime | None = None) -> None:
    """``user``'s seat in the game was seen now. ``seen_at``: its last_seen_at as the caller
    read it, if it did (no write at all when that is recent enough)."""
    now = timezone.now()
    if seen_at is not None and now - seen_at < SEEN_PRECISION:
        return
    Seat.objects.filter(game_id=game_id, user=user).exclude(
        last_seen_at__gt=now - SEEN_PRECISION
    ).update(last_seen_at=now)
