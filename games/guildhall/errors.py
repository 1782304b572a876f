"""Errors the engine raises. Each illegal action names the rule it breaks."""

from __future__ import annotations

# The platform's own: the site answers every game's refusals the same way.
from games.core.errors import IllegalAction

__all__ = ["IllegalAction", "PositionError"]


class PositionError(ValueError):
    """A state read from JSON that breaks an invariant (a card missing, a duplicate...)."""
