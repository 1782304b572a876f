"""Who sits where at a table: the first seat moves first in every game of the site, so over
an event each player should have each seat about as often as the others (as colours
alternate in chess). The platform would draw the seats at random; a tournament gives them
in this order instead.

Seat by seat, first to last: the player who has had that seat least so far, then the one
who had the later seats most (so a player who was second last time is first now), then the
table's own order (a round robin's Berger tables alternate by themselves).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def seat_order(table: Sequence[int], taken: Mapping[int, Sequence[int]]) -> list[int]:
    """The players of ``table`` in seat order; ``taken[p][s]`` is how often player ``p``
    had seat ``s`` (0 first) in the event so far (missing: never)."""

    def had(p: int, s: int) -> int:
        counts = taken.get(p, ())
        return counts[s] if s < len(counts) else 0

    rest = list(table)
    out: list[int] = []
    for s in range(len(table)):
        size = len(table)
        best = min(
            rest,
            key=lambda p: (
                had(p, s),
                -sum(had(p, later) for later in range(s + 1, size)),
                rest.index(p),
            ),
        )
        out.append(best)
        rest.remove(best)
    return out
