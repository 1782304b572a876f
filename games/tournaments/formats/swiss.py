"""Swiss: a fixed number of rounds, each paired from the standings so far.

Tables of two are a maximum weight matching (networkx's ``max_weight_matching``, Edmonds'
blossom algorithm) on the graph of every pair still allowed: a pair weighs more the closer
the two players' scores (then the better their seats fit: not two players who both moved
first more often than second), and a pair that has met already weighs so much less that a repeat
is chosen only when no pairing without one exists. With an odd number of players a ghost
joins the graph: whoever is matched with it has the bye, and the ghost's edges make that
the lowest-placed player who has had the fewest byes (never a second bye while anyone
who has had none can take it).

Tables of three or four are grouped from the top of the standings down: each table takes
the best-placed player left and the players closest below them in score who have met
them (and each other) least; the players left over when the number is not a multiple of
the table size have byes, given as for two.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import networkx as nx

from . import Round, Table
from .round_robin import meetings

GHOST = -1  # the bye's node in the graph


def _order(players: Sequence[int], scores: Mapping[int, Fraction]) -> list[int]:
    """Best score first; equal scores in the order given (the seeds)."""
    rank = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (-scores.get(p, Fraction(0)), rank[p]))


def bye_order(
    players: Sequence[int], scores: Mapping[int, Fraction], byes: Mapping[int, int]
) -> list[int]:
    """Who takes a bye first: the fewest byes so far, then the lowest score, then the
    lowest seed."""
    rank = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (byes.get(p, 0), scores.get(p, Fraction(0)), -rank[p]))


def pair(
    players: Sequence[int],
    scores: Mapping[int, Fraction],
    history: Sequence[Round],
    byes: Mapping[int, int],
    table_size: int = 2,
    firsts: Mapping[int, int] | None = None,
) -> tuple[Round, list[int]]:
    """The next round's tables and byes for ``players`` (in seed order, those still in),
    with their ``scores``, the rounds played so far and each player's byes so far; at
    tables of two, ``firsts`` (each player's first seats less their second seats so far)
    makes players due the same seat meet only when nothing else is as good."""
    if table_size == 2:
        return pair_two(players, scores, history, byes, firsts or {})
    return group(players, scores, history, byes, table_size)


def _clash(a: int, b: int) -> int:
    """How badly two players with these seat balances fit at one table: both were first
    (or both second) more often, so one of them goes further off balance."""
    if a * b <= 0:
        return 0
    return min(abs(a), abs(b))


def pair_two(
    players: Sequence[int],
    scores: Mapping[int, Fraction],
    history: Sequence[Round],
    byes: Mapping[int, int],
    firsts: Mapping[int, int] | None = None,
) -> tuple[Round, list[int]]:
    if len(players) < 2:
        return [], list(players)
    met = meetings(history)
    order = _order(players, scores)
    place = {p: i for i, p in enumerate(order)}
    n = len(order)
    # Scores in whole units (halves, thirds... times a common denominator).
    unit = 1
    for p in order:
        unit = (
            unit
            * scores.get(p, Fraction(0)).denominator
            // _gcd(unit, scores.get(p, Fraction(0)).denominator)
        )
    points = {p: int(scores.get(p, Fraction(0)) * unit) for p in order}
    spread = max(points.values()) - min(points.values()) + 1
    groups = Counter(points.values())
    # Weights, largest concern first: no repeat (and no second bye) > the bye to the lowest
    # placed > close scores > close places. Each level outweighs everything below it over a
    # whole pairing.
    balance = firsts or {}
    place_step = 1  # a pair's place distance is below n; n/2 pairs
    seat_step = n * n + 1  # a clash of seats outweighs every place distance
    score_step = (n // 2 + 1) * seat_step + n * n + 1
    # Two players both 2 or more first seats ahead (or behind): one would go 3 off balance,
    # which chess's Swiss rules never allow while anything else can be done.
    hard_step = (n // 2 + 1) * spread * spread * score_step + n * n + 1
    bye_step = (n // 2 + 1) * hard_step + 1
    repeat = n * n * bye_step + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(order)
    for a, b in itertools.combinations(order, 2):
        key = (a, b) if a < b else (b, a)
        gap = points[a] - points[b]
        # Within a score group, the top half meets the bottom half (first meets the one
        # half the group below), as in the Dutch system.
        ideal = groups[points[a]] // 2 if gap == 0 else 0
        off = abs(abs(place[a] - place[b]) - ideal)
        clash = _clash(balance.get(a, 0), balance.get(b, 0))
        weight = (
            -met.get(key, 0) * repeat
            - (hard_step if clash >= 2 else 0)
            - gap * gap * score_step
            - (seat_step if clash == 1 else 0)
            - off * place_step
        )
        graph.add_edge(a, b, weight=weight)
    if n % 2:
        graph.add_node(GHOST)
        fewest = min(byes.get(p, 0) for p in order)
        for i, p in enumerate(bye_order(players, scores, byes)):
            extra = byes.get(p, 0) - fewest
            # A second bye weighs as a repeat; among the rest, the first in bye order.
            graph.add_edge(p, GHOST, weight=-extra * repeat * n - i * bye_step)
    # Every node matched (maxcardinality), then the most weight: shift the weights to be
    # positive, which with a perfect matching changes no choice.
    lowest: int = min(data["weight"] for _a, _b, data in graph.edges(data=True))
    for _a, _b, data in graph.edges(data=True):
        data["weight"] = data["weight"] - lowest + 1
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: Round = []
    bye: list[int] = []
    for a, b in matching:
        if GHOST in (a, b):
            bye.append(b if a == GHOST else a)
        else:
            first, second = sorted((a, b), key=place.__getitem__)
            tables.append((first, second))
    tables.sort(key=lambda t: place[t[0]])
    return tables, bye


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def group(
    players: Sequence[int],
    scores: Mapping[int, Fraction],
    history: Sequence[Round],
    byes: Mapping[int, int],
    table_size: int,
) -> tuple[Round, list[int]]:
    """Tables of ``table_size`` from the top of the standings down, avoiding repeats."""
    if len(players) < table_size:
        return ([tuple(_order(players, scores))] if len(players) >= 2 else []), (
            list(players) if len(players) < 2 else []
        )
    leftover = len(players) % table_size
    bye = bye_order(players, scores, byes)[:leftover]
    left = [p for p in _order(players, scores) if p not in bye]
    met: Counter[tuple[int, int]] = meetings(history)

    def times(a: int, b: int) -> int:
        return met.get((a, b) if a < b else (b, a), 0)

    tables: Round = []
    while left:
        head, rest = left[0], left[1:]
        # Look a little further down than the table needs, to find players not met yet.
        window = rest[: (table_size - 1) * 3]
        best: Table | None = None
        best_cost: tuple[int, int] | None = None
        for others in itertools.combinations(window, table_size - 1):
            table = (head, *others)
            repeats = sum(times(a, b) for a, b in itertools.combinations(table, 2))
            # Score distance from the head; then nearest in the standings.
            distance = sum(
                int(abs(scores.get(head, Fraction(0)) - scores.get(o, Fraction(0))) * 12)
                for o in others
            ) * len(left) + sum(rest.index(o) for o in others)
            cost = (repeats, distance)
            if best_cost is None or cost < best_cost:
                best, best_cost = table, cost
        assert best is not None
        tables.append(best)
        left = [p for p in rest if p not in best]
    return _improve(tables, scores, times), bye


# How far apart (in tables) two tables may be for a swap of players, and how many passes.
NEAR = 4
MAX_PASSES = 50


def _improve(
    tables: Round, scores: Mapping[int, Fraction], times: Callable[[int, int], int]
) -> Round:
    """Swap players between tables while that means fewer repeats, or as many with scores
    closer together at each table."""

    def cost(table: Table) -> tuple[int, Fraction]:
        values = [scores.get(p, Fraction(0)) for p in table]
        repeats = sum(times(a, b) for a, b in itertools.combinations(table, 2))
        return repeats, max(values) - min(values)

    seats = [list(t) for t in tables]
    # Tables near each other in the standings only (a swap with a table far below brings
    # scores no closer), and a bounded number of passes: a round of 512 stays within
    # seconds.
    near = [(x, y) for x in range(len(seats)) for y in range(x + 1, min(len(seats), x + NEAR + 1))]
    better = True
    passes = 0
    while better and passes < MAX_PASSES:
        better, passes = False, passes + 1
        for x, y in near:
            for i, j in itertools.product(range(len(seats[x])), range(len(seats[y]))):
                before = _add(cost(tuple(seats[x])), cost(tuple(seats[y])))
                seats[x][i], seats[y][j] = seats[y][j], seats[x][i]
                after = _add(cost(tuple(seats[x])), cost(tuple(seats[y])))
                if after < before:
                    better = True
                else:
                    seats[x][i], seats[y][j] = seats[y][j], seats[x][i]
    order = {p: i for i, t in enumerate(tables) for p in t}
    out = [tuple(sorted(s, key=lambda p: (-scores.get(p, Fraction(0)), order[p]))) for s in seats]
    return sorted(out, key=lambda t: -max(scores.get(p, Fraction(0)) for p in t))


def _add(a: tuple[int, Fraction], b: tuple[int, Fraction]) -> tuple[int, Fraction]:
    return a[0] + b[0], a[1] + b[1]


def repeats(history: Sequence[Round], tables: Round) -> int:
    """How many pairs of ``tables`` met before."""
    met = meetings(history)
    return sum(
        1
        for table in tables
        for a, b in itertools.combinations(sorted(table), 2)
        if met.get((a, b), 0)
    )
