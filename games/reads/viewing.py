"""A stored game as one person may see it: the game, the viewer's seat, its state and view."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from accounts.models import User
from games.core.protocol import State
from games.models import Game, Seat
from games.reads.errors import NotFound
from guildhall_site import rows


def get_game(game_id: int) -> Game:
    """The stored game (``NotFound`` if there is none), read in plain SQL: the first read of
    every fresh board and of the API's reads of a game (``guildhall_site.rows``)."""
    game = rows.get(Game, game_id)
    if game is None:
        raise NotFound(_("No such game"))
    return game


def get_game_for_viewer(game_id: int, user: User | AnonymousUser) -> tuple[Game, int | None]:
    """The game (404 if there is none) and the viewer's seat, None for anyone else.

    Games are public: a spectator sees the game's view for no seat.
    """
    game = get_game(game_id)
    seat = None
    if user is not None and user.is_authenticated:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    return game, seat


def game_state(game: Game) -> State:
    """The game's state, from its snapshot (checked on loading)."""
    return game.game_kind.from_json(game.snapshot)


def game_view(game: Game, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may know of the game: the only way a stored
    game reaches a page, the API or an email."""
    return game.game_kind.view(game_state(game), seat)


def seat_of(game: Game, user: User | AnonymousUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()
