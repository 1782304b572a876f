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

The budget is spent where it matters: a decision with one legal action, or whose actions
all lead to the same position, is not searched; the budget is a *turn's*, so the first
decision of a turn plans it and a later one gets a smaller share and continues the tree the
first one grew (``_TurnTrees``); and a search stops as soon as its most visited action
cannot be overtaken in the budget left.

The search touches the game only through the hooks of ``SearchGame``: a game gets the
search bot by filling them in. Pure Python, no Django.
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
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

    The last four hooks are optional; each one saves time where a game gives it.
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
    # Whether the decision now is the first of its seat's turn: the budget is a turn's,
    # and a later decision of the turn gets ``SearchConfig.later_share`` of it. None: every
    # decision is a turn of its own.
    opens_turn: Callable[[S], bool] | None = None
    # A position as a key, equal for positions that play the same: when every root action
    # leads to one key (in two imagined worlds), the first is taken without a search.
    state_key: Callable[[S], Hashable] | None = None
    # What ``seat`` knows, as a key (its view, say), and a copy of a state: with both, the
    # tree of a turn's decision is kept for the seat's next decision of the same turn,
    # found again by the key of what the seat will know then.
    info_key: Callable[[S, int], Hashable] | None = None
    clone: Callable[[S], S] | None = None
    # A cheap player's opinion of the actions, each in [0, 1] (1: what it would play):
    # with ``SearchConfig.prior_weight``, a bonus that fades as an action's visits grow
    # (progressive bias), and the order in which untried actions are expanded.
    prior: Callable[[S, list[A]], list[float]] | None = None


@dataclass(frozen=True)
class SearchConfig:
    exploration: float = 0.7  # UCB1's constant, for rewards in [0, 1]
    horizon: int = 1  # how much ``progress`` past the root is searched and played out
    max_rollout_steps: int = 200  # a safety stop for a play-out that does not progress
    # The budget given to ``search`` is a turn's: the first decision of a turn may spend
    # ``first_share`` of it, each later one ``later_share`` (``SearchGame.opens_turn``).
    first_share: float = 1.0
    later_share: float = 0.15
    # Stop when the most visited root action leads by more visits than the budget left.
    early_stop: bool = True
    # Continue the turn's tree at its later decisions (needs ``info_key`` and ``clone``).
    reuse: bool = True
    # Progressive bias (``SearchGame.prior``): ``prior_weight * prior / (visits + 1)`` is
    # added to an action's UCB1 value. 0: no prior.
    prior_weight: float = 0.0


DEFAULT_CONFIG = SearchConfig()

# How often (in iterations) a search looks whether its best action is settled.
_CHECK_EVERY = 16


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    action: A
    iterations: int  # run by this search (0: not searched, or settled by a kept tree)
    # The root's children: (action, visits, mean reward for the searching seat), in the
    # order of the root's legal actions.
    children: tuple[tuple[A, int, float], ...]
    reused: int = 0  # visits of the root carried over from the turn's earlier decision
    stopped_early: bool = False  # the best action was settled before the budget was spent
    # "searched", "forced" (one legal action), "same" (every action alike) or "kept" (the
    # kept tree of the turn already held this decision's share)
    why: str = "searched"


class _Node:
    __slots__ = ("mover", "children", "visits", "reward", "avail", "prior")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose action led here: ``reward`` is its
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1  # times the action was legal when its parent was visited
        self.prior = 0.0  # the game's prior of the action leading here (``SearchGame.prior``)


