"""Rule sets a game is created with (RULINGS 7)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

RULE_SETS = ("classic", "yucata")
NAME_SETS = ("classic", "fantasy")


@dataclass(frozen=True)
class Options:
    players: int = 4
    rules: str = "yucata"  # "classic" or "yucata"
    advanced: bool = False  # action-area play restriction + hidden discard pile [002]
    names: str = "classic"  # "classic" (Old World Economy) or "fantasy" profession names

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

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Options:
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        unknown = set(data) - {"players", "rules", "advanced", "names"}
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**data)
