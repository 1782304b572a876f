"""Renaissance Man's part of the site's pages (``games.core.protocol.Pages``): the board
(from a view alone, ``present``), the rules page's numbers from the engine, and its JSON's
schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.core.protocol import SeatUser

from . import api_schema, engine, present
from .cards import ACTIONS, DECK_SIZE, ICONS, action_name, icon_word, type_name
from .pyramid import LEVEL_SIZES
from .state import KNIGHTS, STORE_SLOTS

BOARD_TEMPLATE = "renaissance/board.html"
TEMPLATE_DIR: Path | None = Path(__file__).parent / "templates"
STYLESHEET: str | None = "site/renaissance.css"
RULES_TEMPLATE: str | None = "renaissance/rules.html"


def board_context(view: dict[str, Any], seat_users: dict[int, SeatUser]) -> dict[str, Any]:
    return present.board_context(view, seat_users)


def rules_context() -> dict[str, Any]:
    """The rules page's numbers and the workers' table, from the engine."""
    return {
        "workers": [
            {
                "name": type_name(t),
                "icon": icon_word(ICONS[t]),
                "action": action_name(ACTIONS[t]),
                "anchor": ACTIONS[t],  # the action's part of the page: #hire, ...
            }
            for t in range(len(ICONS))
        ],
        "levels": [
            {"level": level, "cards": n, "master": level == len(LEVEL_SIZES)}
            for level, n in enumerate(LEVEL_SIZES, start=1)
        ],
        "structure_size": sum(LEVEL_SIZES),
        "deck_size": DECK_SIZE,
        "per_type": DECK_SIZE // len(ICONS),
        "hand_size": engine.HAND,
        "knights": KNIGHTS,
        "store_slots": STORE_SLOTS,
        "min_players": engine.MIN_PLAYERS,
        "max_players": engine.MAX_PLAYERS,
    }


def api_components(view_component: str, action_component: str) -> dict[str, Any]:
    return api_schema.api_components(view_component, action_component)


def action_examples() -> dict[str, dict[str, Any]]:
    return api_schema.EXAMPLES
