"""Guildhall's computer players against each other (``games.core.arena``): win rates with
their confidence, and thinking time per decision and per turn.

``a`` takes one seat and ``b`` every other; game i puts ``a`` in seat i % players.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Unpack

from games.core import arena
from games.core.arena import Setup, SetupFields, wilson

from . import bot, easy, random_player, search
from .game import GUILDHALL
from .state import State

LEVELS = ("random", "easy", "normal", "strong")


def _strong(st: State, seat: int, rand: random.Random, setup: Setup) -> dict[str, Any]:
    return search.choose(st, seat, rand, budget_ms=setup.budget_ms, iterations=setup.iterations)


CONTEST = arena.Contest(
    kind=GUILDHALL,
    levels={
        "random": lambda st, seat, rand, setup: random_player.choose(st, rand, seat=seat),
        "easy": lambda st, seat, rand, setup: easy.choose(st, rand, seat=seat),
        "normal": lambda st, seat, rand, setup: bot.choose(st, rand, seat=seat),
        "strong": _strong,
    },
    length=lambda st: st.turn,
    turn=lambda st: st.turn,
)


def make_setup(
    a: str,
    b: str,
    *,
    rules: str = "yucata",
    setup: str = "sequential",  # or "simultaneous": every seat sets up at once
    max_turns: int = 400,  # a game still going then counts as a tie
    **fields: Unpack[SetupFields],
) -> Setup:
    """A run's setup with Guildhall's options (``fields``: players, games, seed,
    budget_ms, iterations)."""
    return Setup(a, b, max_length=max_turns, options={"rules": rules, "setup": setup}, **fields)


def play_game(setup: Setup, index: int) -> dict[str, Any]:
    return arena.play(CONTEST, setup, index)


def run(setup: Setup, jobs: int = 1) -> dict[str, Any]:
    return arena.run(play_game, setup, jobs)


def main(setup: Setup, jobs: int, out: Callable[[str], object] = print) -> dict[str, Any]:
    return arena.main(play_game, setup, jobs, out=out)


__all__ = ["CONTEST", "LEVELS", "Setup", "main", "make_setup", "play_game", "run", "wilson"]
