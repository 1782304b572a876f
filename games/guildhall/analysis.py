"""What the explanation of a finished game needs of Guildhall (``games.core.protocol.Analyst``):
the strong player's search (``search``: its hooks and settings, unchanged but for the
budget, spent whole on the one decision) and an action in the board's words."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games.core import ismcts
from games.core.i18n import gettext as _

from . import present
from . import search as strong
from .cards import card_name, vp_name
from .state import State
from .views import view

# Every iteration on this decision: no turn's share, no tree kept from another decision
# (the kept trees are this process's, and would tie one decision's judgement to the order
# they were judged in), every action judged (no early stop).
CONFIG = dataclasses.replace(
    strong.CONFIG, first_share=1.0, later_share=1.0, reuse=False, early_stop=False
)


def search(
    st: State, seat: int, rand: random.Random, iterations: int
) -> ismcts.SearchResult[dict[str, Any]]:
    game = strong.game_for(seat) if st.simultaneous else strong.GAME
    return ismcts.search(game, st, seat, rand, iterations=iterations, config=CONFIG)


def action_words(st: State, seat: int, action: dict[str, Any]) -> str:
    """The action as ``seat`` saw it offered: a card's action by the card, the rest as the
    board's button says it."""
    fantasy = st.options.fantasy
    kind = action["kind"]
    if kind == "play":
        return _("Play the {card}").format(card=card_name(action["card"], fantasy))
    if kind == "buy":
        return _("Buy a {vp}").format(vp=vp_name(action["vp"]))
    if kind == "discard":
        return _("Discard the {card}").format(card=card_name(action["card"], fantasy))
    if kind == "place":
        return _("Place the {card}").format(card=card_name(action["card"], fantasy))
    if kind == "pick":
        return _("Choose the {card}").format(card=card_name(action["card"], fantasy))
    if kind == "order":
        return _("Put the {card} next").format(card=card_name(action["card"], fantasy))
    if kind == "keep":
        return _("Take back the {card}").format(card=card_name(action["card"], fantasy))
    label = present.button_label(dict(view(st, seat)), action)
    return label if label is not None else kind
