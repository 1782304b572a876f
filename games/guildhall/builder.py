"""Set up a position by hand: name the cards that matter, the rest go to the deck.

    st = build(
        players=[
            {"hand": ["red weaver"], "guildhall": ["blue weaver", "green weaver"]},
            {"guildhall": ["red trader"]},
        ],
        discard=["purple trader"],
    )

Cards are written 'red trader' (the first free copy) or 'red trader #2'. Completed
chapters are written by profession ('trader'); VP cards by kind ('vp5'). Unnamed
profession cards form the deck (in id order, then shuffled by ``seed``), unnamed VP cards
the VP deck. The result is checked like any loaded position.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import rng
from .cards import (
    CARD_COUNT,
    COLORS,
    PROFESSION_INDEX,
    VP_CARD_KIND,
    VP_KIND_INDEX,
    card_id,
    parse_card,
    vp_cards_for,
)
from .options import Options
from .positions import from_json
from .state import State


def build(
    *,
    players: list[dict[str, Any]],
    options: Options | None = None,
    names: list[str] | None = None,
    current: int = 0,
    actions_left: int = 2,
    played: tuple[str, ...] = (),
    discard: tuple[str, ...] | list[str] = (),
    deck_top: tuple[str, ...] | list[str] = (),
    center: tuple[str | None, ...] | list[str | None] = (
        "vp5",
        "vp5",
        "vp9",
        "vp3_draw",
        "vp4_take",
    ),
    seed: int = 0,
    turn: int = 1,
) -> State:
    """A position in the middle of ``current``'s turn (phase 'play')."""
    n = len(players)
    options = options or Options(players=n)
    if options.players != n:
        options = Options(
            players=n, rules=options.rules, advanced=options.advanced, names=options.names
        )
    names = names or ["Ann", "Bob", "Cid", "Dee"][:n]
    taken: set[int] = set()

    def cards(texts: Iterable[str | int]) -> list[int]:
        out = []
        for text in texts:
            c = text if isinstance(text, int) else parse_card(text, taken)
            taken.add(c)
            out.append(c)
        return out

    def chapter(profession: str) -> list[int]:
        out = []
        for color in COLORS:
            for copy in range(4):
                c = card_id(profession, color, copy)
                if c not in taken:
                    taken.add(c)
                    out.append(c)
                    break
            else:
                raise ValueError(f"no free {color} {profession} for a completed chapter")
        return out

    vp_free = vp_cards_for(n)

    def vps(kinds: Iterable[str]) -> list[int]:
        out = []
        for kind in kinds:
            k = VP_KIND_INDEX[kind]
            v = next((v for v in vp_free if VP_CARD_KIND[v] == k), None)
            if v is None:
                raise ValueError(f"no free VP card of kind {kind!r} in a {n}-player game")
            vp_free.remove(v)
            out.append(v)
        return out

    player_data = []
    for pd in players:
        unknown = set(pd) - {
            "hand",
            "known",
            "guildhall",
            "action_area",
            "completed",
            "vp_cards",
            "action_vp",
            "tokens",
        }
        if unknown:
            raise ValueError(f"unknown player fields: {sorted(unknown)}")
        hand = cards(pd.get("hand", ()))
        known = [hand[i] for i in pd.get("known", ())]  # indexes into the hand
        player_data.append(
            {
                "hand": hand,
                "known": known,
                "guildhall": cards(pd.get("guildhall", ())),
                "action_area": cards(pd.get("action_area", ())),
                "completed": [chapter(p) for p in pd.get("completed", ())],
                "vp_cards": vps(pd.get("vp_cards", ())),
                "action_vp": vps(pd.get("action_vp", ())),
                "tokens": pd.get("tokens", 0),
            }
        )
    pile = cards(discard)
    top = cards(deck_top)
    rest = [c for c in range(CARD_COUNT) if c not in taken]
    state_rng = rng.seed_state(seed)
    state_rng = rng.shuffle(state_rng, rest)
    center_ids = [None if k is None else vps([k])[0] for k in center]
    vp_deck = vp_free[:]
    state_rng = rng.shuffle(state_rng, vp_deck)
    data = {
        "format": 1,
        "options": options.to_json(),
        "names": names,
        "rng": state_rng,
        "deck": rest + list(reversed(top)),  # deck_top[0] is drawn first
        "discard": pile,  # discard[-1] is the top card
        "vp_deck": vp_deck,
        "center": center_ids,
        "players": player_data,
        "phase": "play",
        "current": current,
        "stage": "actions",
        "actions_left": actions_left,
        "played": sum(1 << PROFESSION_INDEX[p] for p in played),
        "turn": turn,
        "frames": [],
        "undo_steps": 0,
        "last_actor": None,
        "result": None,
        "resigned": [],
    }
    return from_json(data)


__all__ = ["build"]
