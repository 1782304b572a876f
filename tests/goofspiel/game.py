"""Goofspiel on the site: the proof game of the platform's protocol (docs/adding-a-game.md
shows it whole). Registered only when the tests import it: several seats deciding at once,
with choices hidden until they are revealed together.

Its parts (``games.core.protocol``): the rules are the engine module itself (``engine``,
which has every function ``Rules`` asks for); what a seat sees and the log, the computer
player and the pages are the small classes below.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.core import GameKind, OptionSpec, register
from games.core.protocol import ResultRow, SeatUser

from . import engine
from .engine import State


def action_json(action: dict) -> str:
    # Compact and key-sorted: the value of a decision button, as the site reads it back.
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


class Observer:
    """What a seat or a spectator may know: the engine's views and log, and a prompt."""

    def view(self, state: State, seat: int | None, /) -> dict:
        return engine.view(state, seat)

    def describe(self, state: State, events: list[dict], viewer: int | None, /) -> list[str]:
        return engine.describe(state, events, viewer)

    def log_heading(self, state: State, event: dict, /) -> str | None:
        return None

    def prompt(self, view: dict, /) -> str | None:
        if not view["legal_actions"]:
            return None
        if view["choice"] is None:
            return f"Choose a card to bid for the prize of {view['prize']}."
        return f"You chose {view['choice']}: you may change it until everyone has chosen."

    def scores(self, view: dict, /) -> dict[int, int]:
        return {p["seat"]: p["score"] for p in view["players"]}

    def result_detail(self, row: ResultRow, /) -> str:
        return ""

    def hand_summary(self, view: dict, /) -> list[str] | None:
        return None


class ComputerPlayers:
    LEVELS = ("normal",)

    def choose(
        self,
        level: str,
        state: State,
        seat: int,
        rand: random.Random,
        budget_ms: int | None,
        iterations: int | None,
        /,
    ) -> dict:
        return engine.choose(state, seat, rand)


class Pages:
    BOARD_TEMPLATE = "goofspiel/board.html"
    TEMPLATE_DIR: Path | None = Path(__file__).parent / "templates"
    STYLESHEET: str | None = None
    RULES_TEMPLATE: str | None = None

    def board_context(self, view: dict, seat_users: dict[int, SeatUser], /) -> dict:
        names = {p["seat"]: p["name"] for p in view["players"]}
        bids = {a["card"]: action_json(a) for a in view["legal_actions"] if a["kind"] == "bid"}
        return {
            "stage_label": f"Round {view['round']} of {view['rounds']}",
            "prompt_text": OBSERVER.prompt(view),
            "watching": view["viewer"] is None,
            "players": [_player(p, view["viewer"], seat_users) for p in view["players"]],
            "hand": [
                {"card": card, "action": bids.get(card), "chosen": card == view["choice"]}
                for card in view["hand"] or ()
            ],
            "history": [_round(entry, names) for entry in reversed(view["history"])],
            "result": [
                {**row, "is_me": row["seat"] == view["viewer"]} for row in view["result"] or ()
            ],
        }

    def rules_context(self) -> dict[str, Any]:
        return {}

    def api_components(self, view_component: str, action_component: str, /) -> dict:
        return {view_component: VIEW_SCHEMA, action_component: ACTION_SCHEMA}

    def action_examples(self) -> dict[str, dict]:
        return {"Bid a card": {"kind": "bid", "card": 3}}


class Options:
    """Every option as a dict (the platform's way), named for the lobby."""

    def parse(self, chosen: dict, players: int, /) -> dict:
        return chosen

    def to_json(self, options: dict, /) -> dict:
        return dict(options)

    def from_json(self, data: dict, /) -> dict:
        return dict(data)

    def label(self, options: dict, /) -> str:
        return f"{options['cards']} cards"


OBSERVER = Observer()


def _player(p: dict, viewer: int | None, seat_users: dict[int, SeatUser]) -> dict:
    user = seat_users.get(p["seat"], {})
    return {
        **p,
        "is_me": p["seat"] == viewer,
        "status": "has chosen" if p["has_chosen"] else "choosing",
        "online": bool(user.get("online")),
        "computer": bool(user.get("computer")),
    }


