"""Guildhall's rules as the platform asks for them (``games.core.protocol.Rules``): the
engine's own functions, in the protocol's names and argument order."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, cast

from games.core.i18n import gettext as _
from games.core.protocol import Answer, ResultRow

from . import engine
from .engine import check_shape, legal_actions, resign
from .engine import new_game as new_state
from .positions import from_json, to_json
from .state import State

__all__ = [
    "apply",
    "can_undo",
    "check_shape",
    "clone",
    "deciders",
    "from_json",
    "legal_actions",
    "new_state",
    "obvious_answer",
    "phase",
    "private_record",
    "resign",
    "result",
    "step",
    "to_json",
]


def clone(state: State) -> State:
    return state.clone()


def phase(state: State) -> str:
    return state.phase


def deciders(state: State) -> frozenset[int]:
    # Every seat still choosing in a simultaneous setup step, else the deciding seat.
    return frozenset(engine.deciders(state))


def step(state: State) -> Hashable:
    # Each step of a simultaneous setup is a round of choices of its own; otherwise one seat
    # decides at a time and its wait starts again when the decision comes to it.
    if state.simultaneous:
        return ("setup", state.stage)
    return 0


def apply(state: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    return engine.apply(state, action, seat)


def can_undo(state: State, seat: int) -> bool:
    return engine.can_undo(state, seat)


def private_record(state: State) -> bool:
    # A step of a pending simultaneous setup choice (a discard picked or put back, "done"):
    # nobody may count them. Every other Guildhall record is public.
    return engine.private_record(state)


def result(state: State) -> list[ResultRow] | None:
    if state.result is None:
        return None
    # The engine's ranking rows (seat, rank, vp, completed...) with the score.
    return [cast(ResultRow, {**row, "score": row["vp"]}) for row in state.result]


def obvious_answer(state: State, seat: int) -> Answer | None:
    # No action left in the turn: nothing to do but confirm its end.
    if seat not in engine.deciders(state) or legal_actions(state, seat) != [{"kind": "end_turn"}]:
        return None
    return {"action": {"kind": "end_turn"}, "label": _("End your turn")}
