"""The "strong" computer player: ISMCTS (``games.core.ismcts``) over Renaissance Man.

The hooks below are all the search knows of the game. Every iteration imagines what the
seat cannot see anew (``determinize``: the deck, the discard pile, the others' hands, every
face-down face, and what the others chose in this simultaneous step), so it never works on
the real cards or another seat's real choice. In a step of simultaneous choices the
others' submissions are imagined with the play-out policy before the search's seat
chooses, blind to its choice: at the root (their real ones are secret) and in every later
simultaneous step of the tree and of the play-outs alike (they cannot see the seat's
choice there either). Play-outs run a few steps ahead (``progress`` counts
the engine's steps) and the position reached is scored by ``rewards``.

Everything goes through the engine's legal actions: a removal is searched wherever the
engine offers one. Only taking back one's own choice ("reset", "keep") is left out, so
that every submission of the search ends.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from typing import Any, cast

from games.core import ismcts

from . import bot, engine, pyramid, random_player, stall, views
from .cards import MERCHANT, RM, TYPE, WILD
from .determinize import SIMULTANEOUS, TAKE_BACK, complete, determinize
from .legal import majority, virtual_cells
from .pyramid import LEVEL
from .state import State

DEFAULT_BUDGET_MS = 1000

# The tree and play-outs go this many of the engine's steps past the root (an action
# phase, a new Renaissance Man's placement, a Recruit winner's choice, the discard step).
# Exploration 0.7 (0.5 did no better: 68.0% of 200 2-player games against normal, 66.0%
# at 0.7; 39.5% of 200 4-player games, 42.5% at 0.7). The normal player's preferences
# (``bot.preferences``) can be the tree's prior (progressive bias, ``prior_weight``): off,
# since at weight 1 and 3 it played no better (docs/computer-players.md).
CONFIG = ismcts.SearchConfig(
    exploration=0.7,
    horizon=3,
    max_rollout_steps=300,
    first_share=0.6,
    later_share=0.15,
    prior_weight=0.0,
)
# Near the top of the pyramid the search looks twice as far (6 steps, into the next
# round): there the race turns on whether the last cards can be placed at all (a hire
# needs an uncovered Merchant or a coin token, and the top positions want a pair of
# needs that few cards have), which shows only after the next discards and refill. From
# 11 cards in the seat's structure; it wins clearly more 2-player games against normal
# than 3 steps everywhere (docs/computer-players.md, "Near the top").
LATE_CARDS = 11
LATE_CONFIG = dataclasses.replace(CONFIG, horizon=6)

# How much a position is worth, in cards of the structure (the score), by hand. (Weights
# fitted by logistic regression to predict the winner of games of the normal player
# played worse: they value what goes with winning under its play, such as many tokens,
# not what makes a seat win.)
EVAL_SCALE = 1.2  # this many cards ahead of the best other seat: reward 0.70
PENDING_RM = 0.9  # a new Renaissance Man waiting to be placed
RM_TOKEN = 0.2  # a quarter of a Renaissance Man, a little less: it still needs a TEACH
STORED = (0.3, 0.12, 0.05, 0.1)  # a Stored Actions token: coin (HIRE) most
# Access: the actions the uncovered workers give. HIRE is how a structure grows: the
# first level that gives it is worth most; without any access at all a structure is stuck
# until a removal frees a worker.
HIRE_FIRST, HIRE_MORE = 0.5, 0.15
ACCESS = (0.0, 0.15, 0.05, 0.1)  # TEACH, BARTER, RECRUIT from some level (HIRE above)
STUCK = 1.2
FITTING_CARD = 0.35  # a hand card that fits an open position, while HIRE can place it
WINNING_AREA = 0.4  # a Recruit area the seat wins with a card that fits its structure
OPEN_PLACE = 0.1  # an open position, times how likely a card fits it (1/16 .. 1)

# The others' imagined choices (at the root, in the tree's and the play-outs' simultaneous
# steps): the normal player's (``bot.choose``) this share of the time, the play-out
# policy's otherwise. Off: at 0.7 strong won 135 of 200 2-player games against normal
# (67.5%), within the noise of the 132 without it; always the normal player's, 18 of 35
# (the search then plans against one foreseen reply). docs/computer-players.md.
OTHERS_NORMAL = 0.0

# Play-outs: build first (hire, place), then the other actions; never a removal, unless
# nothing else is offered.
_ROLLOUT_WEIGHTS = {
    "hire": 40.0,
    "place": 40.0,
    "place_rm": 1.0,
    "take": 1.0,
    "teach": 4.0,
    "barter": 1.5,
    "recruit": 2.0,
    "pass": 0.3,
    "remove": 0.0,
    "discard": 0.7,
    "done": 3.0,
    "foundation": 1.0,
}


# Scoring ------------------------------------------------------------------------------------


def rewards(st: State) -> list[float]:
    """Every seat's reward in [0, 1]: 1 for a winner once the game is over, else the
    logistic of how far its ``worth`` is ahead of the best other seat's."""
    n = len(st.players)
    if st.stage == "over":
        assert st.result is not None  # a game over has its result
        return [1.0 if row["rank"] == 1 else 0.0 for row in sorted(st.result, key=_seat)]
    worths = [worth(st, q) for q in range(n)]
    if n == 1:
        return [1.0 / (1.0 + math.exp(-(worths[0] - 10.0) / EVAL_SCALE))]
    out = []
    for q in range(n):
        best_other = max(w for r, w in enumerate(worths) if r != q)
        out.append(1.0 / (1.0 + math.exp(-(worths[q] - best_other) / EVAL_SCALE)))
    return out