def _round(entry: dict, names: dict[int, str]) -> dict:
    return {
        "round": entry["round"],
        "prize": entry["prize"],
        "bids": [
            {"name": names[seat], "card": card, "took": seat == entry["winner"]}
            for seat, card in enumerate(entry["bids"])
        ],
        "taker": None if entry["winner"] is None else names[entry["winner"]],
    }


# OpenAPI 3.0 schemas of the view and the actions, by hand --------------------------------------

_INT = {"type": "integer"}
_CARD = {"type": "integer", "minimum": 1, "maximum": engine.MAX_CARDS}
_SEAT = {"type": "integer", "minimum": 0, "maximum": engine.MAX_PLAYERS - 1}

ACTION_SCHEMA = {
    "type": "object",
    "description": 'A Goofspiel action: "bid" needs a card; "undo" is never allowed.',
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": ["bid", "undo", "resign"]},
        "card": {**_CARD, "description": "The card to bid, from your hand."},
    },
    "additionalProperties": False,
}

VIEW_SCHEMA = {
    "type": "object",
    "description": "A Goofspiel game as one player (or a spectator) may see it.",
    "required": [
        "options",
        "viewer",
        "phase",
        "round",
        "prize",
        "prizes_left",
        "players",
        "hand",
        "choice",
        "history",
        "decision",
        "legal_actions",
        "can_undo",
        "result",
    ],
    "properties": {
        "options": {"type": "object", "properties": {"cards": _INT}},
        "viewer": {**_SEAT, "nullable": True},
        "phase": {"type": "string", "enum": ["play", "over"]},
        "round": _INT,
        "rounds": _INT,
        "prize": {**_CARD, "nullable": True, "description": "The prize card on the table."},
        "prizes_left": {**_INT, "description": "Prize cards still face down."},
        "prizes_to_come": {"type": "array", "items": _CARD, "description": "Sorted."},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "seat": _SEAT,
                    "name": {"type": "string"},
                    "score": _INT,
                    "hand_size": _INT,
                    "has_chosen": {"type": "boolean", "description": "Never what."},
                    "resigned": {"type": "boolean"},
                },
            },
        },
        "hand": {"type": "array", "items": _CARD, "nullable": True},
        "choice": {**_CARD, "nullable": True, "description": "Your pending bid."},
        "history": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "round": _INT,
                    "prize": _CARD,
                    "bids": {"type": "array", "items": _CARD, "description": "By seat."},
                    "winner": {**_SEAT, "nullable": True},
                },
            },
        },
        "decision": {
            "type": "object",
            "nullable": True,
            "description": "What you decide now: a bid for the prize (your choice so far).",
            "properties": {
                "kind": {"type": "string", "enum": ["bid"]},
                "prize": _CARD,
                "choice": {**_CARD, "nullable": True},
            },
        },
        "legal_actions": {"type": "array", "items": ACTION_SCHEMA},
        "can_undo": {"type": "boolean"},
        "result": {
            "type": "array",
            "nullable": True,
            "items": {
                "type": "object",
                "properties": {
                    "seat": _SEAT,
                    "rank": _INT,
                    "score": _INT,
                    "name": {"type": "string"},
                    "resigned": {"type": "boolean"},
                },
            },
        },
    },
}


GOOFSPIEL = register(
    GameKind(
        id="goofspiel",
        name="Goofspiel",
        min_players=engine.MIN_PLAYERS,
        max_players=engine.MAX_PLAYERS,
        summary=(
            "Every round all players bid one of their cards at once, face down, for the prize "
            "card on the table: the single highest bid takes it."
        ),
        rules_url="https://en.wikipedia.org/wiki/Goofspiel",
        option_specs=(
            OptionSpec(
                "cards",
                "int",
                5,
                "Cards",
                "Each player holds cards 1 to this, and so does the prize deck.",
                minimum=engine.MIN_CARDS,
                maximum=engine.MAX_CARDS,
            ),
        ),
        options=Options(),
        rules=engine,
        observer=OBSERVER,
        computers=ComputerPlayers(),
        pages=Pages(),
    )
)
