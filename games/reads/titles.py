"""How a game is named to its players, on pages, in emails and in pushes."""

from __future__ import annotations

from django.utils.translation import pgettext


def game_title(names: list[str]) -> str:
    """A game's title, from its players' names: "alice vs bob"."""
    return pgettext("between the names of the players", " vs ").join(names)
