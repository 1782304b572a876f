"""What one seat (or a spectator) may know of a game, as JSON: the only way a state is shown.

Never in a view: another seat's hand or unrevealed submission, the deck's order, the
discard pile's contents, the face of a face-down card (its owner's included), the
generator. Who has submitted in the current step is public; what, only to its owner.
"""

from __future__ import annotations

from typing import Any, cast

from . import engine, pyramid
from .cards import (
    ALL_CARDS,
    FOUNDATION,
    FOUNDATION_BASE,
    ICONS,
    NEED_L,
    NEED_R,
    OFFER_L,
    OFFER_R,
    RM,
    TYPE,
    TYPES,
    WILD,
)
from .legal import legal_actions, majority, sources, virtual_cells
from .pyramid import BELOW, FIRST, LEVEL, LEVEL_SIZES, POS, SIZE, Cells
from .state import PlayerState, State
from .view_types import (
    Access,
    Area,
    Card,
    ChosenAction,
    Decision,
    EmptyPlace,
    FaceDown,
    Options,
    Place,
    PlayerView,
    ResultRow,
    Revealed,
    View,
)

FACE_DOWN: FaceDown = {"face_down": True}


def card_json(card: int) -> Card:
    """A face-up card as views show it (a new dict each time: callers may keep it)."""
    kind, offers, needs = _JSON[card]
    if card >= FOUNDATION_BASE:  # no bottom corners: it never rests on anything
        return {"id": card, "type": kind, "offers": list(offers), "needs": None, "foundation": True}
    return {"id": card, "type": kind, "offers": list(offers), "needs": list(needs)}


def _corner(icon: int) -> str:
    return "any" if icon == WILD else ICONS[icon]


# Each card's face as views show it: its type, offers and needs.
_JSON = [
    (
        "rm" if TYPE[c] == RM else TYPES[TYPE[c]],
        (_corner(OFFER_L[c]), _corner(OFFER_R[c])),
        (_corner(NEED_L[c]), _corner(NEED_R[c])),
    )
    for c in range(ALL_CARDS)
]


def view(st: State, seat: int | None) -> View:
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(st.players)):
        raise ValueError(f"no seat {seat!r}")
    waiting = engine.deciders(st)
    actions = legal_actions(st, seat) if seat is not None else []
    return {
        # The options as stored: the parsed options of the game (``Options``).
        "options": cast(Options, dict(st.options)),
        "viewer": seat,
        "phase": st.phase_name,
        "stage": st.stage,
        "round": st.round,
        "action_phase": st.phase if st.stage in ("action", "rm") else None,
        "step": st.step,
        "players": [_player(st, q, q in waiting) for q in st.seats],
        "recruit_board": [_area(st, a) for a in range(4)],
        "recruit_area": ICONS[st.area] if st.stage == "recruit" and st.area < 4 else None,
        "deck_size": len(st.deck),
        "discard_size": len(st.discard),
        "hand": [card_json(c) for c in st.players[seat].hand] if seat is not None else None,
        # Only a seat has legal actions.
        "decision": _decision(st, seat) if actions and seat is not None else None,
        "legal_actions": actions,
        "can_undo": seat is not None and engine.can_undo(st, seat),
        "revealed": _revealed(st.revealed),
        "result": _result(st),
    }


def structure(st: State, q: int) -> list[list[Card | FaceDown | None]]:
    """Levels 1 to 5, left to right; a face-down card shows only that it is one."""
    p = st.players[q]
    down = p.down
    rows = []
    for level, n in enumerate(LEVEL_SIZES, start=1):
        row: list[Card | FaceDown | None] = []
        for i in range(FIRST[level - 1], FIRST[level - 1] + n):
            card = p.cells[i]
            row.append(None if card is None else FACE_DOWN if card in down else card_json(card))
        rows.append(row)
    return rows


def _player(st: State, q: int, deciding: bool) -> PlayerView:
    p = st.players[q]
    simultaneous = st.stage in ("foundation", "action", "rm", "discard")
    return {
        "seat": q,
        "name": st.names[q],
        "structure": structure(st, q),
        "covered": _covered(p.cells),
        "empty": _empty(p),
        "cards": pyramid.count(p.cells),
        "hand_size": len(p.hand),
        "stored": [ICONS[t] for t in p.stored],
        "rm_tokens": [ICONS[t] for t in p.rm_tokens],
        "knights_supply": p.supply,
        "tiebreak": engine.tiebreak(st, q),
        "deciding": deciding,
        # Whether the seat has submitted in this simultaneous step (never what).
        "submitted": simultaneous and p.done and _involved(st, q),
        "resigned": q in st.resigned,
    }


