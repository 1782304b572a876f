"""Helpers for the games tests: start games through the services, play them by the engine."""

import random

from games import services
from games.guildhall import legal_actions
from games.guildhall.random_player import choose
from games.models import Game, Seat


def start_game(creator, *others, **options) -> Game:
    """A game started from an invitation of ``creator`` accepted by ``others``."""
    invitation = services.do_create_invitation(creator, players=1 + len(others), **options)
    for user in others:
        services.do_accept_invitation(invitation.pk, user)
    invitation.refresh_from_db()
    return invitation.game


def user_to_move(game: Game):
    return Seat.objects.get(game=game, number=game.to_move).user


def random_action(game: Game, rand: random.Random) -> dict:
    state = services.game_state(game)
    return choose(state, rand, legal_actions(state))


def play_one(game: Game, rand: random.Random) -> Game:
    """The player to move makes a random legal move."""
    action = random_action(game, rand)
    return services.do_submit_action(game.pk, user_to_move(game), action, game.version)


def play_until(game: Game, rand: random.Random, done, limit: int = 5000) -> Game:
    """Random moves until ``done(game)``."""
    for _ in range(limit):
        if done(game):
            return game
        game = play_one(game, rand)
    raise AssertionError("the game did not get there")


def frozen(game: Game) -> tuple:
    """What must not change when a submission is refused."""
    game = Game.objects.get(pk=game.pk)
    return (game.version, game.snapshot, game.to_move, game.status, game.moves.count())
