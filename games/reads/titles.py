"""How a game is named to its players, on pages, in emails and in pushes."""

from __future__ import annotations

from django.utils.translation import pgettext

from games.core import registry


def game_title(names: list[str]) -> str:
    """A game's title, from its players' names: "alice vs bob"."""
    return pgettext("between the names of the players", " vs ").join(names)


def short_title(kind: str, number: int) -> str:
    """A game's short title, its game and number: "Guildhall #123" (email subjects, page
    titles). Two games of the same players are told apart by it."""
    try:
        name = registry.get(kind).name
    except registry.UnknownGame:
        name = kind
    return pgettext("a game's short title", "%(game)s #%(number)d") % {
        "game": name,
        "number": number,
    }