def _seat(row: dict[str, Any]) -> int:
    return cast(int, row["seat"])


def worth(st: State, q: int) -> float:
    """Seat ``q``'s position in cards: its structure, and what it has toward more cards
    (a pending Renaissance Man, tokens, the actions its workers give, hand cards that fit,
    Recruit areas it wins, open positions)."""
    p = st.players[q]
    cells = virtual_cells(p)  # after the seat's pending removals
    down = p.down
    value = float(pyramid.count(cells))
    if st.stage == "rm" and p.picks:
        value += PENDING_RM
    value += RM_TOKEN * len(p.rm_tokens)
    value += sum(STORED[t] for t in p.stored)
    levels = [0, 0, 0, 0]  # per action type, the levels that give it
    for level in range(1, 5):
        for t in range(4):
            if pyramid.gives(cells, down, level, t):
                levels[t] += 1
    hires = levels[MERCHANT]
    if hires:
        value += HIRE_FIRST + HIRE_MORE * (hires - 1)
    value += sum(ACCESS[t] for t in range(4) if levels[t])
    if not any(levels) and not p.stored:
        value -= STUCK
    can_hire = hires > 0 or MERCHANT in p.stored
    places = pyramid.open_positions(cells)
    fitting = 0
    for card in p.hand:
        if any(pyramid.fits(cells, down, card, i) for i in places):
            fitting += 1
    value += FITTING_CARD * min(fitting, len(places)) * (1.0 if can_hire else 0.3)
    for i in places:
        value += OPEN_PLACE * _fill_chance(cells, down, i) * (1 + LEVEL[i]) / 3
    for area in range(4):
        offered = st.recruit[area]
        if offered is not None and st.knights[area][q] and majority(st, area) == q:
            fits = any(pyramid.fits(cells, down, offered, i) for i in places)
            value += WINNING_AREA if fits else WINNING_AREA / 4
    return value


def _fill_chance(cells: list[int | None], down: list[int], i: int) -> float:
    """How likely an unseen card fits open position ``i``: 1/16 for two typed corners,
    1/4 with one wild, 1 with two (each ordered need pair is on 6 of the 96 cards)."""
    below = pyramid.BELOW[i]
    assert below is not None  # an open position is above level 1
    # Both cards below an open position are placed.
    left, right = cast(int, cells[below[0]]), cast(int, cells[below[1]])
    wild = (pyramid.offers(left, down)[1] == WILD) + (pyramid.offers(right, down)[0] == WILD)
    return (1 / 16, 1 / 4, 1.0)[wild]


