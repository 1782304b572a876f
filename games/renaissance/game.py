"""Renaissance Man on the site: its game object (``kind.RENAISSANCE``), registered.

``games.core.registry.discover`` imports this module when Django starts: the lobby, the API's
catalog, the board, the emails and the time-outs then offer the game.
"""

from __future__ import annotations

from games.core import register

from .kind import RENAISSANCE

register(RENAISSANCE)

__all__ = ["RENAISSANCE"]
