"""Renaissance Man's OpenAPI components: its view, derived from ``view_types``, and its
actions, derived from the engine's action tables (``ACTION_FIELDS``, ``OPTIONAL``,
``ANSWERS``). Every name starts with "Renaissance" so that other games' components can sit
beside them.
"""

from __future__ import annotations

from typing import Any

from games.core.schema import Schemas, action_component, ref
from games.core.schema import action_name as core_action_name

from .legal import ACTION_FIELDS, ANSWERS, OPTIONAL
from .view_types import DeckCardId, Icon, KnightFrom, Level, Pos, Source, View, Worker

PREFIX = "Renaissance"

ACTION_TEXT = {
    "foundation": "Foundation: the next level-1 place, left to right (the 5th goes by itself).",
    "reset": "Start your submission over (foundation, action phase).",
    "remove": (
        "Remove an uncovered worker of level 2 or more of yours, first in a decision (made "
        "at the reveal, before the rest; chain removal allowed)."
    ),
    "hire": "HIRE: the hand card into the structure at that place (its needs met).",
    "barter": (
        "BARTER: discard the hand card for a Stored Actions token of its type; with a full "
        "store, name the token to return (`return_token`, only then)."
    ),
    "teach": "TEACH: discard the hand card for an RM-area token of its type.",
    "recruit": "RECRUIT: discard the hand card; a Knight (`knight`) goes to its type's area.",
    "pass": "No action this phase (your removals still happen).",
    "place_rm": "Where your new face-down Renaissance Man goes (an open place).",
    "take": "The Recruit area you won: its card into your hand.",
    "place": "The Recruit area you won: its card into your structure at that place.",
    "discard": "Discard step: add the hand card to your discards.",
    "keep": "Discard step: take it back.",
    "done": "Discard step: submit your discards (none is fine).",
    "undo": "Take back your last step, when the view's `can_undo` says you may.",
    "resign": "Concede the game (any seat, any time; the version is not compared).",
}

# The type of each action field; ``ACTION_FIELDS`` gives only its Python type.
FIELD_TYPES: dict[str, Any] = {
    "worker": Worker,
    "level": Level,
    "pos": Pos,
    "card": DeckCardId,
    "source": Source,
    "return_token": Icon,
    "knight": KnightFrom,
}
# The platform's kinds, which every game takes.
PLATFORM_KINDS: dict[str, dict[str, Any]] = {"undo": {}, "resign": {}}

ACTION_EXAMPLES: dict[str, dict[str, Any]] = {
    "foundation": {"kind": "foundation", "worker": "merchant"},
    "reset": {"kind": "reset"},
    "remove": {"kind": "remove", "level": 2, "pos": 1},
    "hire": {"kind": "hire", "card": 17, "source": "worker", "level": 2, "pos": 0},
    "barter": {"kind": "barter", "card": 55, "source": "worker", "return_token": "bread"},
    "teach": {"kind": "teach", "card": 30, "source": "token"},
    "recruit": {"kind": "recruit", "card": 80, "source": "token", "knight": "book"},
    "pass": {"kind": "pass"},
    "place_rm": {"kind": "place_rm", "level": 2, "pos": 3},
    "take": {"kind": "take"},
    "place": {"kind": "place", "level": 2, "pos": 1},
    "discard": {"kind": "discard", "card": 3},
    "keep": {"kind": "keep", "card": 3},
    "done": {"kind": "done"},
    "undo": {"kind": "undo"},
    "resign": {"kind": "resign"},
}

# For the submit endpoint's documentation: a title for each example worth showing there.
EXAMPLES = {
    "Place a foundation worker": ACTION_EXAMPLES["foundation"],
    "Remove a worker first": ACTION_EXAMPLES["remove"],
    "Hire": ACTION_EXAMPLES["hire"],
    "Barter with a full store": ACTION_EXAMPLES["barter"],
    "Recruit, moving a Knight": ACTION_EXAMPLES["recruit"],
    "Discard a card": ACTION_EXAMPLES["discard"],
}


def kinds() -> dict[str, dict[str, type]]:
    return {**ACTION_FIELDS, **PLATFORM_KINDS}


def action_name(kind: str) -> str:
    """The component of an action kind: "place_rm" -> "RenaissanceActionPlaceRm"."""
    return core_action_name(PREFIX, kind)


def _action_component(schemas: Schemas, kind: str, fields: dict[str, type]) -> dict[str, Any]:
    return action_component(
        schemas,
        kind,
        list(fields),
        FIELD_TYPES,
        optional=OPTIONAL.get(kind, set()),
        description=ACTION_TEXT[kind],
        example=ACTION_EXAMPLES[kind],
    )


def _action_union() -> dict[str, Any]:
    by_step: dict[str, list[str]] = {}
    for kind, steps in ANSWERS.items():
        for step in steps:
            by_step.setdefault(step, []).append(kind)
    answers = "\n".join(
        f"- `{step}`: {', '.join(f'`{k}`' for k in found)}" for step, found in by_step.items()
    )
    return {
        "description": (
            "One decision, as a JSON object with a `kind` and exactly the fields of that kind "
            "(docs/renaissance.md). The legal ones at each moment are the view's "
            "`legal_actions`; `undo` and `resign` are always sent this way too. The action "
            "kinds that answer each stage:\n\n" + answers
        ),
        "oneOf": [ref(action_name(kind)) for kind in kinds()],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {kind: ref(action_name(kind))["$ref"] for kind in kinds()},
        },
    }


def api_components(view: str = PREFIX + "View", action: str = PREFIX + "Action") -> dict[str, Any]:
    """Every OpenAPI component of Renaissance Man: the view (``view``: the prefix and the
    class name, RenaissanceView) and what it holds, the action (``action``) and one
    component per action kind."""
    schemas = Schemas(PREFIX)
    schemas.of(View)
    if view not in schemas.components:
        raise ValueError(f"the view's component is {PREFIX}View, not {view}")
    actions = {
        action_name(kind): _action_component(schemas, kind, fields)
        for kind, fields in kinds().items()
    }
    return {**schemas.components, action: _action_union(), **actions}
