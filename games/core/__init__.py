"""The game platform's pure part: the protocol every game provides, the registry of games,
and what the site does the same way for every game (the record and undo, who waits).
No Django here: the site, the API, the bots and the tasks all use it."""

from .errors import IllegalAction, OptionError
from .match import Match
from .options import OptionSpec, parse_options
from .protocol import Answer, GameKind, ResultRow, SeatUser
from .registry import UnknownGame, all_games, discover, get, register

__all__ = [
    "Answer",
    "GameKind",
    "IllegalAction",
    "Match",
    "OptionError",
    "OptionSpec",
    "ResultRow",
    "SeatUser",
    "UnknownGame",
    "all_games",
    "discover",
    "get",
    "parse_options",
    "register",
]
