"""The structure (pyramid) of workers: its 15 positions and the placement rules.

Positions are numbered 0..14: level 1 is 0..4, level 2 is 5..8, level 3 is 9..11, level 4
is 12..13 and the Master (level 5) is 14. Position k of level L+1 rests on positions k and
k+1 of level L. A structure is a list of 15 cells (a card id or None) plus the set of its
face-down cards, which are Renaissance Men whatever their face.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

from .cards import NEED_L, NEED_R, OFFER_L, OFFER_R, RM, TYPE, WILD

LEVEL_SIZES = (5, 4, 3, 2, 1)
FIRST = (0, 5, 9, 12, 14)  # first position of each level (index L - 1)
SIZE = 15
MASTER = 14

# A structure's cells by position: a card id, or None where the position is empty.
Cells = Sequence[int | None]

LEVEL: list[int] = []  # position -> level (1..5)
POS: list[int] = []  # position -> place in its level (0-based, from the left)
for _level, _n in enumerate(LEVEL_SIZES, start=1):
    LEVEL += [_level] * _n
    POS += list(range(_n))

# position -> (left support, right support), None on level 1
BELOW: list[tuple[int, int] | None] = [None] * SIZE
# position -> the positions resting on it
ABOVE: list[tuple[int, ...]] = [()] * SIZE
for _i in range(5, SIZE):
    _base = FIRST[LEVEL[_i] - 2] + POS[_i]
    BELOW[_i] = (_base, _base + 1)
for _i in range(SIZE):
    ABOVE[_i] = tuple(j for j in range(SIZE) if (_b := BELOW[j]) and _i in _b)


def index(level: int, pos: int) -> int:
    """The position of (level, pos); ValueError if there is none."""
    if type(level) is not int or type(pos) is not int or not 1 <= level <= 5:
        raise ValueError("no such position")
    if not 0 <= pos < LEVEL_SIZES[level - 1]:
        raise ValueError("no such position")
    return FIRST[level - 1] + pos


def where(i: int) -> dict[str, Any]:
    return {"level": LEVEL[i], "pos": POS[i]}


def offers(card: int, down: Container[int]) -> tuple[int, int]:
    """A placed card's two offers; a face-down card and the foundation RM are wild."""
    if TYPE[card] == RM or card in down:
        return WILD, WILD
    return OFFER_L[card], OFFER_R[card]


def fits(cells: Cells, down: Container[int], card: int, i: int, face_down: bool = False) -> bool:
    """Whether ``card`` may go to empty position ``i`` (level 2 or higher): both cards
    below present, its needs equal to the offers they turn toward it (RM corners wild)."""
    if cells[i] is not None:
        return False
    below = BELOW[i]
    if below is None:
        return False
    left, right = cells[below[0]], cells[below[1]]
    if left is None or right is None:
        return False
    if face_down:
        return True
    return _meets(cells, down, card, below[0], below[1])


def open_positions(cells: Cells) -> list[int]:
    """Empty positions resting on two present cards: where a face-down RM may go."""
    out = []
    for i in range(5, SIZE):
        if cells[i] is None:
            below = BELOW[i]
            assert below is not None  # level 2 or higher
            a, b = below
            if cells[a] is not None and cells[b] is not None:
                out.append(i)
    return out


def fitting(cells: Cells, down: Container[int], card: int) -> list[int]:
    """The positions ``card`` may go to, face up."""
    return [i for i in open_positions(cells) if fits(cells, down, card, i)]


def fits_after_removals(cells: Cells, down: Container[int], card: int) -> bool:
    """Whether ``card`` fits some position once workers are removed from above it: a
    position of level 2 or higher, resting on two present cards whose offers meet its
    needs, empty now or holding a worker that can go with everything resting on it (a
    chain of removals of uncovered workers)."""
    for i in range(5, SIZE):
        below = BELOW[i]
        assert below is not None  # level 2 or higher
        left, right = below
        if cells[left] is None or cells[right] is None:
            continue
        if _meets(cells, down, card, left, right):
            return True
    return False


def _meets(cells: Cells, down: Container[int], card: int, left: int, right: int) -> bool:
    on_left, on_right = cells[left], cells[right]
    assert on_left is not None and on_right is not None  # the callers checked
    have = offers(on_left, down)[1]
    if NEED_L[card] != have and have != WILD:
        return False
    have = offers(on_right, down)[0]
    return NEED_R[card] == have or have == WILD


def covered(cells: Cells, i: int) -> bool:
    for j in ABOVE[i]:
        if cells[j] is not None:
            return True
    return False


def removable(cells: Cells) -> list[int]:
    """Uncovered cards of level 2 or higher: they may be removed at no cost."""
    return [i for i in range(5, SIZE) if cells[i] is not None and not covered(cells, i)]


def gives(cells: Cells, down: Container[int], level: int, t: int) -> bool:
    """Whether an uncovered card of ``level`` has the large icon of type ``t``."""
    first = FIRST[level - 1]
    for i in range(first, first + LEVEL_SIZES[level - 1]):
        card = cells[i]
        if card is not None and TYPE[card] == t and card not in down and not covered(cells, i):
            return True
    return False


def count(cells: Cells) -> int:
    return sum(1 for c in cells if c is not None)


def highest_level(cells: Cells) -> int:
    """The highest level holding a card (0 for an empty structure)."""
    for i in range(SIZE - 1, -1, -1):
        if cells[i] is not None:
            return LEVEL[i]
    return 0
