"""A seat given to the computer for good, as when its player let their time run out three
times in a row (``games.play.timeouts``): for an account suspended by a moderator
(``games.community.moderation``). The seat resigns and the computer plays it on; the
others hear that the player dropped out."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.core.match import RESIGN
from games.models import Game, Seat
from games.play import events
from games.play.change import Change, lock_game
from games.play.timeouts import ABANDONED_EVENT


def do_abandon(game_id: int, number: int) -> Game | None:
    """Seat ``number`` of the game is abandoned (None: the game is over, or the computer
    plays that seat already)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in Game.ACTIVE:
            return None
        change = Change(game)
        seat = change.seats[number]
        if seat.computer_plays or seat.computer_level:
            return None
        marker = {"type": ABANDONED_EVENT, "player": number}
        change.apply({"kind": RESIGN}, number, automatic=True, marks=[marker])
        seat.abandoned = True
        change.play_computer_seats()
        Seat.objects.filter(pk=seat.pk).update(abandoned=True)
        game = change.save()
        events.abandoned(game_id, number)
        return game


def abandon_all(user: User) -> int:
    """Every seat of ``user`` in a game going on, abandoned: how many."""
    seats = Seat.objects.filter(
        user=user, game__status__in=Game.ACTIVE, resigned=False, abandoned=False
    ).values_list("game_id", "number")
    return sum(do_abandon(game_id, number) is not None for game_id, number in list(seats))
