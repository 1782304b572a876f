"""Helpers for the notification tests: games started in a known seat order, whole turns."""

from __future__ import annotations

import random

from django.conf import settings

from games.models import Game, Seat
from games.notifications.models import Notification
from games.play import moves
from tests.games.helpers import random_action, to_move


class InOrder:
    """Seats in the order the people were created (alice, bob, charlie): under a frozen clock
    the answers to an invitation have equal times, and their order is the database's whim."""

    def shuffle(self, items):
        items.sort(key=lambda user: user.pk)


def seat_user(game: Game, number: int):
    return Seat.objects.get(game=game, number=number).user


def play_turn(game: Game, rand: random.Random | None = None, limit: int = 500) -> Game:
    """The player to move plays random legal steps until someone else decides (or the end)."""
    rand = rand or random.Random(1)
    player = to_move(game)
    user = seat_user(game, player)
    for _ in range(limit):
        game = moves.do_submit_action(game.pk, user, random_action(game, rand), game.version)
        if game.status not in Game.ACTIVE or to_move(game) != player:
            return game
    raise AssertionError("the turn did not end")


def sent(kind: str | None = None, **filters) -> list[Notification]:
    rows = Notification.objects.filter(status=Notification.Status.SENT, **filters)
    if kind:
        rows = rows.filter(kind=kind)
    return list(rows)


def site_path(url: str) -> str:
    assert url.startswith(settings.SITE_URL), url
    return url[len(settings.SITE_URL) :]
