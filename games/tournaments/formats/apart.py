"""Players kept apart (one blocked the other, after both signed up) never share a table
when a swap can avoid it: a table holding such a pair swaps one of them (the last placed
there) with a player at the same place of another table, the first swap that leaves both
tables without a kept-apart pair. Used after a knockout's or a double elimination's deal
(a Swiss weighs such a pair as met three times instead)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Hashable, Sequence

from . import Round, Table


def _clash(table: Sequence[int], apart: Collection[frozenset[int]]) -> bool:
    return any(frozenset(pair) in apart for pair in itertools.combinations(table, 2))


def keep_apart(
    tables: Round,
    apart: Collection[frozenset[int]],
    group: Callable[[Table], Hashable] | None = None,
) -> Round:
    """``tables`` with the fewest kept-apart pairs a swap per table can reach; with
    ``group``, only between tables of the same group (a double elimination's brackets)."""
    if not apart:
        return list(tables)
    groups = [group(t) if group else 0 for t in tables]
    seats = [list(t) for t in tables]
    for x, table in enumerate(seats):
        if not _clash(table, apart):
            continue
        i = len(table) - 1
        for y, other in enumerate(seats):
            if y == x or i >= len(other) or groups[y] != groups[x]:
                continue
            table[i], other[i] = other[i], table[i]
            if not _clash(table, apart) and not _clash(other, apart):
                break
            table[i], other[i] = other[i], table[i]  # back
    return [tuple(t) for t in seats]
