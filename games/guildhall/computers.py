"""Guildhall's computer players (``games.core.protocol.ComputerPlayers``): easy (random
with a lean toward progress, ``easy``), normal (heuristic, ``bot``), strong (ISMCTS,
``search``); docs/computer-players.md."""

from __future__ import annotations

import random
from typing import Any

from . import bot, easy, search
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
    """strong: for ``budget_ms`` (default ``search.DEFAULT_BUDGET_MS``) or exactly
    ``iterations``, a turn's budget of which this decision takes its share
    (``search.CONFIG``)."""
    if level == "easy":
        return easy.choose(state, rand, seat=seat)
    if level == "normal":
        return bot.choose(state, rand, seat=seat)
    return search.choose(state, seat, rand, budget_ms=budget_ms, iterations=iterations)
