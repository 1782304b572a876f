"""The state's own random generator: SplitMix64, a single 64-bit int of state
(``games.core.rng``, shared with the other games that keep their generator in their state).
"""

from games.core.rng import MASK, below, next_u64, seed_state, shuffle

__all__ = ["MASK", "below", "next_u64", "seed_state", "shuffle"]
