"""A computer player better than random: one step of lookahead over imagined deals.

For each legal action it imagines the hidden cards anew (``determinize``: it never reads
another hand or the deck order), applies the action, finishes the rest of that action's
choices at random, and scores the position it reaches; it takes the action with the best
average score. Used when a player's time runs out and for abandoned seats.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import PROF, VP_COST
from .determinize import determinize
from .engine import (
    CHAPTER_LIMIT,
    WINNING_VP,
    apply,
    deciders,
    decision,
    decision_player,
    legal_actions,
)
from .random_player import choose as random_choice
from .state import State

# Worth of a chapter of n cards in the guildhall (5 completes it).
_CHAPTER_WORTH = (0.0, 2.0, 6.0, 12.0, 20.0)
_BOUNDARY = {"action", "end_turn"}


def evaluate(st: State, seat: int) -> float:
    """How good the position looks for ``seat`` (higher is better)."""
    if st.phase == "over":
        return 1e6 if st.result and st.result[0]["seat"] == seat else -1e6
    me = st.players[seat]
    score = _own_worth(st, seat)
    others = [_own_worth(st, q) for q in range(len(st.players)) if q != seat]
    # Hurting the leader matters more than hurting the others.
    score -= 0.35 * max(others) + 0.1 * sum(others)
    if me.vp >= WINNING_VP:
        score += 500
    return score


def _own_worth(st: State, q: int) -> float:
    ps = st.players[q]
    worth = ps.vp * 10.0
    worth += min(len(ps.completed), CHAPTER_LIMIT + 1) * 30.0
    counts = [0] * 6
    for c in ps.guildhall:
        counts[PROF[c]] += 1
    worth += sum(_CHAPTER_WORTH[min(n, 4)] for n in counts)
    worth += 1.5 * min(len(ps.hand), 9)
    affordable = [VP_COST[v] for v in st.center if v is not None]
    if ps.completed and affordable and min(affordable) <= len(ps.completed):
        worth += 5.0
    return worth


def _finish_choices(st: State, seat: int, rand: random.Random, limit: int = 40) -> None:
    """Play the rest of the current action's choices, up to the next action: the highest
    level of an ability, few discards, the rest at random."""
    if st.simultaneous:
        _finish_setup_step(st, seat, rand)
        return
    for _ in range(limit):
        d = decision(st)
        if d is None or d["player"] != seat or d["kind"] in _BOUNDARY:
            return
        actions = legal_actions(st)
        if d["kind"] in ("ability", "vp_ability"):
            action = actions[-2] if len(actions) > 1 else actions[0]  # highest level, not skip
        elif d["kind"] == "discard" and rand.random() < 0.6:
            action = {"kind": "done"}
        else:
            action = random_choice(st, rand, actions)
        apply(st, action)


def _finish_setup_step(st: State, seat: int, rand: random.Random, limit: int = 200) -> None:
    """A simultaneous setup step, imagined to its end: ``seat`` finishes its own choice
    (few discards), then the others choose at random (``determinize`` dropped what they had
    chosen), so that the step resolves and its result can be scored."""
    stage = st.stage
    for _ in range(limit):
        if not st.simultaneous or st.stage != stage:
            return
        mine = seat in deciders(st)
        q = seat if mine else decision_player(st)
        if mine and stage == "discard" and rand.random() < 0.6:
            action = {"kind": "done"}
        else:
            actions = [a for a in legal_actions(st, q) if a["kind"] != "keep"]
            action = random_choice(st, rand, actions)
        apply(st, action, q)


def choose(
    st: State, rand: random.Random, samples: int = 3, *, seat: int | None = None
) -> dict[str, Any]:
    """``seat``'s action (by default the deciding seat's; in a simultaneous setup, any seat
    still choosing)."""
    if seat is None:
        seat = decision_player(st)
        assert seat is not None  # the game is not over
    actions = legal_actions(st, seat)
    if len(actions) == 1:
        return actions[0]
    best, best_score = actions[0], float("-inf")
    order = actions[:]
    rand.shuffle(order)  # equal scores: no bias toward the first listed action
    for action in order:
        total = 0.0
        for _ in range(samples):
            s = determinize(st, seat, rand)
            apply(s, action, seat)
            _finish_choices(s, seat, rand)
            total += evaluate(s, seat)
        if total > best_score:
            best, best_score = action, total
    return best
