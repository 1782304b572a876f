"""A game as it is stored: a game, its options, players, secret seed and the record of
every action taken, with the state they lead to.

Each game is played under the version of its game's rules it began with (``rules``); an
entry of the record may say ``"rules": n``, the version the game is played under from that
entry on (a game stored across an upgrade that changed its rules before versions were
kept: ``manage.py upgrade_games``).

The record is append-only. "undo" is an action in it like any other: it takes back the
last step of the seat that asks, while the game allows it (``GameKind.can_undo``), by
restoring the state before that step. Replaying the record rebuilds the state exactly.

An entry may also say ``"joined": true``: its seat made it in one choice with its entry
before (a board's one tap of several steps). The match only keeps the mark; the platform
reads it (``undo_target``) to take back such a choice whole, one "undo" a step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Self

from .errors import IllegalAction
from .i18n import gettext as _
from .protocol import GameKind, Options, State

UNDO = "undo"
RESIGN = "resign"


class Match:
    def __init__(
        self,
        game: GameKind,
        options: Options,
        names: list[str],
        seed: int,
        record: Iterable[Mapping[str, Any]] = (),
        rules: int | None = None,
    ) -> None:
        self.game = game
        self.options = options
        self.names = list(names)
        self.seed = seed  # secret
        # The version of the rules the game began with (None: the current one).
        self.rules = game.rules_version if rules is None else rules
        # {"player": seat, "action": {...}} (and "rules" where they changed, "joined" where
        # made in one choice with the seat's entry before), undo included.
        self.record: list[dict[str, Any]] = []
        self.state: State = game.new_state(options, self.names, seed, self.rules)
        # The steps that may still be undone, the latest last: (seat, the state before it,
        # its action, its entry's index in the record); None when resumed from a snapshot
        # (rebuilt from the record when an undo needs it). In a simultaneous step several
        # seats may each take back their own.
        self._before: list[tuple[int, State, dict[str, Any], int]] | None = []
        for entry in record:
            self.apply(
                entry["action"],
                entry["player"],
                entry.get("rules"),
                joined=bool(entry.get("joined")),
            )

    @classmethod
    def resume(
        cls,
        game: GameKind,
        options: Options,
        names: list[str],
        seed: int,
        state: State,
        record: list[dict[str, Any]] | None = None,
        rules: int | None = None,
    ) -> Self:
        """A match at a stored snapshot of its state, without replaying. Only an undo needs
        the ``record`` (to rebuild the states before the last steps, under the ``rules``
        the game began with); without it, new entries are appended to an empty record."""
        m = cls.__new__(cls)
        m.game = game
        m.options = options
        m.names = list(names)
        m.seed = seed
        m.rules = game.rules_version if rules is None else rules
        m.record = list(record or [])
        m.state = state
        m._before = None
        return m

    def apply(
        self,
        action: dict[str, Any],
        seat: int,
        rules: int | None = None,
        *,
        joined: bool = False,
    ) -> list[dict[str, Any]]:
        """Apply (and record) ``seat``'s action; IllegalAction leaves everything as it was.
        ``rules``: the version the game is played under from this record on, where a
        record of the game's says its rules changed; ``joined``: made in one choice with
        the seat's step before (the record keeps the mark)."""
        game = self.game
        game.check_shape(action)
        kind = action["kind"]
        if kind == UNDO:
            return self._undo(seat)
        before = game.clone(self.state) if self._before is not None else None
        was = game.rules_of(self.state)
        if rules is not None:
            game.play_under(self.state, rules)
        try:
            if kind == RESIGN:
                events = game.resign(self.state, seat)
            else:
                events = game.apply(self.state, seat, action)
        except IllegalAction:
            game.play_under(self.state, was)
            raise
        if self._before is not None:
            if game.can_undo(self.state, seat) and before is not None:
                # Another seat's step that may still be undone stays so: its own choice in
                # the same simultaneous step (taking it back must not depend on others').
                kept = [e for e in self._before if e[0] == seat or game.can_undo(self.state, e[0])]
                self._before = [*kept, (seat, before, action, len(self.record))]
            else:
                self._before = []
        entry: dict[str, Any] = {"player": seat, "action": action}
        if rules is not None:
            entry["rules"] = rules
        if joined:
            entry["joined"] = True
        self.record.append(entry)
        return events

    def undo_target(self, seat: int) -> int | None:
        """The index in the record of the step an "undo" of ``seat`` takes back now; None
        when it may take back none."""
        if not self.game.can_undo(self.state, seat):
            return None
        own = [entry[3] for entry in self._history() if entry[0] == seat]
        return own[-1] if own else None

    def _history(self) -> list[tuple[int, State, dict[str, Any], int]]:
        if self._before is None:  # resumed from a snapshot: rebuild the history
            self._before = Match(
                self.game, self.options, self.names, self.seed, self.record, self.rules
            )._before
            assert self._before is not None  # a match built from its record keeps them
        return self._before

    def _undo(self, seat: int) -> list[dict[str, Any]]:
        if not self.game.can_undo(self.state, seat):
            raise IllegalAction(
                "undo_not_allowed",
                _(
                    "The last step cannot be taken back (hidden information was revealed, or "
                    "the turn has passed)"
                ),
            )
        history = self._history()
        # The seat's last step is taken back; the other seats' steps made after it (their
        # own choices in the same simultaneous step) are made again on the state before it.
        own = [i for i, entry in enumerate(history) if entry[0] == seat]
        if not own:  # the game allows it, but the record holds no such step
            raise IllegalAction("undo_not_allowed", _("There is no step to take back"))
        last = own[-1]
        _seat, self.state, _action, _index = history[last]
        later = history[last + 1 :]
        del history[last:]
        for other, _state, action, index in later:
            before = self.game.clone(self.state)
            self.game.apply(self.state, other, action)
            history.append((other, before, action, index))
        self.record.append({"player": seat, "action": {"kind": UNDO}})
        return [{"type": UNDO, "player": seat}]

    def replayed(self) -> State:
        """The state rebuilt from nothing but the record (what ``verify_games`` compares)."""
        return Match(self.game, self.options, self.names, self.seed, self.record, self.rules).state
