"""Which games the site offers: each game registers itself, and everything else asks here.

In the spirit of open_spiel's ``pyspiel.load_game(name)``: the site never names a game, it
looks one up by the id stored with each invitation and game. ``discover()`` imports the
``game`` module of every package under ``games/`` (each registers itself there), so that
adding a game is adding its package.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from .i18n import gettext as _
from .protocol import GameKind

_GAMES: dict[str, GameKind] = {}


class UnknownGame(LookupError):
    def __init__(self, game_id: object) -> None:
        super().__init__(_("There is no game {game} on this site").format(game=repr(game_id)))
        self.game_id = game_id


def register(game: GameKind) -> GameKind:
    """Offer ``game``. Registering the same id twice must be the same game object."""
    known = _GAMES.get(game.id)
    if known is not None and known is not game:
        raise ValueError(f"two games registered as {game.id!r}")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """For tests that register a game of their own."""
    _GAMES.pop(game_id, None)


def get(game_id: str) -> GameKind:
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(game_id) from None


def all_games() -> list[GameKind]:
    """Every registered game, in the order the lobby lists them (by name)."""
    return sorted(_GAMES.values(), key=lambda g: g.name)


def discover(package: str | ModuleType = "games") -> None:
    """Import ``<package>.<name>.game`` for every subpackage that has one."""
    pkg = importlib.import_module(package) if isinstance(package, str) else package
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.ispkg:
            continue
        try:
            importlib.import_module(f"{pkg.__name__}.{info.name}.game")
        except ModuleNotFoundError as error:
            if error.name != f"{pkg.__name__}.{info.name}.game":
                raise
