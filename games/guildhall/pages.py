"""Guildhall's part of the site's pages (``games.core.protocol.Pages``): the board (from a
view alone, ``present``), the rules page's tables in the engine's words, and its JSON's
schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.core.i18n import gettext as _
from games.core.protocol import SeatUser

from . import api_schema, card_help, present
from .cards import FANTASY_NAMES, OLD_WORLD_NAMES, PROFESSIONS, VP_KINDS

BOARD_TEMPLATE = "guildhall/board.html"
TEMPLATE_DIR: Path | None = Path(__file__).parent / "templates"
STYLESHEET: str | None = "site/board.css"
RULES_TEMPLATE: str | None = "guildhall/rules.html"


def board_context(view: dict[str, Any], seat_users: dict[int, SeatUser]) -> dict[str, Any]:
    return present.Board(view, seat_users=seat_users).context()


def rules_context() -> dict[str, Any]:
    """The rules page's tables in the engine's words (the board's card help has the
    same): each profession's ability by level, each kind of VP card, the two name sets."""
    vp_cards = [
        {
            **help,
            "key": kind.key,
            "optional": kind.ability is not None,  # an ability one may use, or not
            "copies": kind.copies,
            "small_copies": kind.small_copies,
        }
        for help, kind in zip(card_help.vp_cards(), VP_KINDS, strict=True)
    ]
    names = [{"name": _(OLD_WORLD_NAMES[p]), "fantasy": _(FANTASY_NAMES[p])} for p in PROFESSIONS]
    return {
        "professions": card_help.professions(None, fantasy=False),
        "vp_cards": vp_cards,
        "profession_names": names,
    }


def api_components(view_component: str, action_component: str) -> dict[str, Any]:
    return api_schema.api_components()


def action_examples() -> dict[str, dict[str, Any]]:
    return api_schema.action_examples()
