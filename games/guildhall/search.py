"""The "strong" computer player: ISMCTS (``games.core.ismcts``) over Guildhall.

The hooks below are all the search knows of the game. It imagines the hidden cards anew
with ``determinize`` at every iteration, so it never works on the real deck or another
player's real hand; it plays out with a cheap biased-random policy to the start of the next
player's turn and scores that position with the lookahead bot's ``evaluate``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from typing import Any

from games.core import ismcts

from .bot import evaluate
from .cards import IDENT
from .determinize import determinize
from .engine import apply, deciders, decision_player, legal_actions
from .positions import to_json
from .state import State
from .views import view

DEFAULT_BUDGET_MS = 1000

# ``bot.evaluate`` is a difference of worths (10 per VP, 30 per completed chapter...):
# this many points of it move a seat's reward from 0.5 to about 0.73.
EVAL_SCALE = 40.0

# Play-outs: progress first (buy, use the highest level, stop discarding), as in
# ``random_player`` but cheaper to judge than the lookahead bot's choices.
_ROLLOUT_WEIGHTS = {"buy": 50.0, "use": 4.0, "play": 2.0, "done": 3.0, "skip": 0.5, "keep": 0.3}

# The budget is a turn's: its first decision (which card to play, what to buy) may spend
# 60% of it, each later one (a pick, a discard, an order) 10%, counting what the turn's
# earlier searches spent on its subtree where this process kept it; every search stops
# once its best action is settled.
CONFIG = ismcts.SearchConfig(
    exploration=0.7, horizon=1, max_rollout_steps=200, first_share=0.6, later_share=0.1
)


def rewards(st: State) -> list[float]:
    """Every seat's reward in [0, 1]: 1 for the winner once the game is over, else the
    logistic of its ``evaluate``."""
    n = len(st.players)
    if st.phase == "over":
        winner = st.result[0]["seat"] if st.result and st.result[0]["rank"] == 1 else None
        return [1.0 if q == winner else 0.0 for q in range(n)]
    return [1.0 / (1.0 + math.exp(-evaluate(st, q) / EVAL_SCALE)) for q in range(n)]


def progress(st: State) -> int:
    """Grows by one at every new turn; during setup, at every seat that sets up (setup
    counts up to 0, the first turn is 1)."""
    if st.phase == "setup":
        if st.simultaneous:  # every seat at once: its two steps
            return -2 if st.stage == "discard" else -1
        return st.current - len(st.players)
    return st.turn


def rollout_policy(st: State, actions: list[dict[str, Any]], rand: random.Random) -> dict[str, Any]:
    weights = [_ROLLOUT_WEIGHTS.get(a["kind"], 1.0) for a in actions]
    return rand.choices(actions, weights)[0]


def _key(action: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    # Guildhall's actions are flat: kind plus at most two int or str fields.
    return tuple(sorted(action.items()))


def opens_turn(st: State) -> bool:
    """A seat's turn is its decisions in a row: the first follows another seat's."""
    return st.last_actor != decision_player(st)


def state_key(st: State) -> str:
    """The position with every card named by its identity (twins play alike: RULINGS 2)."""
    data = to_json(st)

    def ids(cards: list[int | None]) -> list[int | None]:
        return [None if c is None else IDENT[c] for c in cards]

    for pile in ("deck", "discard", "center"):
        data[pile] = ids(data[pile])
    for ps in data["players"]:
        for place in ("hand", "known", "guildhall", "action_area"):
            ps[place] = ids(ps[place])
        ps["completed"] = [ids(chapter) for chapter in ps["completed"]]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def info_key(st: State, seat: int) -> str:
    """What ``seat`` knows: its view."""
    return json.dumps(view(st, seat), sort_keys=True, separators=(",", ":"))


GAME: ismcts.SearchGame[State, dict[str, Any]] = ismcts.SearchGame(
    to_move=decision_player,
    legal_actions=legal_actions,
    apply=apply,
    evaluate=rewards,
    imagine=determinize,
    rollout_policy=rollout_policy,
    progress=progress,
    action_key=_key,
    opens_turn=opens_turn,
    state_key=state_key,
    info_key=info_key,
    clone=State.clone,
)


def game_for(seat: int) -> ismcts.SearchGame[State, dict[str, Any]]:
    """``GAME`` as ``seat`` searches it. In a simultaneous setup step, where every seat
    chooses at once, the searching seat is the one to move until it has chosen (then the
    others, in seat order, with the choices ``determinize`` imagined for them)."""

    def to_move(st: State) -> int | None:
        if st.simultaneous and seat in deciders(st):
            return seat
        return decision_player(st)

    def legal(st: State) -> list[dict[str, Any]]:
        # Forward only: taking a chosen card back ("keep") is for people who change their
        # mind. Offered to the search, it made the computer pick and take back the same
        # cards for hundreds of moves before it said "done".
        actions = legal_actions(st, to_move(st))
        if st.simultaneous:
            actions = [a for a in actions if a["kind"] != "keep"]
        return actions

    def act(st: State, action: dict[str, Any]) -> object:
        return apply(st, action, to_move(st))

    def opens(st: State) -> bool:
        return st.last_actor != to_move(st)

    return dataclasses.replace(
        GAME, to_move=to_move, legal_actions=legal, apply=act, opens_turn=opens
    )


def choose(
    st: State,
    seat: int,
    rand: random.Random,
    *,
    budget_ms: int | None = None,
    iterations: int | None = None,
) -> dict[str, Any]:
    """The strong player's action for ``seat`` (a seat deciding now): ``iterations`` of
    search when given (deterministic), else ``budget_ms`` (default 1000 ms), both a
    turn's budget (``CONFIG``)."""
    if iterations is None and budget_ms is None:
        budget_ms = DEFAULT_BUDGET_MS
    game = game_for(seat) if st.simultaneous else GAME
    return ismcts.choose(
        game, st, seat, rand, budget_ms=budget_ms, iterations=iterations, config=CONFIG
    )
