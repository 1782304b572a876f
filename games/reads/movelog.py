"""The move log as a person reads it: the game's lines plus the site's own markers.

The game's ``describe`` turns a move's events into lines for one viewer. The site adds
events of its own to moves it made for a player (``services.do_time_out``), which the games
ignore; they become the lines below. Pages, emails and the API show a move's events through
``describe_move`` only.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.models import Game

TIMEOUT_LINE = gettext_noop("(played by the computer: time ran out)")
SITE_EVENTS = ("timeout", "abandoned")


def describe_move(game: Game, state, events: list[dict], viewer: int | None) -> list[str]:
    """The lines of one move's ``events`` for ``viewer`` (None: a spectator), ``state``
    being the game's current state (``game.game_kind.from_json(game.snapshot)``)."""
    lines = []
    game_events = []
    for event in events:
        kind = event.get("type")
        if kind == "timeout":
            line = _(TIMEOUT_LINE)
            if line not in lines:
                lines.append(line)
        elif kind == "abandoned":
            name = game.names[event["player"]]
            lines.append(
                _(
                    "%(name)s ran out of time three turns in a row: the computer plays for "
                    "%(name)s from now on, and %(name)s ranks last"
                )
                % {"name": name}
            )
        else:
            game_events.append(event)
    return lines + game.game_kind.describe(state, game_events, viewer)