# The hooks ----------------------------------------------------------------------------------


def progress(st: State) -> int:
    """The engine's step counter: it grows at every new step of the game."""
    return st.step


def rollout_policy(st: State, actions: list[dict[str, Any]], rand: random.Random) -> dict[str, Any]:
    weights = [_ROLLOUT_WEIGHTS.get(a["kind"], 1.0) for a in actions]
    if not any(weights):
        return actions[rand.randrange(len(actions))]
    return rand.choices(actions, weights)[0]


def _imagined(
    st: State, q: int, actions: list[dict[str, Any]], rand: random.Random
) -> dict[str, Any]:
    """Another seat's imagined choice: the normal player's (``bot.choose``, which reads only
    what that seat may know of the imagined world) ``OTHERS_NORMAL`` of the time, else the
    play-out policy's."""
    if OTHERS_NORMAL and rand.random() < OTHERS_NORMAL:  # (0: no draw, as before)
        return bot.choose(st, q, rand, actions)
    return rollout_policy(st, actions, rand)


def _helps(st: State, q: int, removal: dict[str, Any]) -> bool:
    """Whether a removal can help: the structure gives no action and the seat holds no
    token (stuck) and the removal uncovers a worker that gives one, or it frees a place
    for the card a Recruit winner places. The search leaves the others out: each one is a
    whole new subtree (dragging down the mean of every decision that offers it), and a
    card given up for an action the seat can do without is a card lost."""
    p = st.players[q]
    cells = virtual_cells(p)
    i = pyramid.index(removal["level"], removal["pos"])
    after = cells[:]
    after[i] = None
    down = p.down
    card = st.recruit[st.area] if st.stage == "recruit" and st.area < 4 else None
    if card is not None:
        if len(pyramid.fitting(after, down, card)) > len(pyramid.fitting(cells, down, card)):
            return True
    if p.stored or any(
        pyramid.gives(cells, down, level, t) for level in range(1, 5) for t in range(4)
    ):
        return False
    below = pyramid.BELOW[i]
    assert below is not None  # a worker removed is of level 2 or more
    for j in below:  # only the cards it rests on can be uncovered
        card = after[j]
        if card is not None and card not in down and TYPE[card] != RM:
            if not pyramid.covered(after, j):
                return True
    return False


def _key(action: dict[str, Any]) -> tuple[Any, ...]:
    # Renaissance Man's actions are flat: kind plus a few int or str fields.
    return tuple(sorted(action.items()))


def _info_key(st: State, seat: int) -> str:
    return json.dumps(views.view(st, seat), sort_keys=True, separators=(",", ":"))


