"""Who must decide, followed through the records of one change: whose wait starts again
(their clock, their turn email) and whose decision changed (a choice they sent before is
stale). Pure bookkeeping over ``GameKind.deciders`` and ``GameKind.step``.

A seat's wait starts again when the game comes to wait for it through someone else's
record (the turn went round to it; another player's choice closed a step), or when the step
changes (a new round of simultaneous choices). A player who keeps deciding through a long
turn, undoes and redoes, or reopens their own submission, keeps the clock of that wait. A
seat's decision changed when its wait started again, when it stopped or started deciding,
when it acted itself, or when the step changed (what a seat that has submitted may still
change belongs to the step); another seat's choice in the same simultaneous step leaves it
alone.

A seat that reopens its own submission in the same step decides again without a new wait
(``restarted`` is False): it resumes the wait it had.
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
        self.first: frozenset[int] = game.deciders(state)
        self.last: frozenset[int] = self.first
        self._step: Hashable = game.step(state)
        self._brought: set[int] = set(self.first) if new else set()  # by another's record
        self._moved: set[int] = set()  # started or stopped deciding at some record
        self._acted: set[int] = set()
        self._step_changed = False

    def after(self, state: State, actor: int | None) -> None:
        """Record that ``actor`` (None: nobody, a site event) made one more record."""
        now = self.game.deciders(state)
        step = self.game.step(state)
        if step != self._step:
            self._step_changed = True
            self._step = step
        self._moved |= now ^ self.last
        self._brought |= {q for q in now - self.last if q != actor}
        if actor is not None:
            self._acted.add(actor)
        self.last = now

    def seat(self, seat: int) -> SeatChange:
        deciding = seat in self.last
        restarted = deciding and (seat in self._brought or self._step_changed)
        changed = restarted or self._step_changed or seat in self._acted or seat in self._moved
        return SeatChange(deciding, restarted, changed)
