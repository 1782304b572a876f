"""A seeded generator kept in a game's state as one plain int: SplitMix64.

Written here rather than taken from ``random`` so that a game replays identically on any
Python version forever, the state stays a few bytes of JSON, and a clone copies one int.
Shared by the games that want it (Guildhall and Renaissance Man).
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator's state for a secret seed (a non-negative int of any size)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError("seed must be a non-negative int")
    # Fold a seed of any size into 64 bits, then mix once so nearby seeds diverge.
    folded = 0
    while True:
        folded ^= seed & MASK
        seed >>= 64
        if not seed:
            break
    return next_u64(folded)[0]


def next_u64(state: int) -> tuple[int, int]:
    """The next state and a uniform 64-bit value."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform int in [0, n), by rejection so that no value is favoured."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
