"""OpenAPI 3.0 schemas of a Renaissance Man view and action, written by hand (minimal: the
board and its API come later)."""

from __future__ import annotations

from .cards import FOUNDATION, ICONS, TYPES
from .legal import ACTION_FIELDS
from .state import STAGES

_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}
_STR = {"type": "string"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_ICON = {"type": "string", "enum": list(ICONS)}
_CORNER = {"type": "string", "enum": [*ICONS, "any"]}

CARD = {
    "type": "object",
    "description": "A face-up card; a face-down one is {face_down: true} and nothing else.",
    "properties": {
        "id": _INT,
        "type": {"type": "string", "enum": [*TYPES, "rm"]},
        "offers": {"type": "array", "items": _CORNER, "description": "Top left, top right."},
        "needs": {
            "type": "array",
            "items": _CORNER,
            "nullable": True,
            "description": "Bottom left, right (null: a foundation card).",
        },
        "foundation": _BOOL,
        "face_down": _BOOL,
    },
}

ACTION = {
    "type": "object",
    "description": (
        "A Renaissance Man action. foundation: the next foundation worker, left to right. "
        "remove: an uncovered worker of level 2+ (first part of a phase's submission). hire, "
        "barter, teach, recruit, pass: the phase's action (source: 'worker' or 'token'). "
        "place_rm: where the new face-down Renaissance Man goes. take / place: a won Recruit "
        "card into the hand / the structure. discard, keep, done: the discard step. reset: "
        "start the submission over. undo, resign: the platform's."
    ),
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": [*ACTION_FIELDS, "undo", "resign"]},
        "worker": {"type": "string", "enum": list(FOUNDATION)},
        "card": {**_INT, "minimum": 0, "maximum": 95},
        "source": {"type": "string", "enum": ["worker", "token"]},
        "level": {**_INT, "minimum": 1, "maximum": 5},
        "pos": {**_INT, "minimum": 0, "maximum": 4, "description": "From the left, from 0."},
        "return_token": _ICON,
        "knight": {"type": "string", "enum": ["supply", *ICONS]},
    },
    "additionalProperties": False,
}

_PLAYER = {
    "type": "object",
    "properties": {
        "seat": _SEAT,
        "name": _STR,
        "structure": {
            "type": "array",
            "description": "Levels 1 to 5, left to right; null where empty.",
            "items": {"type": "array", "items": {**CARD, "nullable": True}},
        },
        "cards": _INT,
        "hand_size": _INT,
        "stored": {"type": "array", "items": _ICON},
        "rm_tokens": {"type": "array", "items": _ICON},
        "knights_supply": _INT,
        "tiebreak": _INT,
        "deciding": _BOOL,
        "submitted": {**_BOOL, "description": "Has submitted in this step (never what)."},
        "resigned": _BOOL,
    },
}

VIEW = {
    "type": "object",
    "description": "A Renaissance Man game as one player (or a spectator) may see it.",
    "required": [
        "viewer",
        "phase",
        "stage",
        "players",
        "recruit_board",
        "decision",
        "legal_actions",
        "can_undo",
    ],
    "properties": {
        "options": {"type": "object"},
        "viewer": {**_SEAT, "nullable": True},
        "phase": {"type": "string", "enum": ["setup", "play", "over"]},
        "stage": {"type": "string", "enum": list(STAGES)},
        "round": _INT,
        "action_phase": {**_INT, "nullable": True},
        "step": _INT,
        "players": {"type": "array", "items": _PLAYER},
        "recruit_board": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "area": _ICON,
                    "type": _STR,
                    "card": {**CARD, "nullable": True},
                    "knights": {"type": "array", "items": _INT, "description": "By seat."},
                    "opposing": _INT,
                },
            },
        },
        "recruit_area": {**_ICON, "nullable": True},
        "deck_size": _INT,
        "discard_size": _INT,
        "hand": {"type": "array", "items": CARD, "nullable": True},
        "decision": {
            "type": "object",
            "nullable": True,
            "description": "What you decide now, with your submission so far.",
            "properties": {
                "kind": {
                    "type": "string",
                    "enum": ["foundation", "action", "place_rm", "recruit", "discard"],
                },
                "submitted": _BOOL,
            },
        },
        "legal_actions": {"type": "array", "items": ACTION},
        "can_undo": _BOOL,
        "revealed": {"type": "object", "nullable": True},
        "result": {"type": "array", "nullable": True, "items": {"type": "object"}},
    },
}

EXAMPLES = {
    "Place a foundation worker": {"kind": "foundation", "worker": "merchant"},
    "Remove a worker first": {"kind": "remove", "level": 2, "pos": 1},
    "Hire": {"kind": "hire", "card": 17, "source": "worker", "level": 2, "pos": 0},
    "Barter with a full store": {
        "kind": "barter",
        "card": 55,
        "source": "worker",
        "return_token": "bread",
    },
    "Recruit, moving a Knight": {
        "kind": "recruit",
        "card": 80,
        "source": "token",
        "knight": "book",
    },
    "Discard a card": {"kind": "discard", "card": 3},
}


def api_components(view_name: str, action_name: str) -> dict[str, dict]:
    return {view_name: VIEW, action_name: ACTION}
