"""Round robin: everyone meets everyone.

For tables of two, Berger tables (the FIDE handbook's, C.05 annex 1): a circle with one
player fixed, the others turning one step a round; with an odd number of players a ghost
makes the count even and whoever meets it has a bye. For tables of three or four, a
schedule of full tables (those left over sit out with a bye) in which every pair meets at
least once, in as few rounds as a seeded local search finds, from the fewest thinkable
(``rounds_needed``) up, with the pairs' meetings and the byes as even as it can make them:
an exact design, every pair once, when one exists and the search finds it (9 players at
tables of 3, 16 at tables of 4); else some pairs meet more than once. A greedy schedule
that seats a new pair every round is the fallback, so a schedule always exists and the
search always ends.
"""

from __future__ import annotations

import functools
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


def double(rounds: Sequence[Round]) -> list[Round]:
    """A double round robin: the schedule, then again with each table's order reversed (at
    tables of two, each pair meets once with each player in the first seat)."""
    first = [list(r) for r in rounds]
    return first + [[tuple(reversed(t)) for t in r] for r in rounds]


def rounds_needed(players: int, table_size: int) -> int:
    """The fewest rounds in which every player can meet every other: enough tables for all
    the pairs, and enough seats for everyone to meet ``players - 1`` others,
    ``table_size - 1`` a round (those left over when the tables are full sit out)."""
    if players < 2:
        return 0
    if table_size == 2:
        return players - 1 if players % 2 == 0 else players
    if players <= table_size:
        return 1
    tables = players // table_size
    pairs = players * (players - 1) // 2
    each = math.ceil((players - 1) / (table_size - 1))  # rounds each player must sit in
    by_pairs = math.ceil(pairs / (tables * table_size * (table_size - 1) // 2))
    by_seats = math.ceil(players * each / (tables * table_size))
    return max(each, by_pairs, by_seats)


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
    seed: int = 0,
    effort: int = 500,
) -> list[Round]:
    """A round robin of ``players`` (in seed order) at tables of ``table_size`` (2 to 4):
    Berger tables for two; else full tables each round, everyone else on a bye, in which
    every pair meets at least once, in as few rounds as the search finds (from
    ``rounds_needed`` up), the meetings and the byes as even as it can make them. The same
    arguments give the same schedule."""
    if table_size == 2:
        return berger(players)
    if table_size not in (3, 4):
        raise ValueError("tables of 2 to 4 players")
    n = len(players)
    if n < 2:
        return []
    if n <= table_size:
        return [[tuple(players)]]  # one table: once is everyone meeting everyone
    return [
        [tuple(players[i] for i in table) for table in tables]
        for tables in _covering(n, table_size, seed, effort)
    ]


@functools.lru_cache(maxsize=64)
def _covering(n: int, size: int, seed: int, effort: int) -> tuple[tuple[Table, ...], ...]:
    """The schedule of positions 0 .. n-1 (a league's divisions of one size share it).

    A greedy schedule that seats a pair not yet met at a table every round is the fallback,
    and ends within one round a pair; the local search tries fewer rounds, from the fewest
    thinkable up, each within ``effort`` steps a round: its first schedule in which every
    pair meets is taken."""
    rand = random.Random(seed)
    fallback = _greedy(n, size)
    for count in range(rounds_needed(n, size), len(fallback)):
        order = _anneal(n, size, count, rand, effort)
        if order is not None:
            tables = n // size
            return tuple(
                tuple(tuple(o[t * size : (t + 1) * size]) for t in range(tables)) for o in order
            )
    return tuple(tuple(r) for r in fallback)


def _greedy(n: int, size: int) -> list[Round]:
    """Rounds until every pair has met: each starts a table with a pair not yet met (so
    every round makes progress), fills the tables with the players who met those seated
    least, and sits out those with the fewest byes so far... last."""
    met: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    unmet = set(itertools.combinations(range(n), 2))
    out: list[Round] = []
    tables = n // size
    while unmet:
        a, b = min(unmet)
        # Who sits out: the fewest byes so far (so byes stay even), then those with the
        # fewest pairs left to meet.
        rest = sorted(
            (p for p in range(n) if p not in (a, b)),
            key=lambda p: (
                byes[p],
                sum(1 for q in range(n) if q != p and (min(p, q), max(p, q)) in unmet),
                p,
            ),
        )
        out_now = rest[: n - tables * size]
        free = [p for p in rest if p not in out_now]
        seated: list[list[int]] = [[a, b]]
        while True:
            table = seated[-1]
            while len(table) < size:
                best = max(
                    free,
                    key=lambda p: (
                        sum(1 for q in table if (min(p, q), max(p, q)) in unmet),
                        -sum(met[min(p, q), max(p, q)] for q in table),
                        -p,
                    ),
                )
                table.append(best)
                free.remove(best)
            if len(seated) == tables:
                break
            seated.append([free.pop(0)])
        for table in seated:
            for p, q in itertools.combinations(sorted(table), 2):
                met[p, q] += 1
                unmet.discard((p, q))
        for p in out_now:
            byes[p] += 1
        out.append([tuple(t) for t in seated])
    return out


def _anneal(
    n: int, size: int, count: int, rand: random.Random, effort: int
) -> list[list[int]] | None:
    """A schedule of ``count`` rounds in which every pair meets, or None when the search
    found none: simulated annealing over swaps of two players of one round (one of them
    may be on a bye), each swap's change counted on the pairs it touches alone."""
    floor = _floor(n, size, count)
    best: list[list[int]] | None = None
    best_cost = 0
    for _restart in range(RESTARTS):
        search = _Search([rand.sample(range(n), n) for _ in range(count)], size)
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
        if search.unmet == 0 and (best is None or search.cost < best_cost):
            best, best_cost = [list(o) for o in search.order], search.cost
        if best is not None and best_cost == floor:
            break
    return best


# How much worse a bye more than even is than a pair's extra meeting: byes first; and a
# pair that never meets is worse than any of those.
BYE_WEIGHT = 1000
UNMET_WEIGHT = 1_000_000
RESTARTS = 3


class _Search:
    """Rounds as orders of the players: the first ``size`` at table 0, and so on; those
    after the last full table on a bye. Keeps the pairs' meetings, the byes and the cost
    (the sum of the squares of both: as even as possible) as swaps change them."""

    def __init__(self, order: list[list[int]], size: int) -> None:
        self.order, self.size = order, size
        n = len(order[0])
        self.tables = n // size
        self.unmet = n * (n - 1) // 2
        self.met: Counter[tuple[int, int]] = Counter()
        self.byes: Counter[int] = Counter()
        for o in order:
            for t in range(self.tables):
                for a, b in itertools.combinations(sorted(o[t * size : (t + 1) * size]), 2):
                    self.met[a, b] += 1
            for p in o[self.tables * size :]:
                self.byes[p] += 1
        self.unmet -= sum(1 for c in self.met.values() if c)
        self.cost = (
            sum(c * c for c in self.met.values())
            + BYE_WEIGHT * sum(c * c for c in self.byes.values())
            + UNMET_WEIGHT * self.unmet
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
            if c + sign == 0:
                self.unmet += 1
                delta += UNMET_WEIGHT
            elif c == 0:
                self.unmet -= 1
                delta -= UNMET_WEIGHT
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
