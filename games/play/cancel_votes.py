"""Votes to cancel a game: it ends without a result when every player still in it agrees."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game
from games.play import events
from games.play.change import check_active, lock_game, seat_for
from games.reads import list_stamps


def do_vote_cancel(game_id: int, user: User, vote: bool = True) -> Game:
    """``user`` votes to cancel the game (or takes the vote back). The game is cancelled when
    every player who has not resigned or abandoned agrees; it then has no result."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_for(game, user)
        check_active(game)
        if seat.computer_plays:
            raise PermissionDenied(_("You have left this game: you cannot vote any more"))
        seat.cancel_vote = vote
        seat.save(update_fields=["cancel_vote"])
        people = [s for s in game.seats.all() if s.is_person]
        if vote and all(s.cancel_vote for s in people):
            game.status = Game.Status.CANCELLED
            game.finished = timezone.now()
            game.save()
            game.seats.update(deciding=False, deciding_since=None, deadline=None)
            list_stamps.games_changed([game.pk])
            events.game_over(game.pk)
        return game
