"""Pure checks on guildhalls: would this swap, exchange or placement leave a duplicate?"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from .cards import IDENT, PROF


def dup_free_after(guildhall: list[int], remove: Collection[int], add: Iterable[int]) -> bool:
    """Cards leave, then cards arrive (a swap is simultaneous, RULINGS 2)."""
    ids = {IDENT[c] for c in guildhall if c not in remove}
    for c in add:
        i = IDENT[c]
        if i in ids:
            return False
        ids.add(i)
    return True


def swap_ok(
    mine: list[int], give: Collection[int], theirs: list[int], get: Collection[int]
) -> bool:
    return dup_free_after(mine, give, get) and dup_free_after(theirs, get, give)


def placement_ok(
    guildhall: list[int],
    cards: Iterable[int],
    may_conflict: Callable[[int], bool] | None = None,
) -> bool:
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


def swap_feasible(
    mine: list[int], theirs: list[int], give: int, get: int, picks: list[int]
) -> bool:
    """Can a swap of ``give`` of my cards for ``get`` of theirs, begun with ``picks`` (mine
    first), still be completed without a duplicate on either side?

    A card may cross when its identity is absent on the other side; otherwise only
    together with its identical twin coming back. So count free cards and twin pairs.
    """
    given, got = picks[:give], picks[give:]
    mine_ids = {IDENT[c] for c in mine}
    their_ids = {IDENT[c] for c in theirs}
    given_ids = {IDENT[c] for c in given}
    got_ids = {IDENT[c] for c in got}
    # A picked card with a twin on the other side forces that twin into the swap.
    forced_got = sum(1 for i in given_ids if i in their_ids and i not in got_ids)
    forced_given = sum(1 for i in got_ids if i in mine_ids and i not in given_ids)
    room_give = give - len(given) - forced_given
    room_get = get - len(got) - forced_got
    if room_give < 0 or room_get < 0:
        return False
    free_mine = sum(1 for c in mine if c not in given and IDENT[c] not in their_ids)
    free_theirs = sum(1 for c in theirs if c not in got and IDENT[c] not in mine_ids)
    twin_pairs = len((mine_ids & their_ids) - given_ids - got_ids)
    return any(
        free_mine >= room_give - k and free_theirs >= room_get - k
        for k in range(min(twin_pairs, room_give, room_get) + 1)
    )
