"""What one applied action did: its events, and whether it revealed hidden information."""

from __future__ import annotations

from typing import Any


class Step:
    __slots__ = ("events", "revealed", "turn_passed")

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.revealed = False  # a draw, a VP reveal, a shuffle, a look at a hidden pile
        self.turn_passed = False

    def emit(self, kind: str, **fields: Any) -> None:
        fields["type"] = kind
        self.events.append(fields)

    def reveal(self) -> None:
        self.revealed = True
