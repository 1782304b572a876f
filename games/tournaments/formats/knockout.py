"""Knockout: single elimination, seeded from the players' ratings.

A round of ``n`` players still in is either the final (``n`` fits at one table: one game of
everyone) or a number of tables, each of ``least`` to ``table_size`` players, from which the
best ``advance`` places go on; the players at no table have a bye and go on without a game.
How many play and how many have a bye is chosen the way a standard bracket chooses it: the
byes all in the first round, as few games there as it takes for every later round to be full
tables with no bye (with two at a table: 13 players play 5 games, 3 byes, then 8, 4, 2).
Where no such count exists (3 at a table with 2 going on eliminates one player a table, so
6 players cannot avoid a later bye) the fewest rounds with byes win, then the fewest rounds.

The byes go to the best seeds; the others are dealt to the tables in snake order of their
seeds (the first table gets the best and then the worst: with two at a table, the best seed
meets the worst), the tables as even as can be. Every round is seeded again from the seeds
of the players still in. A tie at the cut goes to the better seed.

Every round but the final has at least one table, from which at least one player goes out,
so a knockout of ``n`` players ends within ``n`` rounds (``plan`` lists them).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from . import Round

# What a count of players costs from here to the end: (rounds with a bye, rounds).
_Cost = tuple[int, int]
_NEVER: _Cost = (10**9, 10**9)


def default_advance(table_size: int) -> int:
    return 2 if table_size == 4 else 1


def valid(table_size: int, advance: int, least: int = 2) -> bool:
    """Whether a knockout of these settings can be played: at least one player goes out at
    every table, and a table of ``least`` players still has someone going out."""
    return 2 <= least <= table_size and 1 <= advance < table_size


def _cost(players: int, table_size: int, advance: int, least: int) -> _Cost:
    """The cost of going on from ``players``: every count below is worked out first, from
    the bottom up (every round lowers the count), so no recursion gets deep."""
    known = _costs(table_size, advance, least)
    while len(known) <= players:
        m = len(known)
        if m <= 1:
            known.append((0, 0))
        elif m <= table_size:
            known.append((0, 1) if m >= least else _NEVER)
        else:
            best = _NEVER
            for after, _tables, seated in _options(m, table_size, advance, least):
                rest = known[after]
                if rest != _NEVER:
                    best = min(best, (rest[0] + (1 if seated < m else 0), rest[1] + 1))
            known.append(best)
    return known[players]


@functools.cache
def _costs(table_size: int, advance: int, least: int) -> list[_Cost]:
    return []  # filled by _cost as counts are asked for


def _options(players: int, table_size: int, advance: int, least: int) -> list[tuple[int, int, int]]:
    """Every way to play a round that is not the final: (players after it, tables, players
    seated), the fewest tables for each count after and with or without byes."""
    smallest = max(least, advance + 1)
    out: dict[tuple[int, bool], tuple[int, int, int]] = {}
    for tables in range(1, players // smallest + 1):
        low, high = tables * smallest, min(players, tables * table_size)
        for seated in range(low, high + 1):
            after = players - seated + tables * advance
            out.setdefault((after, seated == players), (after, tables, seated))
    return list(out.values())


def _choose(players: int, table_size: int, advance: int, least: int) -> tuple[int, int]:
    """(tables, players seated) of a round that is not the final: the cheapest way on, and
    among those the fewest games (most byes now, as a bracket's first round)."""
    best: tuple[_Cost, int, int, int] | None = None
    for after, tables, seated in _options(players, table_size, advance, least):
        rest = _cost(after, table_size, advance, least)
        if rest == _NEVER:
            continue
        cost = (rest[0] + (1 if seated < players else 0), rest[1] + 1)
        key = (cost, tables, -after, seated)
        if best is None or key < best:
            best = key
    if best is None:
        raise ValueError(f"no knockout of {players} at tables of {table_size}")
    return best[1], best[3]


def playable(players: int, table_size: int, advance: int, least: int = 2) -> bool:
    """Whether a knockout of ``players`` can be played to its end at these tables."""
    return valid(table_size, advance, least) and (
        _cost(players, table_size, advance, least) != _NEVER
    )


def plan(players: int, table_size: int, advance: int, least: int = 2) -> list[int]:
    """The number of players in each round of a knockout of ``players`` with nobody
    leaving: the first ``players``, the last the final's."""
    out: list[int] = []
    while players >= 2:
        out.append(players)
        if players <= table_size:
            break
        tables, seated = _choose(players, table_size, advance, least)
        players = players - seated + tables * advance
    return out


def rounds_needed(players: int, table_size: int, advance: int, least: int = 2) -> int:
    """How many rounds a knockout of ``players`` takes (with nobody leaving)."""
    return len(plan(players, table_size, advance, least))


def deal(
    players: Sequence[int], table_size: int, advance: int, least: int = 2
) -> tuple[Round, list[int]]:
    """The tables and the byes of one round for ``players`` in seed order (best first)."""
    n = len(players)
    if n < 2:
        return [], list(players)
    if n <= table_size:
        return [tuple(players)], []  # the final
    tables, seated = _choose(n, table_size, advance, least)
    byes = list(players[: n - seated])
    return _snake(players[n - seated :], tables), byes


def _snake(players: Sequence[int], count: int) -> Round:
    """``players`` (best first) dealt to ``count`` tables as even as can be, in snake
    order: 0, 1 ... count-1, count-1 ... 0, 0, 1 ...; the short tables the best seeds'."""
    sizes = _sizes(len(players), count)
    tables: list[list[int]] = [[] for _ in range(count)]
    forward = True
    queue = list(players)
    while queue:
        order = range(count) if forward else range(count - 1, -1, -1)
        for t in order:
            if queue and len(tables[t]) < sizes[t]:
                tables[t].append(queue.pop(0))
        forward = not forward
    return [tuple(t) for t in tables]


def goes_on(
    table: Sequence[int], places: Mapping[int, int], seed: Mapping[int, int], advance: int
) -> list[int]:
    """Who goes on from ``table`` with these ``places`` (1 is first; equal places tie):
    the best ``advance``, a tie at the cut going to the better (lower) seed."""
    ranked = sorted(table, key=lambda p: (places[p], seed[p]))
    return ranked[:advance]


def _sizes(players: int, tables: int) -> list[int]:
    """Tables as even as can be; the short ones are the best seeds' (the first)."""
    base, extra = divmod(players, tables)
    return [base + 1 if t >= tables - extra else base for t in range(tables)]
