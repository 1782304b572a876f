"""What the explanation of a finished game needs of Renaissance Man
(``games.core.protocol.Analyst``): the strong player's search (``search.search``, with its
own settings for the decision, the budget spent whole on it) and an action in the board's
words (``present.action_text``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games.core import ismcts

from . import present
from . import search as strong
from .state import State
from .views import view


def search(
    st: State, seat: int, rand: random.Random, iterations: int
) -> ismcts.SearchResult[dict[str, Any]]:
    # Every iteration on this decision: no step's share, no tree kept from another decision
    # (they would tie one decision's judgement to the order of the others), every action
    # judged (no early stop).
    config = dataclasses.replace(
        strong.config_for(st, seat),
        first_share=1.0,
        later_share=1.0,
        reuse=False,
        early_stop=False,
    )
    return strong.search(st, seat, rand, iterations=iterations, config=config)


def action_words(st: State, seat: int, action: dict[str, Any]) -> str:
    """The action as the board names it to ``seat`` (its hand's cards from its view)."""
    hand: dict[int, dict[str, Any]] = {c["id"]: dict(c) for c in view(st, seat)["hand"] or ()}
    return present.action_text(action, hand)
