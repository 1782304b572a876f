"""A game's seed chosen by a test: stands in for ``games.play.invitations.seed_random``."""

from __future__ import annotations


class FixedSeed:
    """Every game started meanwhile gets ``seed`` (the same deal)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def getrandbits(self, bits: int) -> int:
        return self.seed
