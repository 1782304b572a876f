"""The full game state: plain lists and ints, hidden parts included.

Only the engine and the server ever hold a State; people see ``views.view()`` of it.
Lists are changed in place by the engine, so ``clone()`` copies every list it owns; a
seat's ``choice`` (a dict) is only ever replaced, never changed, so clones share it.
"""

from __future__ import annotations

from typing import Any, Literal

from .pyramid import SIZE

# Stages of a round. "foundation" is the setup; "action" an action phase; "rm" the
# follow-up placement of face-down Renaissance Men; "recruit" a Recruit area's winner
# choosing where its card goes; "discard" the discard step.
STAGES = ("foundation", "action", "rm", "recruit", "discard", "over")
KNIGHTS = 4  # per player
STORE_SLOTS = 4  # Stored Actions
# The version of the rules new games are played under. 2 (1881389): a worker may be removed
# as the first part of any decision (the face-down Renaissance Man's placement, the discard
# step, the Recruit winner's choice, who is asked whenever a removal could free a place);
# the face-down Renaissance Man's owner is asked even with a single open place. Rules 1:
# removals only in an action phase, the card placed at once in a single open place, the
# Recruit winner asked only when the card fits as the structure stands.
RULES = 2


class PlayerState:
    __slots__ = (
        "hand",
        "known",
        "cells",
        "down",
        "stored",
        "rm_tokens",
        "supply",
        "picks",
        "removals",
        "choice",
        "done",
        "best",
        "idle",
    )

    def __init__(self) -> None:
        self.hand: list[int] = []  # secret to the others
        # The hand cards every seat saw it take (a Recruit card taken into the hand), until
        # they leave the hand or a secret discard makes it unsure whether they did.
        self.known: list[int] = []
        self.cells: list[int | None] = [None] * SIZE  # the structure
        self.down: list[int] = []  # face-down cards in the structure (faces secret to all)
        self.stored: list[int] = []  # Stored Actions tokens (types), sorted, at most 4
        self.rm_tokens: list[int] = []  # RM-area tokens (types), sorted, one of each at most
        self.supply = KNIGHTS  # Knights not on the Recruit board
        # The submission in the current simultaneous step, secret until the reveal:
        # foundation: the workers picked so far, left to right; rm: the face-down card
        # drawn (one entry); discard: the cards.
        self.picks: list[int] = []
        # The positions removed, in order, as the first part of this seat's decision (any
        # decision: an action phase, the face-down placement, the discard step), secret
        # until the reveal. (The Recruit winner's removals happen at once: nothing is
        # secret in that step.)
        self.removals: list[int] = []
        self.choice: dict[str, Any] | None = None  # the closing choice (action phase, rm placement)
        self.done = False  # submitted: the step does not wait for this seat
        # Progress, public (what every seat saw): the most cards the structure has held at
        # the end of a round, and how many rounds in a row have ended since without more.
        # The computer players read ``idle`` to leave a position that repeats without
        # progress (``stall``): nothing in the rules stops a game from going on for ever.
        self.best = 0
        self.idle = 0

    def clone(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.hand = self.hand[:]
        p.known = self.known[:]
        p.cells = self.cells[:]
        p.down = self.down[:]
        p.stored = self.stored[:]
        p.rm_tokens = self.rm_tokens[:]
        p.supply = self.supply
        p.picks = self.picks[:]
        p.removals = self.removals[:]
        p.choice = self.choice
        p.done = self.done
        p.best = self.best
        p.idle = self.idle
        return p

    def clear_submission(self) -> None:
        self.picks = []
        self.removals = []
        self.choice = None
        self.done = False


class State:
    __slots__ = (
        "rules",
        "options",
        "names",
        "rng",
        "deck",
        "discard",
        "recruit",
        "knights",
        "opposing",
        "players",
        "stage",
        "round",
        "phase",
        "step",
        "area",
        "reshuffles",
        "last_seat",
        "last_undoable",
        "undoable",
        "revealed",
        "resigned",
        "result",
    )

    def __init__(
        self, options: dict[str, Any], names: list[str], rng: int, rules: int = RULES
    ) -> None:
        n = len(names)
        # The version of the rules the game is played under (RULES: the current).
        self.rules = rules
        self.options = options  # {"solo": ..., "solo_cards": ...}; never changed
        self.names = tuple(names)
        self.rng = rng  # secret
        self.deck: list[int] = []  # secret order; the top is the end of the list
        self.discard: list[int] = []  # face down: its contents are secret
        self.recruit: list[int | None] = [None] * 4  # the Recruit board, left to right
        self.knights: list[list[int]] = [[0] * n for _ in range(4)]  # [area][seat]
        self.opposing: list[int] = [0] * 4  # the opposing Knights (one-player game)
        self.players = [PlayerState() for _ in range(n)]
        self.stage = "foundation"
        self.round = 0  # 1 from the first action phase
        self.phase = 0  # the action phase called (1..4)
        self.step = 1  # changes at every new step (the platform restarts waits on it)
        self.area = 0  # the Recruit area being resolved
        self.reshuffles = 0
        self.last_seat: int | None = None  # who made the last record
        self.last_undoable = False  # it changed only that seat's unrevealed submission
        # The seats that may take back their last step (several in a simultaneous step).
        self.undoable: list[int] = []
        self.revealed: dict[str, Any] | None = None  # the latest reveal, public
        self.resigned: list[int] = []  # in the order they resigned
        self.result: list[dict[str, Any]] | None = None

    def clone(self) -> State:
        s = State.__new__(State)
        s.rules = self.rules
        s.options = self.options
        s.names = self.names
        s.rng = self.rng
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.recruit = self.recruit[:]
        s.knights = [row[:] for row in self.knights]
        s.opposing = self.opposing[:]
        s.players = [p.clone() for p in self.players]
        s.stage = self.stage
        s.round = self.round
        s.phase = self.phase
        s.step = self.step
        s.area = self.area
        s.reshuffles = self.reshuffles
        s.last_seat = self.last_seat
        s.last_undoable = self.last_undoable
        s.undoable = self.undoable[:]
        s.revealed = self.revealed  # replaced, never changed in place
        s.resigned = self.resigned[:]
        s.result = self.result  # replaced, never changed in place
        return s

    def fields_json(self) -> dict[str, Any]:
        """Every field as plain JSON, copied: ``positions.to_json`` stores it after the
        format number, and two states are equal when it is."""
        return {
            "rules": self.rules,
            "options": dict(self.options),
            "names": list(self.names),
            "rng": self.rng,
            "deck": self.deck[:],
            "discard": self.discard[:],
            "recruit": self.recruit[:],
            "knights": [row[:] for row in self.knights],
            "opposing": self.opposing[:],
            "players": [
                {
                    "hand": p.hand[:],
                    "known": p.known[:],
                    "cells": p.cells[:],
                    "down": p.down[:],
                    "stored": p.stored[:],
                    "rm_tokens": p.rm_tokens[:],
                    "supply": p.supply,
                    "picks": p.picks[:],
                    "removals": p.removals[:],
                    "choice": None if p.choice is None else dict(p.choice),
                    "done": p.done,
                    "best": p.best,
                    "idle": p.idle,
                }
                for p in self.players
            ],
            "stage": self.stage,
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "area": self.area,
            "reshuffles": self.reshuffles,
            "last_seat": self.last_seat,
            "last_undoable": self.last_undoable,
            "undoable": self.undoable[:],
            "revealed": copy_revealed(self.revealed),
            "resigned": self.resigned[:],
            "result": None if self.result is None else [dict(row) for row in self.result],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.fields_json() == other.fields_json()

    __hash__ = None  # type: ignore[assignment]  # mutable (typeshed types it as a method)

    @property
    def seats(self) -> range:
        return range(len(self.names))

    @property
    def solo(self) -> bool:
        return len(self.names) == 1

    @property
    def phase_name(self) -> Literal["setup", "play", "over"]:
        """The platform's phase: "setup" during the foundation, "play", "over"."""
        if self.stage == "foundation":
            return "setup"
        return "over" if self.stage == "over" else "play"


def copy_revealed(revealed: dict[str, Any] | None) -> dict[str, Any] | None:
    if revealed is None:
        return None
    return {
        **revealed,
        "submissions": [
            {
                "player": s["player"],
                "removals": [dict(r) for r in s["removals"]],
                "action": dict(s["action"]),
            }
            for s in revealed["submissions"]
        ],
    }
