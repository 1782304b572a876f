"""The "easy" computer player: a random legal action, leaning toward progress.

Like ``random_player`` it keeps every legal action possible, but it leans harder toward
what moves a game on (buying VP cards, playing cards, placing and picking cards, using an
ability at its highest level) and away from passing (skipping an ability, discarding and
redrawing), so that it is a weak but plausible opponent rather than a wanderer.
"""

from __future__ import annotations

import random
from typing import Any

from .engine import legal_actions
from .state import State

_WEIGHTS = {
    "buy": 40.0,
    "play": 4.0,
    "place": 3.0,
    "pick": 3.0,
    "pick_chapter": 3.0,
    "done": 3.0,
    "discard_draw": 1.0,
    "skip": 0.3,
    "keep": 0.2,
}


def choose(st: State, rand: random.Random, *, seat: int | None = None) -> dict[str, Any]:
    """``seat``'s action (by default the deciding seat's). In a simultaneous setup, a
    card tapped back ("keep") is rare: the easy player mostly goes forward."""
    actions = legal_actions(st, seat)
    weights = [_weight(a) for a in actions]
    return rand.choices(actions, weights)[0]


def _weight(action: dict[str, Any]) -> float:
    if action["kind"] == "use":
        # A higher level of an ability does more.
        return 3.0 + (action.get("level") or 0)
    return _WEIGHTS.get(action["kind"], 1.0)
