"""Renaissance Man's rules as the platform asks for them (``games.core.protocol.Rules``):
the engine's own functions, in the protocol's names and argument order."""

from __future__ import annotations

from typing import cast

from games.core.i18n import gettext as _
from games.core.protocol import Answer, ResultRow

from .engine import (
    apply,
    can_undo,
    check_shape,
    deciders,
    legal_actions,
    private_record,
    resign,
)
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
    return state.phase_name


def step(state: State) -> int:
    return state.step


def result(state: State) -> list[ResultRow] | None:
    # The engine's ranking rows: seat, rank, score (and what decided them).
    if state.result is None:
        return None
    return [cast(ResultRow, dict(row)) for row in state.result]


def obvious_answer(state: State, seat: int) -> Answer | None:
    # Nothing to take, teach, barter or recruit this phase: only passing is left.
    if seat not in deciders(state) or legal_actions(state, seat) != [{"kind": "pass"}]:
        return None
    return {"action": {"kind": "pass"}, "label": _("Pass this phase")}
