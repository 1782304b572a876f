"""Knockout: single elimination, seeded from the players' ratings.

Each round the players still in are dealt to tables in snake order of their seeds (the
first table gets seeds 1 and then the last, ...): with tables of two, the best seed meets
the worst. The number of tables is the fewest that hold everyone; when the players do not
fill them, the tables of the best seeds are the ones left short, and a table with no more
players than go on from it (a single player, with two at a table) is a bye: they all go
on without a game. From each table the best ``advance`` places go on (one at tables of two
and three, two at tables of four by default); a tie at the cut goes to the better seed.
The last round is the one whose players fit at one table: its winner wins.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from . import Round


def default_advance(table_size: int) -> int:
    return 2 if table_size == 4 else 1


def deal(players: Sequence[int], table_size: int) -> Round:
    """The tables of one round for ``players`` in seed order (best first)."""
    n = len(players)
    if n <= table_size:
        return [tuple(players)] if n else []
    count = math.ceil(n / table_size)
    sizes = _sizes(n, count)
    tables: list[list[int]] = [[] for _ in range(count)]
    # Snake order (0, 1 ... count-1, count-1 ... 0, 0, 1 ...), skipping the full tables.
    order: list[int] = []
    while len(order) < n:
        step = range(count) if (len(order) // count) % 2 == 0 else range(count - 1, -1, -1)
        order += list(step)
    slots = iter(order * table_size)
    for player in players:
        t = next(slots)
        while len(tables[t]) >= sizes[t]:
            t = next(slots)
        tables[t].append(player)
    return [tuple(t) for t in tables]


def goes_on(
    table: Sequence[int], places: Mapping[int, int], seed: Mapping[int, int], advance: int
) -> list[int]:
    """Who goes on from ``table`` with these ``places`` (1 is first; equal places tie):
    the best ``advance``, a tie at the cut going to the better (lower) seed. A table with
    no more than ``advance`` players (a bye) sends them all."""
    if len(table) <= advance:
        return list(table)
    ranked = sorted(table, key=lambda p: (places[p], seed[p]))
    return ranked[:advance]


def rounds_needed(players: int, table_size: int, advance: int) -> int:
    """How many rounds a knockout of ``players`` takes."""
    rounds = 0
    while players > table_size:
        tables = math.ceil(players / table_size)
        players = sum(min(size, advance) for size in _sizes(players, tables))
        rounds += 1
    return rounds + (1 if players >= 2 else 0)


def _sizes(players: int, tables: int) -> list[int]:
    """Tables as even as can be; the short ones are the best seeds' (the first)."""
    base, extra = divmod(players, tables)
    return [base + 1 if t >= tables - extra else base for t in range(tables)]
