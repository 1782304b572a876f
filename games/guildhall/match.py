"""A game as it is stored: options, players, a secret seed and the actions taken.

Replaying the actions rebuilds the state exactly. "undo" is itself an action in the
record (the record is append-only); it restores the state before the last step, which
is only allowed while that step revealed nothing hidden (``engine.undo_player``).
"""

from __future__ import annotations

from .engine import apply, check_shape, decision_player, new_game, undo_player
from .errors import IllegalAction
from .options import Options
from .state import State


class Match:
    def __init__(self, options: Options, names: list[str], seed: int, moves=()) -> None:
        self.options = options
        self.names = list(names)
        self.seed = seed  # secret
        self.moves: list[dict] = []  # {"player": seat, "action": {...}}, undo included
        self.state: State = new_game(options, self.names, seed)
        self._before: list[State] = []  # states before each step that may be undone
        for move in moves:
            self.apply(move["action"], move["player"])

    @classmethod
    def resume(
        cls, options: Options, names: list[str], seed: int, moves: list[dict], state: State
    ) -> Match:
        """A match from a stored snapshot of its state, without replaying.

        The states before undoable steps are not in a snapshot; an undo rebuilds them by
        replaying the record (rare, and a few milliseconds).
        """
        m = cls.__new__(cls)
        m.options = options
        m.names = list(names)
        m.seed = seed
        m.moves = list(moves)
        m.state = state
        m._before = None
        return m

    def apply(self, action: dict, player: int | None = None) -> list[dict]:
        """Apply (and record) one action; IllegalAction leaves everything unchanged."""
        check_shape(action)
        if action["kind"] == "undo":
            return self._undo(player)
        actor = player if action["kind"] == "resign" else decision_player(self.state)
        before = self.state.clone()
        events = apply(self.state, action, player)
        if self.state.undo_steps == 0:
            self._before = []
        elif self._before is not None:
            self._before.append(before)
        self.moves.append({"player": actor, "action": action})
        return events

    def _undo(self, player: int | None) -> list[dict]:
        who = undo_player(self.state)
        if who is None:
            raise IllegalAction(
                "undo_not_allowed",
                "The last step cannot be taken back (hidden information was revealed, or "
                "the turn has passed)",
            )
        if player is not None and player != who:
            raise IllegalAction(
                "undo_not_allowed", "Only the player who made the last step can take it back"
            )
        if self._before is None:  # resumed from a snapshot: rebuild the history
            self._before = Match(self.options, self.names, self.seed, self.moves)._before
        self.state = self._before.pop()
        self.moves.append({"player": who, "action": {"kind": "undo"}})
        return [{"type": "undo", "player": who}]

    def replayed(self) -> State:
        """The state rebuilt from nothing but the record (what ``verify_games`` compares)."""
        return Match(self.options, self.names, self.seed, self.moves).state
