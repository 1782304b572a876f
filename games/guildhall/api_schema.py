"""Guildhall's OpenAPI components: its view, derived from ``view_types``, and its actions,
derived from the engine's action tables (``ACTION_FIELDS``, ``OPTIONAL_FIELDS``,
``DECISION_ACTIONS``). Every name starts with "Guildhall" so that other games' components
can sit beside them.
"""

from __future__ import annotations

from typing import Any

from games.core.schema import Schemas, action_component, ref
from games.core.schema import action_name as core_action_name

from .engine import ACTION_FIELDS, DECISION_ACTIONS, OPTIONAL_FIELDS, SETUP_CHOICE_ACTIONS
from .view_types import CardId, ChapterNumber, Level, Profession, Seat, View, VpId

PREFIX = "Guildhall"

ACTION_TEXT = {
    "play": "Play a hand card into the action area; its ability follows.",
    "discard_draw": 'Start the "discard any number, draw up to 6" action.',
    "buy": "Buy a VP card from the center row.",
    "discard": "Discard one hand card (setup, or the discard action); the last is on top.",
    "done": 'Finish an "any number" choice: draw (setup: to 9, action: to 6), or resolve it.',
    "place": "Setup: place a hand card into the guildhall.",
    "keep": (
        "Simultaneous setup: take a card back from your pending choice (it stays in your "
        "hand); allowed until every player has chosen."
    ),
    "use": "Use the ability at that level (profession cards), or the VP card's ability.",
    "skip": "No effect.",
    "target": "The other player the effect acts on.",
    "pick": "One card of the effect (where from: the decision's `from`).",
    "pick_chapter": "One chapter of that player's guildhall.",
    "pay": "Pay with your completed chapter number 0, 1, ...",
    "order": "Put that card on the discard pile next (the last one goes by itself, on top).",
    "discard_chapter": "Discard that completed chapter (chapter limit).",
    "end_turn": "Pass the turn: the action area moves to the guildhall.",
    "undo": "Take back your last step, when the game's `can_undo` says you may.",
    "resign": "Concede the game (any seat, any time; the version is not compared).",
}

# The type of each action field; ``ACTION_FIELDS`` gives only its Python type.
FIELD_TYPES: dict[str, Any] = {
    "card": CardId,
    "vp": VpId,
    "level": Level,
    "player": Seat,
    "profession": Profession,
    "chapter": ChapterNumber,
}

ACTION_EXAMPLES: dict[str, dict[str, Any]] = {
    "play": {"kind": "play", "card": 37},
    "discard_draw": {"kind": "discard_draw"},
    "buy": {"kind": "buy", "vp": 21},
    "discard": {"kind": "discard", "card": 88},
    "done": {"kind": "done"},
    "place": {"kind": "place", "card": 64},
    "keep": {"kind": "keep", "card": 64},
    "use": {"kind": "use", "level": 2},
    "skip": {"kind": "skip"},
    "target": {"kind": "target", "player": 1},
    "pick": {"kind": "pick", "card": 101},
    "pick_chapter": {"kind": "pick_chapter", "player": 1, "profession": "weaver"},
    "pay": {"kind": "pay", "chapter": 0},
    "order": {"kind": "order", "card": 12},
    "discard_chapter": {"kind": "discard_chapter", "chapter": 3},
    "end_turn": {"kind": "end_turn"},
    "undo": {"kind": "undo"},
    "resign": {"kind": "resign"},
}

# For the submit endpoint's documentation: a title for each example worth showing there.
_SUBMIT_EXAMPLES = {
    "Play a card": "play",
    "Use an ability at a level": "use",
    "Choose the other player": "target",
    "Pick a chapter": "pick_chapter",
    "Buy a VP card": "buy",
    "End the turn": "end_turn",
    "Take back the last step": "undo",
    "Concede": "resign",
}


def action_name(kind: str) -> str:
    """The component of an action kind: "pick_chapter" -> "GuildhallActionPickChapter"."""
    return core_action_name(PREFIX, kind)


def _action_component(schemas: Schemas, kind: str) -> dict[str, Any]:
    return action_component(
        schemas,
        kind,
        list(ACTION_FIELDS[kind]),
        FIELD_TYPES,
        optional=OPTIONAL_FIELDS.get(kind, set()),
        description=ACTION_TEXT[kind],
        example=ACTION_EXAMPLES[kind],
    )


def _action_union() -> dict[str, Any]:
    answers = "\n".join(
        f"- `{decision}`: {', '.join(f'`{a}`' for a in actions)}"
        for decision, actions in DECISION_ACTIONS.items()
    )
    simultaneous = "\n".join(
        f"- `{decision}`: {', '.join(f'`{a}`' for a in actions)}"
        for decision, actions in SETUP_CHOICE_ACTIONS.items()
    )
    return {
        "description": (
            "One decision, as a JSON object with a `kind` and exactly the fields of that "
            "kind (docs/rules-engine.md). The legal ones at each moment are the game's "
            "`legal_actions`; `undo` and `resign` are always sent this way too. The action "
            "kinds that answer each kind of decision:\n\n"
            + answers
            + "\n\nIn a simultaneous setup (option `setup`), every player answers the setup "
            "decisions at once, in secret, and may change the choice until all have chosen:"
            "\n\n" + simultaneous
        ),
        "oneOf": [ref(action_name(kind)) for kind in ACTION_FIELDS],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {kind: ref(action_name(kind))["$ref"] for kind in ACTION_FIELDS},
        },
    }


def api_components() -> dict[str, dict[str, Any]]:
    """Every OpenAPI component of Guildhall: the view (GuildhallView) and what it holds,
    the action (GuildhallAction) and one component per action kind."""
    schemas = Schemas(PREFIX)
    schemas.of(View)
    actions = {action_name(kind): _action_component(schemas, kind) for kind in ACTION_FIELDS}
    return {**schemas.components, PREFIX + "Action": _action_union(), **actions}


def action_examples() -> dict[str, dict[str, Any]]:
    """Example actions for the submit endpoint, by title."""
    return {title: dict(ACTION_EXAMPLES[kind]) for title, kind in _SUBMIT_EXAMPLES.items()}
