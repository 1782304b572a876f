"""Who is looking at a game: a seat's ``last_seen_at``, written when the board or the API
reads the game (a turn email or push is not sent to a player looking at it; the board shows
who is online)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Seat
from games.play.errors import NotFound, NotYourTurn
from games.reads import since
from games.reads.since import Since

# A seat's last_seen_at is written at most this often: most reads of an open board, and most
# polls, write nothing.
SEEN_PRECISION = timedelta(seconds=20)


def mark_seen(game_id: int, user: User, seen_at: datetime | None = None) -> None:
    """``user``'s seat in the game was seen now. ``seen_at``: its last_seen_at as the caller
    read it, if it did (no write at all when that is recent enough)."""
    now = timezone.now()
    if seen_at is not None and now - seen_at < SEEN_PRECISION:
        return
    Seat.objects.filter(game_id=game_id, user=user).exclude(
        last_seen_at__gt=now - SEEN_PRECISION
    ).update(last_seen_at=now)


def do_look(game_id: int, user: User | AnonymousUser, now: datetime | None = None) -> Since:
    """``user`` opens the board of ``game_id``: what the others did since their previous
    look (``games.reads.since``); this look becomes the marker of the next one."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game"))
    seat = None
    if user is not None and user.is_authenticated:
        seat = Seat.objects.filter(game=game, user_id=user.pk).first()
    if seat is None:
        raise NotYourTurn(_("You do not play in this game"))
    seat.user = user  # type: ignore[assignment]  # (the seat's: a User, never anonymous)
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    view = kind.view(state, seat.number)
    found = since.summary(game, seat, state, view)
    scores = {str(q): points for q, points in kind.scores(view).items()}
    # Only forward: a look at an older version (a request overtaken by another) moves nothing.
    Seat.objects.filter(pk=seat.pk, looked_version__lte=game.version).update(
        looked_version=game.version, looked_scores=scores, looked_at=now
    )
    return found
