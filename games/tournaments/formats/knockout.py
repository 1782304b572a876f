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
    tables: list[list[int]] = [[] for _ in range(count)]
    # Snake order: 0, 1, ... count-1, count-1, ... 0, 0, 1...; the last pass, incomplete,
    # reaches the tables of the worst seeds first in reverse, so the best seeds' tables are
    # the short ones when the numbers do not fill every table.
    passes = [
        list(range(count)) if p % 2 == 0 else list(range(count - 1, -1, -1))
        for p in range(table_size)
    ]
    order = [t for p in passes for t in p]
    # Which seats stay empty: the last `empty` slots of the order belong to the best seeds'
    # tables, so deal the players to all but those.
    empty = count * table_size - n
    short = set(range(empty))  # tables 0..empty-1 (the best seeds') are one short
    slots: list[int] = []
    skipped: dict[int, int] = {}
    for t in reversed(order):
        if t in short and skipped.get(t, 0) < 1:
            skipped[t] = 1
            continue
        slots.append(t)
    slots.reverse()
    for player, t in zip(players, slots, strict=True):
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
        players = sum(
            min(size, advance) if size > advance else size
            for size in _sizes(players, tables, table_size)
        )
        rounds += 1
    return rounds + (1 if players >= 2 else 0)


def _sizes(players: int, tables: int, table_size: int) -> list[int]:
    empty = tables * table_size - players
    return [table_size - 1 if t < empty else table_size for t in range(tables)]
