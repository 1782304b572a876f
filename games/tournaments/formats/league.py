"""Leagues: seasons of divisions, each playing a round robin; at the end of a season the
best ``move`` of each division go up one and the worst ``move`` go down one.

Divisions are lists of players, the top division first, each in the order of its last
season's standings (new players at the end of the lowest). Between seasons
(``next_season``): players who left are taken out; the top and bottom ``move`` of
neighbouring divisions swap; new players join the lowest division; then the sizes are
mended: a division above ``most`` players hands its worst down (a new lowest division is
opened when the lowest would be too big and the players it hands down are at least
``least``), and a division below ``least`` players takes the best of the division below it
(the lowest, too small, joins the one above when nobody is below to give).
"""

from __future__ import annotations

from collections.abc import Sequence

LEAST = 6
MOST = 12
MOVE = 2


def join(divisions: Sequence[Sequence[int]], newcomers: Sequence[int]) -> list[list[int]]:
    """The divisions with ``newcomers`` at the end of the lowest (a first season: one
    division, cut to size by ``mend``)."""
    out = [list(d) for d in divisions] or [[]]
    out[-1].extend(p for p in newcomers if not any(p in d for d in out))
    return mend(out)


def next_season(
    standings: Sequence[Sequence[int]],
    *,
    left: Sequence[int] = (),
    newcomers: Sequence[int] = (),
    move: int = MOVE,
) -> list[list[int]]:
    """Next season's divisions from this season's ``standings`` (each division's players,
    best first), without those who ``left``, with ``newcomers`` in the lowest."""
    gone = set(left)
    divisions = [[p for p in d if p not in gone] for d in standings]
    divisions = [d for d in divisions if d]
    out = [list(d) for d in divisions]
    for upper in range(len(divisions) - 1):
        lower = upper + 1
        # Never more than a third of a division each way, so that small ones keep a core.
        k = min(move, len(divisions[upper]) // 3, len(divisions[lower]) // 3)
        if k <= 0:
            continue
        down = divisions[upper][-k:]
        up = divisions[lower][:k]
        out[upper] = [p for p in out[upper] if p not in down] + up
        out[lower] = down + [p for p in out[lower] if p not in up]
    return join(out, newcomers)


def mend(
    divisions: Sequence[Sequence[int]], least: int = LEAST, most: int = MOST
) -> list[list[int]]:
    """Divisions of ``least`` to ``most`` players where the numbers allow it: from the top
    down, a division too big hands its worst to the one below, one too small takes the best
    of the one below; the lowest, too big, is split in two halves (each at least ``least``),
    and, too small, joins the one above (split again if that makes it too big)."""
    out = [list(d) for d in divisions if d]
    while True:
        before = [list(d) for d in out]
        for i in range(len(out) - 1):
            division, below = out[i], out[i + 1]
            if len(division) > most:
                below[:0] = division[most:]
                del division[most:]
            elif len(division) < least:
                need = least - len(division)
                division.extend(below[:need])
                del below[:need]
        out = [d for d in out if d]
        while len(out) > 1 and len(out[-1]) < least:
            out[-2].extend(out.pop())
        if out and len(out[-1]) > most:
            last = out.pop()
            half = len(last) // 2
            out += [last[:half], last[half:]]
        if out == before:
            return out
