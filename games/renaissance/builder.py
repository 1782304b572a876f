"""Set up any position directly, for tests and examples: name the cards that matter, the
rest go to the deck.

    st = build(
        players=[
            {
                "foundation": "merchant scholar rm baker knight",
                "cells": {(2, 0): 17, (2, 1): "rm"},  # "rm": an unnamed card, face down
                "hand": [40, 41],
                "stored": ["coin"],
                "rm_tokens": ["book", "bread"],
                "knights": {"shield": 2},  # on the Recruit board; the rest in supply
            },
            {"hand": [5]},
        ],
        recruit=[60, 61, 62, 63],
        deck_top=[70, 71],  # drawn first: 70, then 71
        stage="action",
        phase=1,
    )

Unnamed deck cards form the deck (in id order, shuffled by ``seed``) below ``deck_top``;
an unnamed Recruit area takes the next deck card. The result is checked like any loaded
position (``positions.from_json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import rng

from .cards import DECK_SIZE, FOUNDATION, ICON_INDEX, foundation_card
from .engine import DEFAULT_OPTIONS
from .positions import from_json, to_json
from .pyramid import index
from .state import KNIGHTS, State

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def build(
    *,
    players: list[dict[str, Any]],
    recruit: list[int | None] | None = None,
    deck_top: Sequence[int] = (),
    discard: Sequence[int] = (),
    stage: str = "action",
    phase: int = 1,
    round: int = 1,
    area: int = 0,
    opposing: list[int] | None = None,
    options: dict[str, Any] | None = None,
    names: list[str] | None = None,
    seed: int = 0,
) -> State:
    n = len(players)
    st = State({**DEFAULT_OPTIONS, **(options or {})}, names or NAMES[:n], rng.seed_state(seed))
    taken: set[int] = set()

    def take(card: int) -> int:
        if not 0 <= card < DECK_SIZE or card in taken:
            raise ValueError(f"card {card} is named twice or is not a deck card")
        taken.add(card)
        return card

    faces_down: list[tuple[int, int]] = []  # (seat, position) of "rm" cells to fill
    for q, spec in enumerate(players):
        p = st.players[q]
        if stage != "foundation":
            order = spec.get("foundation", "merchant scholar baker knight rm")
            for k, worker in enumerate(order.split() if isinstance(order, str) else order):
                p.cells[k] = foundation_card(q, FOUNDATION.index(worker))
        for (level, pos), card in spec.get("cells", {}).items():
            i = index(level, pos)
            if card == "rm":
                faces_down.append((q, i))
            else:
                p.cells[i] = take(card)
        for level, pos in spec.get("down", ()):  # named cards placed face down
            # An empty cell named here goes in as None, for the final check to refuse.
            p.down.append(p.cells[index(level, pos)])  # type: ignore[arg-type]
        p.hand = [take(c) for c in spec.get("hand", ())]
        p.stored = sorted(ICON_INDEX[t] for t in spec.get("stored", ()))
        p.rm_tokens = sorted(ICON_INDEX[t] for t in spec.get("rm_tokens", ()))
        for icon, count in spec.get("knights", {}).items():
            st.knights[ICON_INDEX[icon]][q] = count
        p.supply = KNIGHTS - sum(spec.get("knights", {}).values())
        p.picks = list(spec.get("picks", ()))
        if stage == "rm":  # the new face-down card waiting for its place
            for c in p.picks:
                take(c)
        p.choice = spec.get("choice")
        p.done = spec.get("done", False)
    top = [take(c) for c in deck_top]
    st.discard = [take(c) for c in discard]
    named_recruit = [c for c in (recruit or ()) if c is not None]
    for c in named_recruit:
        take(c)
    rest = [c for c in range(DECK_SIZE) if c not in taken]
    st.rng = rng.shuffle(st.rng, rest)
    for q, i in faces_down:
        card = rest.pop()
        st.players[q].cells[i] = card
        st.players[q].down.append(card)
    if recruit is None:
        st.recruit = [rest.pop() for _ in range(4)]
    else:
        st.recruit = list(recruit)
    st.deck = rest + top[::-1]  # the top is the end of the list
    st.opposing = list(opposing or [0, 0, 0, 0])
    st.stage = stage
    st.phase = phase
    st.round = 0 if stage == "foundation" else round
    st.area = area
    for q, spec in enumerate(players):
        p = st.players[q]
        # Progress (``PlayerState.best``, ``idle``): the structure at its best, as of now,
        # unless named.
        p.best = spec.get("best", sum(c is not None for c in p.cells))
        p.idle = spec.get("idle", 0)
    for p in st.players:  # a seat with nothing to decide in this step is not waited for
        if (
            stage in ("recruit", "over")
            or (stage == "rm" and not p.picks)
            or (stage == "discard" and not p.hand)
        ):
            p.done = True
    return from_json(to_json(st))
