"""Renaissance Man's rules versions (``games.core.protocol.RulesVersions``): a game is
played to its end under the version it began with (``state.RULES`` says what changed)."""

from __future__ import annotations

from .state import RULES, State

CURRENT = RULES


def of(state: State) -> int:
    return state.rules


def play_under(state: State, version: int) -> None:
    if type(version) is not int or not 1 <= version <= RULES:
        raise ValueError(f"Renaissance Man has no rules version {version!r}")
    state.rules = version
