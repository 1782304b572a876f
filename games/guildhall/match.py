"""A Guildhall game as it is stored: the platform's ``core.match.Match`` bound to Guildhall.

Replaying the record rebuilds the state exactly. "undo" is itself an action in the record
(the record is append-only); it restores the state before the last step, which is only
allowed while that step revealed nothing hidden (``engine.undo_player``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core.match import RESIGN
from games.core.match import Match as CoreMatch

from .engine import decision_player
from .game import GUILDHALL
from .options import Options
from .state import State


class Match(CoreMatch):
    def __init__(
        self,
        options: Options,
        names: list[str],
        seed: int,
        moves: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        super().__init__(GUILDHALL, options, names, seed, moves)

    # Bound to Guildhall, it takes no game: not the signature of the core's.
    @classmethod
    def resume(  # type: ignore[override]
        cls,
        options: Options,
        names: list[str],
        seed: int,
        moves: list[dict[str, Any]],
        state: State,
    ) -> Match:
        """A match from a stored snapshot of its state, without replaying (an undo rebuilds
        the states before the last steps by replaying the record: rare, a few ms)."""
        return super().resume(GUILDHALL, options, names, seed, state, moves)

    @property
    def moves(self) -> list[dict[str, Any]]:
        return self.record

    def apply(
        self,
        action: dict[str, Any],
        player: int | None = None,
        rules: int | None = None,
        *,
        joined: bool = False,
    ) -> list[dict[str, Any]]:
        """Apply (and record) one action, by default of the seat that decides now."""
        if player is None and not (isinstance(action, dict) and action.get("kind") == RESIGN):
            decider = decision_player(self.state)
            player = 0 if decider is None else decider
        # A resignation may leave the seat out: engine.resign refuses it ("Say which seat
        # resigns"), so None goes on where the core expects a seat.
        return super().apply(action, player, rules, joined=joined)  # type: ignore[arg-type]
