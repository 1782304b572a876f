"""Renaissance Man's computer players against each other (``games.core.arena``): win
rates with their confidence, and thinking time per decision and per step.

``a`` takes one seat and ``b`` every other; game i puts ``a`` in seat i % players. A
"turn" here is a seat's part of one step (its removals and action in an action phase, its
discards, ...): the decisions it makes before the step moves on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Unpack

from games.core import arena
from games.core.arena import Setup, SetupFields

from . import bot, random_player, search
from .game import RENAISSANCE
from .state import State

LEVELS = ("easy", "normal", "strong")


def _strong(st: State, seat: int, rand: random.Random, setup: Setup) -> dict[str, Any]:
    return search.choose(st, seat, rand, budget_ms=setup.budget_ms, iterations=setup.iterations)


CONTEST = arena.Contest(
    kind=RENAISSANCE,
    levels={
        "easy": lambda st, seat, rand, setup: random_player.choose(st, seat, rand),
        "normal": lambda st, seat, rand, setup: bot.choose(st, seat, rand),
        "strong": _strong,
    },
    length=lambda st: st.round,
    turn=lambda st: st.step,
)


def make_setup(a: str, b: str, *, max_rounds: int = 200, **fields: Unpack[SetupFields]) -> Setup:
    """A run's setup (``fields``: players, games, seed, budget_ms, iterations)."""
    return Setup(a, b, max_length=max_rounds, **fields)


def play_game(setup: Setup, index: int) -> dict[str, Any]:
    return arena.play(CONTEST, setup, index)


def run(setup: Setup, jobs: int = 1) -> dict[str, Any]:
    return arena.run(play_game, setup, jobs, length="rounds")


def main(setup: Setup, jobs: int, out: Callable[[str], object] = print) -> dict[str, Any]:
    return arena.main(play_game, setup, jobs, length="rounds", out=out)


__all__ = ["CONTEST", "LEVELS", "main", "make_setup", "play_game", "run"]
