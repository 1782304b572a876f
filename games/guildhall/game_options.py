"""Guildhall's options on the site (``games.core.protocol.GameOptions``): what the new-game
form and the API offer (``SPECS``), read into the engine's ``Options`` (RULINGS 7)."""

from __future__ import annotations

from typing import Any

from games.core import OptionSpec
from games.core.errors import OptionError
from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop

from .options import Options

# The texts (labels, help, choices) are English, marked for the catalogue: the site
# translates them where it shows them.
SPECS = (
    OptionSpec(
        "rules",
        "choice",
        "yucata",
        gettext_noop("Rules"),
        gettext_noop(
            "Yucata: as played on Yucata.de. Extra completed chapters are discarded only at "
            "the start of your next turn, the new VP card is shown once you have paid, the "
            "Farmer works by itself, equal VP are ranked by completed chapters, and the "
            "discard pile and the cards not yet seen can be listed. Classic: the rules as "
            "printed."
        ),
        choices=(("yucata", gettext_noop("Yucata")), ("classic", gettext_noop("Classic"))),
    ),
    OptionSpec(
        "advanced",
        "bool",
        False,
        gettext_noop("Advanced rules"),
        gettext_noop(
            "Two rules of Advanced Guildhall, with Yucata or Classic rules: you cannot play a "
            "card of a profession that is already in your action area, and only the top card "
            "of the discard pile can be seen."
        ),
    ),
    OptionSpec(
        "fantasy_names",
        "bool",
        False,
        gettext_noop("Fantasy profession names"),
        gettext_noop(
            "The professions go by the names of the fantasy edition. Only the names change."
        ),
    ),
    # On by default for new games; a game stored without it sets up in turn (Options).
    OptionSpec(
        "setup",
        "choice",
        "simultaneous",
        gettext_noop("Setup"),
        gettext_noop(
            "All at once: every player discards, redraws and places their first 3 cards at "
            "the same time, in secret, so nobody waits for the others; the choices are then "
            "carried out in seat order. In turn: one after the other, as at the table."
        ),
        choices=(
            ("simultaneous", gettext_noop("All at once")),
            ("sequential", gettext_noop("In turn")),
        ),
    ),
)


def parse(chosen: dict[str, Any], players: int) -> Options:
    try:
        return Options(
            players=players,
            rules=chosen["rules"],
            advanced=chosen["advanced"],
            names="fantasy" if chosen["fantasy_names"] else "classic",
            setup=chosen["setup"],
        )
    except ValueError as error:  # pragma: no cover - the specs check the same
        raise OptionError("options", str(error)) from None


def to_json(options: Options) -> dict[str, Any]:
    return options.to_json()


def from_json(data: dict[str, Any]) -> Options:
    return Options.from_json(data)


def label(options: Options) -> str:
    parts = [_("Yucata rules") if options.yucata else _("Classic rules")]
    if options.advanced:
        parts.append(_("advanced"))
    if options.fantasy:
        parts.append(_("fantasy names"))
    if not options.simultaneous_setup:
        parts.append(_("setup in turn"))
    return ", ".join(parts)
