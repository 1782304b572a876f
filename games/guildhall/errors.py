"""Errors the engine raises. Each illegal action names the rule it breaks."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that is not legal now. The state is unchanged.

    ``rule`` is a stable code (see RULES in docs/rules-engine.md); ``str(error)`` is a
    sentence a player can read.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message}


class PositionError(ValueError):
    """A state read from JSON that breaks an invariant (a card missing, a duplicate...)."""
