"""A computer player that picks a random legal action, nudged toward finishing the game.

Pure random play rarely ends: it discards and skips abilities forever. So a few choices
get more weight (buying a VP card, using an ability, ending a discard selection), which
keeps every legal action possible while games reach 20 VP in a few dozen turns.
"""

from __future__ import annotations

import random
from typing import Any

from .engine import apply, legal_actions
from .state import State

_WEIGHTS = {"buy": 50.0, "use": 4.0, "play": 2.0, "done": 3.0, "skip": 0.5}


def choose(
    st: State,
    rand: random.Random,
    actions: list[dict[str, Any]] | None = None,
    *,
    seat: int | None = None,
) -> dict[str, Any]:
    """A weighted random action of ``actions``, by default the legal actions of ``seat``
    (by default the deciding seat; in a simultaneous setup, the first still choosing)."""
    if actions is None:
        actions = legal_actions(st, seat)
    weights = [_WEIGHTS.get(a["kind"], 1.0) for a in actions]
    return rand.choices(actions, weights)[0]


def play_turns(st: State, rand: random.Random, max_decisions: int) -> int:
    """Play until the game is over or ``max_decisions`` were taken; returns how many. In a
    simultaneous setup the seats choose one after the other (the first still choosing)."""
    n = 0
    while n < max_decisions and st.phase != "over":
        apply(st, choose(st, rand))
        n += 1
    return n
