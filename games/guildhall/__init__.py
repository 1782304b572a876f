"""Guildhall rules engine: pure Python, no Django (see docs/rules-engine.md)."""

from .engine import apply, decision, legal_actions, new_game, undo_player
from .errors import IllegalAction, PositionError
from .options import Options
from .positions import from_json, to_json
from .state import State

__all__ = [
    "IllegalAction",
    "Options",
    "PositionError",
    "State",
    "apply",
    "decision",
    "from_json",
    "legal_actions",
    "new_game",
    "to_json",
    "undo_player",
]
