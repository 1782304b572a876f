"""Renaissance Man's options on the site (``games.core.protocol.GameOptions``): a dict of
every option (the one-player variants, RENAISSANCE.md), and how the lobby names them."""

from __future__ import annotations

from typing import Any, cast

from games.core import OptionSpec
from games.core.i18n import gettext_noop, ngettext

# The texts (labels, help, choices) are English, marked for the catalogue: the site
# translates them where it shows them.
SPECS = (
    OptionSpec(
        "solo",
        "choice",
        "standard",
        gettext_noop("One-player game"),
        gettext_noop(
            "Only for a game of one player. Standard: win by placing your Master before the "
            "deck first runs out. Easier: when the deck first runs out, that many random "
            "discarded cards make a new deck. Tougher: that many cards are discarded face "
            "down before the game."
        ),
        choices=(
            ("standard", gettext_noop("Standard")),
            ("easier", gettext_noop("Easier")),
            ("tougher", gettext_noop("Tougher")),
        ),
        most_players=1,
    ),
    OptionSpec(
        "solo_cards",
        "int",
        10,
        gettext_noop("Cards for the easier or tougher one-player game"),
        gettext_noop(
            "How many cards the easier game shuffles into a new deck, or the tougher game "
            "discards before it starts."
        ),
        minimum=1,
        maximum=40,
        most_players=1,
    ),
)


def parse(chosen: dict[str, Any], players: int) -> dict[str, Any]:
    return chosen


def to_json(options: dict[str, Any]) -> dict[str, Any]:
    return dict(options)


def from_json(data: dict[str, Any]) -> dict[str, Any]:
    return dict(data)


def label(options: dict[str, Any]) -> str:
    solo, n = options.get("solo", "standard"), options.get("solo_cards")
    # A one-player game's options have its number of cards (parse_options).
    if solo == "easier":
        return ngettext(
            "easier one-player game ({n} card)",
            "easier one-player game ({n} cards)",
            cast(int, n),
        ).format(n=n)
    if solo == "tougher":
        return ngettext(
            "tougher one-player game ({n} card)",
            "tougher one-player game ({n} cards)",
            cast(int, n),
        ).format(n=n)
    return ""
