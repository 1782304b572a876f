"""Guildhall on the site: its facts and its parts, registered (``registry.discover``
imports this module when Django starts). The rules are the engine's (``rules``), what a seat
sees and the log ``observer``, the computer players ``computers``, the board and rules pages
``pages``, the options ``game_options`` (docs/adding-a-game.md)."""

from __future__ import annotations

from games.core import GameKind, register
from games.core.i18n import gettext_noop

from . import analysis, computers, game_options, observer, pages, rules
from .positions import FORMATS

# The lobby's summary and the score's unit: English, marked for the catalogue, translated
# where the site shows them.
SUMMARY = gettext_noop(
    "Collect the professions of the Old World into chapters of five colours, use each "
    "card's ability as it joins you, and buy victory point cards with completed "
    "chapters: the first to 20 VP wins."
)

GUILDHALL = GameKind(
    id="guildhall",
    name="Guildhall",
    min_players=2,
    max_players=4,
    summary=SUMMARY,
    rules_url="https://www.yucata.de/en/Rules/Guildhall",
    rules_urls={"de": "https://www.yucata.de/de/Rules/Guildhall"},
    score_label=gettext_noop("VP"),
    option_specs=game_options.SPECS,
    options=game_options,
    rules=rules,
    observer=observer,
    computers=computers,
    analyst=analysis,
    pages=pages,
    formats=FORMATS,
)

register(GUILDHALL)
