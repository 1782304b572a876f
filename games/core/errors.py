"""Errors every game raises the same way, so that the site answers them the same way."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that is not legal now. The state is unchanged.

    ``rule`` is a stable code a program can test (each game documents its codes);
    ``message`` is a sentence a player can read.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message}


class OptionError(ValueError):
    """A game option that is missing, unknown or has a bad value: ``option`` names it."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message
