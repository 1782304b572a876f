"""Pure checks on guildhalls: would this swap, exchange or placement leave a duplicate?"""

from __future__ import annotations

from .cards import IDENT, PROF


def dup_free_after(guildhall: list[int], remove, add) -> bool:
    """Cards leave, then cards arrive (a swap is simultaneous, RULINGS 2)."""
    ids = {IDENT[c] for c in guildhall if c not in remove}
    for c in add:
        i = IDENT[c]
        if i in ids:
            return False
        ids.add(i)
    return True


def swap_ok(mine: list[int], give, theirs: list[int], get) -> bool:
    return dup_free_after(mine, give, get) and dup_free_after(theirs, get, give)


def placement_ok(guildhall: list[int], cards, may_conflict=None) -> bool:
    """Cards placed one after another; a chapter completed on the way frees its colors.

    ``may_conflict(card)`` says whether a conflicting card may still be chosen (it is then
    discarded instead of placed: the advanced hidden discard pile).
    """
    counts = [0] * 6
    ids = set()
    for c in guildhall:
        ids.add(IDENT[c])
        counts[PROF[c]] += 1
    for c in cards:
        i = IDENT[c]
        if i in ids:
            if may_conflict is not None and may_conflict(c):
                continue
            return False
        ids.add(i)
        pr = PROF[c]
        counts[pr] += 1
        if counts[pr] == 5:
            counts[pr] = 0
            for k in range(5):
                ids.discard(pr * 5 + k)
    return True


def chapter_cards(guildhall: list[int], profession: int) -> list[int]:
    return [c for c in guildhall if PROF[c] == profession]


def professions_in(guildhall: list[int]) -> list[int]:
    return sorted({PROF[c] for c in guildhall})
