"""The full game state: plain lists and ints, hidden parts included.

Only the engine and the server ever hold a State; people see ``views.view()`` of it.
Lists are mutated in place by the engine, so ``clone()`` copies every list it owns.
Frames (the decision stack) and completed chapters are never mutated in place: they are
replaced, which lets ``clone()`` share them.
"""

from __future__ import annotations

from typing import Any, Literal

from .cards import IDENT, PROF, VP_POINTS
from .options import Options


class PlayerState:
    __slots__ = (
        "hand",
        "known",
        "guildhall",
        "action_area",
        "action_vp",
        "completed",
        "vp_cards",
        "tokens",
    )

    def __init__(self) -> None:
        self.hand: list[int] = []
        # Hand cards everyone has seen enter the hand (taken from a guildhall).
        self.known: list[int] = []
        # Cards of uncompleted chapters; a chapter is the cards of one profession.
        self.guildhall: list[int] = []
        self.action_area: list[int] = []
        self.action_vp: list[int] = []  # VP cards bought this turn
        self.completed: list[list[int]] = []  # face-down completed chapters
        self.vp_cards: list[int] = []
        self.tokens = 0

    def clone(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.hand = self.hand[:]
        p.known = self.known[:]
        p.guildhall = self.guildhall[:]
        p.action_area = self.action_area[:]
        p.action_vp = self.action_vp[:]
        p.completed = self.completed[:]
        p.vp_cards = self.vp_cards[:]
        p.tokens = self.tokens
        return p

    @property
    def vp(self) -> int:
        return (
            self.tokens
            + sum(VP_POINTS[v] for v in self.vp_cards)
            + sum(VP_POINTS[v] for v in self.action_vp)
        )

    def identities(self) -> set[int]:
        return {IDENT[c] for c in self.guildhall}

    def chapter(self, profession: int) -> list[int]:
        return [c for c in self.guildhall if PROF[c] == profession]

    def level(self, profession: int) -> int:
        n = 0
        for c in self.guildhall:
            if PROF[c] == profession:
                n += 1
        return n

    def chapters(self) -> list[int]:
        """Professions with at least one card in the guildhall, in profession order."""
        return sorted({PROF[c] for c in self.guildhall})

    def remove_from_hand(self, card: int) -> None:
        self.hand.remove(card)
        if card in self.known:
            self.known.remove(card)


class State:
    __slots__ = (
        "options",
        "names",
        "rng",
        "deck",
        "discard",
        "vp_deck",
        "center",
        "players",
        "phase",
        "current",
        "stage",
        "actions_left",
        "played",
        "turn",
        "frames",
        "undo_steps",
        "last_actor",
        "result",
        "resigned",
        "setup_picks",
        "setup_chosen",
        "setup_steps",
    )

    def __init__(self, options: Options, names: list[str], rng: int) -> None:
        self.options = options
        self.names = tuple(names)
        self.rng = rng  # secret
        self.deck: list[int] = []  # secret order; top is the end of the list
        self.discard: list[int] = []  # top is the end of the list
        self.vp_deck: list[int] = []  # secret order; top is the end
        self.center: list[int | None] = [None] * 5
        self.players = [PlayerState() for _ in range(options.players)]
        self.phase: Literal["setup", "play", "over"] = "setup"
        self.current = 0  # the active player (the player setting up, during setup)
        # setup: "discard" | "place" (a simultaneous setup's step; a sequential setup stays
        # "discard" and uses frames); play: "start" | "actions" | "end"
        self.stage = "discard"
        self.actions_left = 0
        self.played = 0  # bitmask of professions played from hand this turn
        self.turn = 0
        self.frames: list[dict[str, Any]] = []  # decisions in progress, innermost last
        self.undo_steps = 0  # steps since hidden information was last revealed
        self.last_actor: int | None = None
        self.result: list[dict[str, Any]] | None = None
        # Seats that conceded or were abandoned, in that order: they rank last. The site
        # lets the computer play on for them in games of 3 or 4.
        self.resigned: list[int] = []
        # Simultaneous setup (options.setup): each seat's pending choice in the current
        # step, secret to the others until all have chosen (the cards to discard in their
        # order, or the 3 cards to place), and whether the seat has chosen (it may still
        # change its choice until the last seat has chosen). Empty outside that setup.
        self.setup_picks: list[list[int]] = []
        self.setup_chosen: list[bool] = []
        # Each seat's steps of its pending choice (it may take them back, one by one,
        # whatever the other seats chose meanwhile). Empty outside that setup.
        self.setup_steps: list[int] = []

    def clone(self) -> State:
        s = State.__new__(State)
        s.options = self.options
        s.names = self.names
        s.rng = self.rng
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.vp_deck = self.vp_deck[:]
        s.center = self.center[:]
        s.players = [p.clone() for p in self.players]
        s.phase = self.phase
        s.current = self.current
        s.stage = self.stage
        s.actions_left = self.actions_left
        s.played = self.played
        s.turn = self.turn
        s.frames = self.frames[:]
        s.undo_steps = self.undo_steps
        s.last_actor = self.last_actor
        s.result = self.result
        s.resigned = self.resigned[:]
        s.setup_picks = [picks[:] for picks in self.setup_picks]
        s.setup_chosen = self.setup_chosen[:]
        s.setup_steps = self.setup_steps[:]
        return s

    def fields_json(self) -> dict[str, Any]:
        """Every field as plain JSON, copied: ``positions.to_json`` stores it after the
        format number, and two states are equal when it is."""
        data = {
            "options": self.options.to_json(),
            "names": list(self.names),
            "rng": self.rng,
            "deck": self.deck[:],
            "discard": self.discard[:],
            "vp_deck": self.vp_deck[:],
            "center": self.center[:],
            "players": [
                {
                    "hand": ps.hand[:],
                    "known": ps.known[:],
                    "guildhall": ps.guildhall[:],
                    "action_area": ps.action_area[:],
                    "action_vp": ps.action_vp[:],
                    "completed": [ch[:] for ch in ps.completed],
                    "vp_cards": ps.vp_cards[:],
                    "tokens": ps.tokens,
                }
                for ps in self.players
            ],
            "phase": self.phase,
            "current": self.current,
            "stage": self.stage,
            "actions_left": self.actions_left,
            "played": self.played,
            "turn": self.turn,
            "frames": [copy_frame(fr) for fr in self.frames],
            "undo_steps": self.undo_steps,
            "last_actor": self.last_actor,
            "result": self.result,
            "resigned": self.resigned[:],
        }
        if self.setup_chosen:
            # A simultaneous setup step: each seat's pending choice (only then, so that every
            # other position reads and writes as it did before the option existed).
            data["setup_picks"] = [picks[:] for picks in self.setup_picks]
            data["setup_chosen"] = self.setup_chosen[:]
            data["setup_steps"] = self.setup_steps[:]
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.fields_json() == other.fields_json()

    __hash__ = None  # type: ignore[assignment]  # mutable (typeshed types it as a method)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def simultaneous(self) -> bool:
        """Whether the seats are choosing at once now (a simultaneous setup's step)."""
        return self.phase == "setup" and bool(self.setup_chosen)


def copy_frame(fr: dict[str, Any]) -> dict[str, Any]:
    """A frame with lists of its own: a written or read position shares none with a state."""
    return {k: (v[:] if isinstance(v, list) else v) for k, v in fr.items()}