def game_for(seat: int) -> ismcts.SearchGame[State, dict[str, Any]]:
    """The game as ``seat`` searches it: in a simultaneous step the others still choosing
    submit first (by the play-out policy, in seat order, blind to the seat's choice), then
    the seat chooses; in the tree, another seat chooses only as a Recruit winner."""

    def to_move(st: State) -> int | None:
        waiting = engine.deciders(st)
        if not waiting:
            return None
        return seat if seat in waiting else min(waiting)

    def legal(st: State) -> list[dict[str, Any]]:
        q = to_move(st)
        assert q is not None  # asked only while someone decides
        actions = [
            a
            for a in stall.escape(st, q, engine.legal_actions(st, q))
            if a["kind"] not in TAKE_BACK
        ]
        # (A stalled seat's one removal toward a Merchant stays, helping or not.)
        actions = [a for a in actions if a["kind"] != "remove" or _helps(st, q, a)] or actions
        if st.stage == "discard":
            # One order of discards: a card is discarded after the lower ones only, so the
            # tree holds each set of discards once.
            p = st.players[q]
            hand = set(p.hand)
            last = max((c for c in p.picks if c in hand), default=-1)
            actions = [a for a in actions if a["kind"] != "discard" or a["card"] > last]
        return actions

    # This iteration's imagined world and generator (``imagine`` sets them): the others
    # submit first in every simultaneous step of that world, never in a copy of the real
    # state (``ismcts`` applies the chosen action to one to find the turn's tree again).
    current: list[Any] = [None, None]

    def others_first(st: State, rand: random.Random) -> None:
        # Every other seat still choosing in this simultaneous step submits now, by the
        # play-out policy, before the seat and blind to its choice, as at the root: in
        # the tree the others would otherwise choose after the seat, seeing its choice
        # (a RECRUIT contested, say), and their moves would spread the tree thin.
        while st.stage in SIMULTANEOUS:
            others = [q for q in sorted(engine.deciders(st)) if q != seat]
            if not others:
                return
            complete(st, others[0], rand, _imagined)

    def act(st: State, action: dict[str, Any]) -> object:
        q = to_move(st)
        assert q is not None  # asked only while someone decides
        events = engine.apply(st, q, action)
        if st is current[0]:
            others_first(st, current[1])
        return events

    def imagine(st: State, me: int, rand: random.Random) -> State:
        s = determinize(st, me, rand, _imagined)
        if s.stage in SIMULTANEOUS:
            # The others' current submissions, made before the seat's and blind to it.
            for q in sorted(engine.deciders(s)):
                if q != me:
                    complete(s, q, rand, _imagined)
        current[0], current[1] = s, rand
        return s

    def prior(st: State, actions: list[dict[str, Any]]) -> list[float]:
        q = to_move(st)
        assert q is not None  # asked only while someone decides
        return bot.preferences(st, q, actions)

    def opens_turn(st: State) -> bool:
        # The first part of the seat's submission in this step (a new Renaissance Man's
        # drawn card is not a part: it is what the step is about).
        q = to_move(st)
        assert q is not None  # asked only while someone decides
        p = st.players[q]
        picks = p.picks[1:] if st.stage == "rm" else p.picks
        return not picks and not p.removals and p.choice is None

    return ismcts.SearchGame(
        to_move=to_move,
        legal_actions=legal,
        apply=act,
        evaluate=rewards,
        imagine=imagine,
        rollout_policy=rollout_policy,
        progress=progress,
        action_key=_key,
        opens_turn=opens_turn,
        info_key=_info_key,
        clone=State.clone,
        prior=prior,
    )


def search(
    st: State,
    seat: int,
    rand: random.Random,
    *,
    budget_ms: int | None = None,
    iterations: int | None = None,
    config: ismcts.SearchConfig | None = None,
) -> ismcts.SearchResult[dict[str, Any]]:
    """The strong player's search for ``seat`` (a seat deciding now): ``iterations`` of it
    when given (deterministic), else ``budget_ms`` (default 1000 ms) for the whole step."""
    if iterations is None and budget_ms is None:
        budget_ms = DEFAULT_BUDGET_MS
    config = config or config_for(st, seat)
    return ismcts.search(
        game_for(seat), st, seat, rand, budget_ms=budget_ms, iterations=iterations, config=config
    )


def config_for(st: State, seat: int) -> ismcts.SearchConfig:
    """The search's settings for ``seat``'s decision: ``LATE_CONFIG`` from ``LATE_CARDS``
    cards in its structure on (public: the count is what every seat sees)."""
    if pyramid.count(st.players[seat].cells) >= LATE_CARDS:
        return LATE_CONFIG
    return CONFIG


def choose(
    st: State,
    seat: int,
    rand: random.Random,
    *,
    budget_ms: int | None = None,
    iterations: int | None = None,
) -> dict[str, Any]:
    if stall.wanders(st, seat, rand):  # long without progress: break a cycle of choices
        return random_player.choose(st, seat, rand)
    return search(st, seat, rand, budget_ms=budget_ms, iterations=iterations).action


__all__ = [
    "CONFIG",
    "DEFAULT_BUDGET_MS",
    "LATE_CARDS",
    "LATE_CONFIG",
    "choose",
    "config_for",
    "game_for",
    "rewards",
    "search",
    "worth",
]
