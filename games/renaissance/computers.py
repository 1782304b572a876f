"""Renaissance Man's computer players (``games.core.protocol.ComputerPlayers``): easy
(random with a lean toward building, ``random_player``), normal (heuristic, ``bot``), strong
(ISMCTS, ``search``); docs/computer-players.md."""

from __future__ import annotations

import random
from typing import Any

from . import bot, random_player, search
from .state import State

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


def choose(
    level: str,
    state: State,
    seat: int,
    rand: random.Random,
    budget_ms: int | None,
    iterations: int | None,
) -> dict[str, Any]:
    """strong: for ``budget_ms`` (default ``search.DEFAULT_BUDGET_MS``) a step or exactly
    ``iterations``."""
    if level == "easy":
        return random_player.choose(state, seat, rand)
    if level == "normal":
        return bot.choose(state, seat, rand)
    return search.choose(state, seat, rand, budget_ms=budget_ms, iterations=iterations)
