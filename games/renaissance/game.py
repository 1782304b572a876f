"""Renaissance Man on the site: its facts and its parts, registered
(``registry.discover`` imports this module when Django starts: the lobby, the API's catalog,
the board, the emails and the time-outs then offer the game). The rules are the engine's
(``rules``), what a seat sees and the log ``observer``, the computer players ``computers``,
the board and rules pages ``pages``, the options ``game_options`` (docs/adding-a-game.md)."""

from __future__ import annotations

from games.core import GameKind, register
from games.core.i18n import gettext_noop

from . import analysis, computers, engine, game_options, observer, pages, rules, versions
from .formats import FORMATS

# The lobby's summary and the score's unit: English, marked for the catalogue, translated
# where the site shows them.
SUMMARY = gettext_noop(
    "Everyone plays at once: order your foundation in secret, then hire, barter, teach "
    "and recruit workers into a pyramid of 15, where each worker's needs match the offers "
    "below it. The first Master (the 15th worker) ends the game."
)
RULES_URL = (
    "https://boardgamegeek.com/geeksearch.php?action=search&objecttype=boardgame"
    "&q=Renaissance%20Man"
)

RENAISSANCE = GameKind(
    id="renaissance",
    name="Renaissance Man",
    min_players=engine.MIN_PLAYERS,
    max_players=engine.MAX_PLAYERS,
    summary=SUMMARY,
    rules_url=RULES_URL,
    score_label=gettext_noop("cards"),
    option_specs=game_options.SPECS,
    options=game_options,
    rules=rules,
    observer=observer,
    computers=computers,
    analyst=analysis,
    pages=pages,
    versions=versions,
    formats=FORMATS,
)

register(RENAISSANCE)

__all__ = ["RENAISSANCE"]
