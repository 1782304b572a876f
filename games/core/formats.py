"""A game's stored state formats: each snapshot names its ``format``, and an old one is
brought up to date by a chain of upgraders, one per step (1 -> 2 -> 3), run here and only
here, as Django's migrations do for tables.

Each step also has a projection back (``down``): the newer state as the older format held
it, dropping what that format could not say. ``verify_games`` compares a snapshot stored in
an old format with the replay of its record projected to that format: like with like,
without inventing what an upgrader must guess (a snapshot upgraded alone cannot know what
its record would have added).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Data = dict[str, Any]


@dataclass(frozen=True)
class FormatStep:
    """From format ``n`` (its key in ``Formats.steps``) to ``n + 1`` and back."""

    up: Callable[[Data], Data]  # a state of format n, as format n + 1 (what n lacked guessed)
    down: Callable[[Data], Data]  # a state of format n + 1 as format n held it (lossy)


@dataclass(frozen=True)
class Formats:
    """The formats a game has stored its states in: ``current`` is what ``to_json`` writes;
    ``steps[n]`` leads from n to n + 1, for every n from ``oldest``."""

    current: int
    steps: Mapping[int, FormatStep] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if sorted(self.steps) != list(range(self.oldest, self.current)):
            raise ValueError("a step from every format to the next, up to the current one")

    @property
    def oldest(self) -> int:
        return min(self.steps, default=self.current)

    def of(self, data: object) -> int:
        """The format ``data`` says it is in; ValueError if it is none this game knows."""
        fmt = data.get("format") if isinstance(data, dict) else None
        if type(fmt) is not int or not self.oldest <= fmt <= self.current:
            raise ValueError(f"unknown state format {fmt!r}")
        return fmt

    def upgrade(self, data: Data) -> Data:
        """``data`` in the current format, through every step from its own (a new dict;
        ``data`` is left as it was). Each step checks what it reads: ValueError."""
        for fmt in range(self.of(data), self.current):
            data = self.steps[fmt].up(data)
            if data.get("format") != fmt + 1:
                raise ValueError(f"the upgrader from format {fmt} wrote no format {fmt + 1}")
        return data

    def project(self, data: Data, fmt: int) -> Data:
        """``data`` (current format) as format ``fmt`` held it: the steps back, in turn."""
        if not self.oldest <= fmt <= self.current:
            raise ValueError(f"unknown state format {fmt!r}")
        for step in range(self.of(data) - 1, fmt - 1, -1):
            data = self.steps[step].down(data)
        return data
