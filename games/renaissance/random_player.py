"""A computer player that picks a random legal action, nudged so that games end.

Uniform play rarely builds a pyramid: it removes workers, passes and barters away the
cards that could be hired. So hiring and placing weigh more, removing and passing less,
and it never takes back its own picks ("keep", "reset"), which keeps every submission
finite; stalled, it discards at least one card (``stall``). It reads only the seat's legal
actions and its public progress, so it never sees a secret.
"""

from __future__ import annotations

import random
from typing import Any

from . import stall
from .legal import legal_actions
from .state import State

WEIGHTS = {
    "hire": 40.0,
    "place": 40.0,
    "place_rm": 1.0,
    "take": 1.0,
    "teach": 3.0,
    "barter": 1.5,
    "recruit": 2.0,
    "pass": 0.5,
    "remove": 0.03,
    "discard": 0.5,
    "done": 3.0,
    "foundation": 1.0,
    "keep": 0.0,
    "reset": 0.0,
}


def choose(
    st: State | None, seat: int, rand: random.Random, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A weighted random one of ``actions`` (the seat's legal ones, by default). Without a
    state (an API client knows only the legal actions it was given) there is no stall to
    escape."""
    if st is not None:
        actions = stall.escape(st, seat, legal_actions(st, seat) if actions is None else actions)
    if not actions:
        raise ValueError("nothing to choose from")
    weights = [WEIGHTS[a["kind"]] for a in actions]
    return rand.choices(actions, weights)[0]
