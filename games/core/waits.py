"""Who must decide, followed through the records of one change: whose wait starts again
(their clock, their turn email) and whose decision changed (a choice they sent before is
stale). Pure bookkeeping over ``GameKind.deciders`` and ``GameKind.step``.

A seat's wait starts again when it starts deciding: it was not deciding before the change,
or stopped deciding at some record of it (the turn went round), or the step changed (a new
round of simultaneous choices). A player who keeps deciding through a long turn, or undoes
and redoes, keeps the clock of that turn. A seat's decision changed when its wait started
again, when it stopped deciding, or when it acted itself; another seat's choice in the same
simultaneous step leaves it alone.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .protocol import GameKind, State


@dataclass(frozen=True)
class SeatChange:
    deciding: bool
    restarted: bool  # deciding, with a new wait from now
    changed: bool  # its decision is not the one it was


class Waits:
    def __init__(self, game: GameKind, state: State, *, new: bool = False) -> None:
        """Start following from ``state`` (``new``: a game just created, whose deciders
        all start waiting now)."""
        self.game = game
        self.first: frozenset[int] = frozenset() if new else game.deciders(state)
        self.last: frozenset[int] = game.deciders(state)
        self._step: Hashable = game.step(state)
        self._gap: set[int] = set()  # seats that were not deciding at some point
        self._acted: set[int] = set()
        self._step_changed = new

    def after(self, state: State, actor: int | None) -> None:
        """Record that ``actor`` (None: nobody, a site event) made one more record."""
        now = self.game.deciders(state)
        step = self.game.step(state)
        if step != self._step:
            self._step_changed = True
            self._step = step
        everyone = self.first | self.last | now
        self._gap |= everyone - now
        if actor is not None:
            self._acted.add(actor)
        self.last = now

    def seat(self, seat: int) -> SeatChange:
        deciding = seat in self.last
        restarted = deciding and (seat not in self.first or seat in self._gap or self._step_changed)
        changed = (
            restarted
            or seat in self._acted
            or (seat in self.first) != deciding
            or (seat in self._gap)
        )
        return SeatChange(deciding, restarted, changed)
