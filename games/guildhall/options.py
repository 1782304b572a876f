"""Rule sets a game is created with (RULINGS 7)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

RULE_SETS = ("classic", "yucata")
NAME_SETS = ("classic", "fantasy")
# How the setup (RULINGS 5) is played: "sequential", in seat order as at the table, or
# "simultaneous", every player choosing at the same time, in secret, resolved in seat order.
SETUP_MODES = ("simultaneous", "sequential")


@dataclass(frozen=True)
class Options:
    players: int = 4
    rules: str = "yucata"  # "classic" or "yucata"
    advanced: bool = False  # action-area play restriction + hidden discard pile [002]
    names: str = "classic"  # "classic" (Old World Economy) or "fantasy" profession names
    # "sequential" (RULINGS 5 as printed) or "simultaneous" (everyone sets up at once). The
    # dataclass default is the printed rule, which is also what a stored options object
    # without "setup" means (every game stored before the option existed): the engine's
    # own callers and those games keep the sequential setup. The site offers simultaneous
    # by default through its OptionSpec (game.py).
    setup: str = "sequential"

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise ValueError("players must be an int from 2 to 4")
        if not 2 <= self.players <= 4:
            raise ValueError("Guildhall is for 2 to 4 players")
        if self.rules not in RULE_SETS:
            raise ValueError(f"rules must be one of {', '.join(RULE_SETS)}")
        if not isinstance(self.advanced, bool):
            raise ValueError("advanced must be true or false")
        if self.names not in NAME_SETS:
            raise ValueError(f"names must be one of {', '.join(NAME_SETS)}")
        if self.setup not in SETUP_MODES:
            raise ValueError(f"setup must be one of {', '.join(SETUP_MODES)}")

    # Each Yucata difference is its own switch so that a rule reads as one condition.
    @property
    def yucata(self) -> bool:
        return self.rules == "yucata"

    @property
    def delayed_chapter_discard(self) -> bool:
        return self.rules == "yucata"

    @property
    def post_discard_vp_reveal(self) -> bool:
        return self.rules == "yucata"

    @property
    def farmer_auto(self) -> bool:
        return self.rules == "yucata"

    @property
    def fantasy(self) -> bool:
        return self.names == "fantasy"

    @property
    def simultaneous_setup(self) -> bool:
        return self.setup == "simultaneous"

    def to_json(self) -> dict[str, Any]:
        """The stored form. "setup" is left out when it is "sequential", as in every game
        stored before the option existed, so that their stored options and snapshots read
        and write back unchanged (``verify_games``)."""
        data = asdict(self)
        if self.setup == "sequential":
            del data["setup"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        unknown = set(data) - {"players", "rules", "advanced", "names", "setup"}
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        # Stored before the setup option existed: those games keep the sequential setup.
        return cls(**{"setup": "sequential", **data})
