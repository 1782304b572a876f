"""Information-set Monte Carlo tree search (SO-ISMCTS), written once for every game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": each
iteration imagines the hidden information anew from what the searching seat knows (a
*determinization*), walks down one tree shared by all those imagined worlds, grows it by
one node, plays on with a cheap policy up to a horizon and scores what it reaches. The tree
is keyed by actions, so a node stands for everything the seat could have seen on the way
there, whatever the world imagined. An action legal in only some worlds (a card another
player might hold) is judged by UCB1 with *availability*: how often it could have been
chosen, not how often its parent was visited.

Every node keeps the reward of the seat that chose the action leading to it, so in a game
of several players each one maximises its own reward (a "paranoid" search would make every
other seat minimise ours instead).

The search touches the game only through the hooks of ``SearchGame``: a game gets the
search bot by filling them in. Pure Python, no Django.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S")  # the game's state
A = TypeVar("A")  # the game's action


def freeze(action: object) -> Hashable:
    """A hashable stand-in for a JSON action: equal actions give equal keys, whatever the
    order of their fields."""
    if isinstance(action, dict):
        return tuple(sorted((k, freeze(v)) for k, v in action.items()))
    if isinstance(action, list | tuple):
        return tuple(freeze(v) for v in action)
    return action


@dataclass(frozen=True)
class SearchGame(Generic[S, A]):
    """What the search needs from a game.

    ``imagine`` is where secrets are kept out: it must build the state from what ``seat``
    can know only (the real hidden cards redealt at random among the hidden places, the
    game's own generator reseeded from ``rand``), and always return a fresh copy, which the
    search then changes in place with ``apply``. In a step of simultaneous choices,
    ``to_move`` names one of the deciders and ``imagine`` hides what the others chose.
    """

    # The seat choosing now, or None once the game is over.
    to_move: Callable[[S], int | None]
    # The legal actions of ``to_move``, in an order that depends only on the state.
    legal_actions: Callable[[S], list[A]]
    # Apply an action of ``to_move`` in place (chance, such as a draw, comes from the
    # state's own generator, which ``imagine`` reseeded).
    apply: Callable[[S, A], object]
    # Every seat's reward in [0, 1]: the game's result once it is over, else an estimate.
    evaluate: Callable[[S], Sequence[float]]
    # A copy of the state as ``seat`` could imagine it (see above).
    imagine: Callable[[S, int, random.Random], S]
    # The cheap policy of play-outs: one of the legal actions given.
    rollout_policy: Callable[[S, list[A], random.Random], A]
    # A counter that only grows as the game goes on (the turn number, say): play-outs stop
    # ``SearchConfig.horizon`` of it past the root, so every iteration is scored as far ahead.
    progress: Callable[[S], int]
    # Names an action in the tree (actions are compared by key).
    action_key: Callable[[A], Hashable] = freeze


@dataclass(frozen=True)
class SearchConfig:
    exploration: float = 0.7  # UCB1's constant, for rewards in [0, 1]
    horizon: int = 1  # how much ``progress`` past the root is searched and played out
    max_rollout_steps: int = 200  # a safety stop for a play-out that does not progress


DEFAULT_CONFIG = SearchConfig()


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    action: A
    iterations: int
    # The root's children: (action, visits, mean reward for the searching seat), in the
    # order of the root's legal actions.
    children: tuple[tuple[A, int, float], ...]


class _Node:
    __slots__ = ("mover", "children", "visits", "reward", "avail")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose action led here: ``reward`` is its
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1  # times the action was legal when its parent was visited


def choose(
    game: SearchGame[S, A],
    state: S,
    seat: int,
    rand: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    config: SearchConfig = DEFAULT_CONFIG,
) -> A:
    """The searching seat's action: see ``search``."""
    return search(
        game, state, seat, rand, budget_ms=budget_ms, iterations=iterations, config=config
    ).action


def search(
    game: SearchGame[S, A],
    state: S,
    seat: int,
    rand: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    config: SearchConfig = DEFAULT_CONFIG,
) -> SearchResult[A]:
    """Search for ``seat``, which must be the one to move in ``state``, and return the most
    visited of its actions.

    The budget is ``iterations`` when given (then the clock is never read, and the same
    ``rand`` state gives the same choice), else ``budget_ms`` of wall time. Actions are
    applied, and positions scored, only on states from ``game.imagine``: of ``state``
    itself the search reads only who moves, the seat's own legal actions and the progress.
    """
    if iterations is None and budget_ms is None:
        raise ValueError("give the search a budget: iterations or budget_ms")
    if game.to_move(state) != seat:
        raise ValueError(f"seat {seat} is not the one to move")
    # The root's actions are the seat's own: what the seat knows decides them.
    actions = game.legal_actions(state)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return SearchResult(actions[0], 0, ((actions[0], 0, 0.0),))

    root = _Node(seat)
    limit = game.progress(state) + config.horizon
    done = 0
    if iterations is not None:
        for _ in range(max(1, iterations)):
            _iterate(game, state, seat, rand, root, limit, config)
        done = max(1, iterations)
    else:
        deadline = time.perf_counter() + budget_ms / 1000
        while True:
            _iterate(game, state, seat, rand, root, limit, config)
            done += 1
            if time.perf_counter() >= deadline:
                break

    key = game.action_key
    children = []
    for action in actions:
        child = root.children.get(key(action))
        if child is None:
            children.append((action, 0, 0.0))
        else:
            children.append((action, child.visits, child.reward / max(child.visits, 1)))
    # Most visited; equal visits: the better mean, then the first listed.
    best = max(range(len(children)), key=lambda i: (children[i][1], children[i][2], -i))
    return SearchResult(children[best][0], done, tuple(children))


def _iterate(
    game: SearchGame[S, A],
    state: S,
    seat: int,
    rand: random.Random,
    root: _Node,
    limit: int,
    config: SearchConfig,
) -> None:
    s = game.imagine(state, seat, rand)
    to_move, legal, apply, key = game.to_move, game.legal_actions, game.apply, game.action_key
    c = config.exploration
    node = root
    path = [root]
    # Selection and expansion: down the tree while every action here has been tried, then
    # one new node. A forced move (a single legal action) costs no expansion.
    while True:
        mover = to_move(s)
        if mover is None or game.progress(s) >= limit:
            break
        actions = legal(s)
        keys = [key(a) for a in actions]
        children = node.children
        untried = []
        for i, k in enumerate(keys):
            child = children.get(k)
            if child is None:
                untried.append(i)
            else:
                child.avail += 1
        if untried:
            i = untried[rand.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = children[keys[i]] = _Node(mover)
            apply(s, actions[i])
            path.append(child)
            node = child
            if len(actions) > 1:
                break
            continue
        best_i, best_value = 0, -math.inf
        for i, k in enumerate(keys):
            child = children[k]
            value = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if value > best_value:
                best_i, best_value = i, value
        apply(s, actions[best_i])
        node = children[keys[best_i]]
        path.append(node)

    # Play-out: the cheap policy up to the horizon.
    policy = game.rollout_policy
    for _ in range(config.max_rollout_steps):
        if to_move(s) is None or game.progress(s) >= limit:
            break
        apply(s, policy(s, legal(s), rand))

    rewards = game.evaluate(s)
    root.visits += 1
    for n in path[1:]:
        n.visits += 1
        n.reward += rewards[n.mover]


__all__ = [
    "DEFAULT_CONFIG",
    "SearchConfig",
    "SearchGame",
    "SearchResult",
    "choose",
    "freeze",
    "search",
]