class _TurnTrees:
    """Subtrees kept for the next decision of a turn in progress, by (seat, what the seat
    will know then). In this process only: a decision made in another process finds
    nothing and searches afresh with its share of the budget. The oldest go first."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        # (the subtree, the iterations per millisecond of the search that grew it)
        self._trees: OrderedDict[Hashable, tuple[_Node, float | None]] = OrderedDict()

    def take(self, key: Hashable) -> tuple[_Node, float | None] | None:
        return self._trees.pop(key, None)

    def keep(self, key: Hashable, kept: tuple[_Node, float | None]) -> None:
        self._trees[key] = kept
        self._trees.move_to_end(key)
        while len(self._trees) > self.size:
            self._trees.popitem(last=False)

    def clear(self) -> None:
        self._trees.clear()

    def __len__(self) -> int:
        return len(self._trees)


TURN_TREES = _TurnTrees()


def forget() -> None:
    """Drop every kept turn tree (tests start from nothing)."""
    TURN_TREES.clear()


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

    The budget is a turn's (see ``SearchConfig``): ``iterations`` when given (then the
    clock is never read, and the same ``rand`` state and kept trees give the same choice),
    else ``budget_ms`` of wall time. Actions are applied, and positions scored, only on
    states from ``game.imagine``: of ``state`` itself the search reads only who moves, the
    seat's own legal actions and the progress (and, to find this turn's tree again at the
    seat's next decision, what the seat will know after its action).
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
        return SearchResult(actions[0], 0, ((actions[0], 0, 0.0),), why="forced")
    if game.state_key is not None and _all_alike(game, state, seat, actions, rand):
        return SearchResult(actions[0], 0, tuple((a, 0, 0.0) for a in actions), why="same")

    opening = game.opens_turn is None or game.opens_turn(state)
    share = config.first_share if opening else config.later_share
    keeping = config.reuse and game.info_key is not None and game.clone is not None
    kept = None
    if keeping and not opening and game.info_key is not None:  # (keeping: it is not None)
        kept = TURN_TREES.take((seat, game.info_key(state, seat)))
    # A kept tree's visits count toward this decision's share: they were spent on it.
    root, pace, reused = _Node(seat), None, 0
    if kept is not None:
        root, pace = kept
        root.mover, reused = seat, root.visits

    limit = game.progress(state) + config.horizon
    keys = [game.action_key(a) for a in actions]
    done, early = 0, False
    if iterations is not None:
        budget = round(iterations * share) - reused
        if not root.visits:
            budget = max(1, budget)
        while done < budget:
            if config.early_stop and done % _CHECK_EVERY == 0 and root.visits:
                if _settled(root, keys, budget - done):
                    early = True
                    break
            _iterate(game, state, seat, rand, root, limit, config)
            done += 1
    else:
        assert budget_ms is not None  # checked above: one of the two budgets is given
        ms = budget_ms * share - (reused / pace if pace else 0.0)
        start = now = time.perf_counter()
        deadline = start + ms / 1000
        if pace and config.early_stop and root.visits:
            early = ms <= 0 or _settled(root, keys, ms * pace)
        while not early and (now < deadline or not root.visits):
            _iterate(game, state, seat, rand, root, limit, config)
            done += 1
            now = time.perf_counter()
            if now < deadline and config.early_stop and done % _CHECK_EVERY == 0:
                # The iterations that the time left buys, at this search's pace so far.
                if _settled(root, keys, (deadline - now) * done / (now - start)):
                    early = True
        if done:
            pace = done / max((now - start) * 1000, 1e-6)  # iterations per millisecond

    children = []
    for action, k in zip(actions, keys, strict=True):
        child = root.children.get(k)
        if child is None:
            children.append((action, 0, 0.0))
        else:
            children.append((action, child.visits, child.reward / max(child.visits, 1)))
    # Most visited; equal visits: the better mean, then the first listed.
    best = max(range(len(children)), key=lambda i: (children[i][1], children[i][2], -i))
    if keeping:
        _keep_for_next(game, state, seat, actions[best], root.children.get(keys[best]), pace)
    why = "kept" if reused and not done else "searched"
    return SearchResult(children[best][0], done, tuple(children), reused, early, why)


def _settled(root: _Node, keys: list[Hashable], left: float) -> bool:
    """Whether the most visited of the root's actions leads the next by more visits than
    ``left`` iterations could add: then it stays the most visited, whatever they do."""
    first = second = 0
    for k in keys:
        child = root.children.get(k)
        v = child.visits if child is not None else 0
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _all_alike(
    game: SearchGame[S, A], state: S, seat: int, actions: list[A], rand: random.Random
) -> bool:
    """Whether every action leads to the same position, in each of two imagined worlds."""
    assert game.state_key is not None  # the caller checked
    for _world in range(2):
        seed = rand.getrandbits(64)
        first = None
        for i, action in enumerate(actions):
            s = game.imagine(state, seat, random.Random(seed))
            game.apply(s, action)
            k = game.state_key(s)
            if i == 0:
                first = k
            elif k != first:
                return False
    return True


def _keep_for_next(
    game: SearchGame[S, A],
    state: S,
    seat: int,
    action: A,
    node: _Node | None,
    pace: float | None,
) -> None:
    """Keep the subtree of the chosen action for the seat's next decision if the turn goes
    on with it (its own forced moves followed), under the key of what it will know then.
    The action is applied to a copy of the real state only to compute that key: the kept
    tree itself grew on imagined worlds alone."""
    if node is None or not node.children:
        return
    assert game.clone is not None and game.info_key is not None  # ``keeping``
    s = game.clone(state)
    game.apply(s, action)
    while game.to_move(s) == seat:
        if game.opens_turn is not None and game.opens_turn(s):
            return
        actions = game.legal_actions(s)
        if len(actions) != 1:
            TURN_TREES.keep((seat, game.info_key(s, seat)), (node, pace))
            return
        node = node.children.get(game.action_key(actions[0]))
        if node is None or not node.children:
            return
        game.apply(s, actions[0])


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
    biased = game.prior if config.prior_weight else None
    w = config.prior_weight
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
            if biased is not None and len(untried) > 1:
                # The untried action the prior likes best (the first of equals).
                priors = biased(s, actions)
                i = max(untried, key=lambda i: (priors[i], -i))
                p = priors[i]
            else:
                i = untried[rand.randrange(len(untried))] if len(untried) > 1 else untried[0]
                p = 0.0
            child = children[keys[i]] = _Node(mover)
            child.prior = p
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
            if w:
                value += w * child.prior / (child.visits + 1)
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
    "TURN_TREES",
    "SearchConfig",
    "SearchGame",
    "SearchResult",
    "choose",
    "forget",
    "freeze",
    "search",
]
