"""Round robin: everyone meets everyone.

For tables of two, Berger tables (the FIDE handbook's, C.05 annex 1): a circle with one
player fixed, the others turning one step a round; with an odd number of players a ghost
makes the count even and whoever meets it has a bye. For tables of three or four, a
schedule in which every pair meets as evenly as the numbers allow: as many rounds as it
takes everyone to meet everyone once at best (``rounds_needed``), found by a seeded local
search that makes the counts of the pairs' meetings as even as it can (an exact design,
every pair once, when one exists and the search finds it: 9 players at tables of 3, 16 at
tables of 4...). Players left over when the number is not a multiple of the table size sit
out that round with a bye, the byes spread as evenly as the meetings.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

from . import Round, Table


def berger(players: Sequence[int]) -> list[Round]:
    """The rounds of a 2-player round robin of ``players`` (in seed order): n-1 rounds for
    an even n, n for an odd n (each round one player has a bye)."""
    ring: list[int | None] = list(players)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(None)  # the ghost: whoever meets it has a bye
    n = len(ring)
    rounds: list[Round] = []
    # The circle method: the last player stays, the others turn one place a round; the
    # fixed player changes sides each round.
    fixed, circle = ring[-1], ring[:-1]
    for r in range(n - 1):
        pairs: list[tuple[int | None, int | None]] = [
            (circle[0], fixed) if r % 2 == 0 else (fixed, circle[0])
        ]
        pairs += [(circle[i], circle[-i]) for i in range(1, n // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        circle = circle[1:] + circle[:1]
    return rounds


def rounds_needed(players: int, table_size: int) -> int:
    """The fewest rounds in which every player can meet every other once: each round a
    player meets ``table_size - 1`` others."""
    if players < 2:
        return 0
    if table_size == 2:
        return players - 1 if players % 2 == 0 else players
    return math.ceil((players - 1) / (table_size - 1))


def meetings(rounds: Sequence[Round]) -> Counter[tuple[int, int]]:
    """How often each pair (smaller id first) sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                met[a, b] += 1
    return met


def schedule(
    players: Sequence[int],
    table_size: int,
    *,
    rounds: int | None = None,
    seed: int = 0,
    effort: int = 3000,
) -> list[Round]:
    """A round robin of ``players`` at tables of ``table_size`` (2 to 4): Berger tables for
    two; else ``rounds`` rounds (by default ``rounds_needed``) of as many full tables as
    fit, everyone else on a bye, found by local search from ``seed`` (the same arguments
    give the same schedule)."""
    if table_size == 2:
        return berger(players)
    if table_size not in (3, 4):
        raise ValueError("tables of 2 to 4 players")
    n = len(players)
    count = rounds_needed(n, table_size) if rounds is None else rounds
    if n < 2 or count == 0:
        return []
    if n <= table_size:
        return [[tuple(players)]]  # one table: once is everyone meeting everyone
    rand = random.Random(seed)
    tables = n // table_size
    floor = _floor(n, table_size, count)
    best: list[list[int]] | None = None
    best_cost: int | None = None
    # Restarts of a hill climb over swaps of two players of one round (one of them may be
    # on a bye), each swap's change counted on the pairs it touches alone.
    for _restart in range(6):
        search = _Search([rand.sample(list(players), n) for _ in range(count)], table_size)
        # Simulated annealing: a swap that makes things worse is taken now and then, less
        # and less often, to climb out of a local best.
        heat = 2.0
        for _step in range(effort * count):
            if search.cost == floor:
                break
            r = rand.randrange(count)
            i, j = rand.sample(range(n), 2)
            if search.group(i) == search.group(j):
                continue
            delta = search.swap(r, i, j)
            if delta > 0 and rand.random() >= math.exp(-delta / heat):
                search.swap(r, i, j)  # back
            heat = max(0.05, heat * 0.999)
        if best_cost is None or search.cost < best_cost:
            best, best_cost = [list(o) for o in search.order], search.cost
        if best_cost == floor:
            break
    assert best is not None
    return [[tuple(o[t * table_size : (t + 1) * table_size]) for t in range(tables)] for o in best]


# How much worse a bye more than even is than a pair's extra meeting: byes first.
BYE_WEIGHT = 1000


class _Search:
    """Rounds as orders of the players: the first ``size`` at table 0, and so on; those
    after the last full table on a bye. Keeps the pairs' meetings, the byes and the cost
    (the sum of the squares of both: as even as possible) as swaps change them."""

    def __init__(self, order: list[list[int]], size: int) -> None:
        self.order, self.size = order, size
        n = len(order[0])
        self.tables = n // size
        self.met: Counter[tuple[int, int]] = Counter()
        self.byes: Counter[int] = Counter()
        for o in order:
            for t in range(self.tables):
                for a, b in itertools.combinations(sorted(o[t * size : (t + 1) * size]), 2):
                    self.met[a, b] += 1
            for p in o[self.tables * size :]:
                self.byes[p] += 1
        self.cost = sum(c * c for c in self.met.values()) + BYE_WEIGHT * sum(
            c * c for c in self.byes.values()
        )

    def group(self, i: int) -> int:
        """The table of position ``i`` (the byes: one group past the tables)."""
        return min(i // self.size, self.tables)

    def _members(self, r: int, group: int) -> list[int]:
        o = self.order[r]
        if group == self.tables:
            return []  # on a bye: nobody met
        return o[group * self.size : (group + 1) * self.size]

    def _move(self, r: int, p: int, group: int, sign: int) -> int:
        """Add (sign 1) or take away (-1) ``p``'s seat in ``group``; the cost's change."""
        delta = 0
        if group == self.tables:
            c = self.byes[p]
            self.byes[p] = c + sign
            return BYE_WEIGHT * ((c + sign) ** 2 - c * c)
        for q in self._members(r, group):
            if q == p:
                continue
            key = (p, q) if p < q else (q, p)
            c = self.met[key]
            self.met[key] = c + sign
            delta += (c + sign) ** 2 - c * c
        return delta

    def swap(self, r: int, i: int, j: int) -> int:
        """Swap positions ``i`` and ``j`` of round ``r``; the cost's change."""
        o = self.order[r]
        gi, gj = self.group(i), self.group(j)
        a, b = o[i], o[j]
        delta = self._move(r, a, gi, -1)
        delta += self._move(r, b, gj, -1)
        o[i], o[j] = b, a
        delta += self._move(r, b, gi, 1)
        delta += self._move(r, a, gj, 1)
        self.cost += delta
        return delta


def _floor(n: int, size: int, count: int) -> int:
    """The cost of a perfectly even schedule, where one is thinkable: the meetings spread
    over the pairs as evenly as their total allows, and so are the byes."""
    pairs = n * (n - 1) // 2
    slots = count * (n // size) * (size * (size - 1) // 2)
    low, extra = divmod(slots, pairs)
    pair_cost = (pairs - extra) * low**2 + extra * (low + 1) ** 2
    byes = count * (n - (n // size) * size)
    low_b, extra_b = divmod(byes, n)
    bye_cost = (n - extra_b) * low_b**2 + extra_b * (low_b + 1) ** 2
    return pair_cost + BYE_WEIGHT * bye_cost


def byes(rounds: Sequence[Round], players: Sequence[int]) -> list[list[int]]:
    """Who sits out each round."""
    out = []
    for tables in rounds:
        seated = {p for table in tables for p in table}
        out.append([p for p in players if p not in seated])
    return out


def table_of(tables: Sequence[Table], player: int) -> Table | None:
    return next((t for t in tables if player in t), None)