def _covered(cells: Cells) -> list[Place]:
    return [_where(i) for i in range(SIZE) if cells[i] is not None and pyramid.covered(cells, i)]


def _empty(p: PlayerState) -> list[EmptyPlace]:
    """The empty places above a card, with the offers the cards below turn toward them."""
    out: list[EmptyPlace] = []
    for i in range(FIRST[1], SIZE):
        below = BELOW[i]
        assert below is not None  # level 2 or higher
        left, right = (p.cells[j] for j in below)
        if p.cells[i] is not None or (left is None and right is None):
            continue
        needs = [
            None if left is None else _corner(pyramid.offers(left, p.down)[1]),
            None if right is None else _corner(pyramid.offers(right, p.down)[0]),
        ]
        open_ = left is not None and right is not None
        out.append({**_where(i), "open": open_, "needs": needs})
    return out


def _where(i: int) -> Place:
    return {"level": LEVEL[i], "pos": POS[i]}


def _involved(st: State, q: int) -> bool:
    p = st.players[q]
    if st.stage == "rm":
        return bool(p.picks)
    if st.stage == "discard":
        return bool(p.hand)
    return True


def _area(st: State, a: int) -> Area:
    card = st.recruit[a]
    return {
        "area": ICONS[a],
        "type": TYPES[a],
        "card": None if card is None else card_json(card),
        "knights": st.knights[a][:],
        "opposing": st.opposing[a],
        "majority": majority(st, a),
    }


def _decision(st: State, seat: int) -> Decision | None:
    """What ``seat`` decides now, with its own submission so far."""
    p = st.players[seat]
    stage = st.stage
    base: Decision = {"kind": stage, "step": st.step, "submitted": p.done}
    if stage == "foundation":
        return {**base, "order": [FOUNDATION[w] for w in p.picks]}
    if stage in ("action", "rm", "discard"):
        # Removals are the first part of these submissions (the Recruit winner's are made
        # at once): made at the reveal, so the seat's structure looks ahead past them.
        cells = virtual_cells(p)
        base = {
            **base,
            "removals": [_where(i) for i in p.removals],
            "covered": _covered(cells),
        }
    if stage == "action":
        access: Access = {
            "hire": list(sources(st, p, cells, 0)),
            "teach": list(sources(st, p, cells, 1)),
            "barter": list(sources(st, p, cells, 2)),
            "recruit": list(sources(st, p, cells, 3)),
        }
        return {**base, "phase": st.phase, "choice": _action(p.choice), "access": access}
    if stage == "rm":
        # p.choice: the place chosen ({"level", "pos"}), or None.
        choice = cast("ChosenAction | None", p.choice and {"kind": "place_rm", **p.choice})
        return {**base, "kind": "place_rm", "choice": choice}
    if stage == "recruit":
        card = st.recruit[st.area]
        assert card is not None  # an area without a card has no winner to choose
        return {
            **base,
            "area": ICONS[st.area],
            "card": card_json(card),
            "submitted": False,
        }
    if stage == "discard":
        return {**base, "cards": [card_json(c) for c in p.picks]}
    return None


def _action(action: dict[str, Any] | None) -> ChosenAction | None:
    if action is None:
        return None
    out = dict(action)
    if "card" in out:
        out["card"] = card_json(out["card"])
    return cast(ChosenAction, out)  # an action as applied, its card given whole


def _revealed(revealed: dict[str, Any] | None) -> Revealed | None:
    """The latest action phase's submissions, as revealed to all."""
    if revealed is None:
        return None
    return {
        "round": revealed["round"],
        "phase": revealed["phase"],
        "submissions": [
            {
                "player": s["player"],
                "removals": [
                    {
                        "level": r["level"],
                        "pos": r["pos"],
                        "card": FACE_DOWN if r["card"] is None else card_json(r["card"]),
                    }
                    for r in s["removals"]
                ],
                "action": _action(s["action"]),
            }
            for s in revealed["submissions"]
        ],
    }


def _result(st: State) -> list[ResultRow] | None:
    if st.result is None:
        return None
    # The engine's ranking rows (seat, rank, score) with what the view adds.
    return [
        cast(
            ResultRow,
            {
                **row,
                "name": st.names[row["seat"]],
                "tiebreak": engine.tiebreak(st, row["seat"]),
                "master": st.players[row["seat"]].cells[pyramid.MASTER] is not None,
                "resigned": row["seat"] in st.resigned,
            },
        )
        for row in st.result
    ]
