"""The move log as a person reads it: the game's lines plus the site's own markers.

The game's ``describe`` turns a move's events into lines for one viewer. The site adds
events of its own to moves it made for a player (``services.do_time_out``), which the games
ignore; they become the lines below. Pages, emails and the API show a move's events through
``describe_move`` only.

A record's lines are kept, per process, by what they are made of: a game's ``describe`` is a
function of the events, the viewer, the language and the game's names and options (the
protocol says so), so the lines of a record already shown are not made again for every
fresh board that shows it (its newest dozen records, one or two of them new).
"""

from __future__ import annotations

import threading
from typing import Any

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from games.core import i18n
from games.core.protocol import State
from games.models import Game

TIMEOUT_LINE = gettext_noop("(played by the computer: time ran out)")
SITE_EVENTS = ("timeout", "abandoned")


# The lines kept: enough for the newest records of a few thousand boards.
KEPT = 8192
_kept: dict[tuple[object, ...], tuple[str, ...]] = {}
_lock = threading.Lock()


def describe_move(
    game: Game, state: State, events: list[dict[str, Any]], viewer: int | None
) -> list[str]:
    """The lines of one move's ``events`` for ``viewer`` (None: a spectator), ``state``
    being the game's state (its names and options are what the lines read of it)."""
    # By repr: of JSON's values, equal reprs are equal values (and a key the same record
    # read in another order of its fields would give is only another entry).
    key = (
        game.kind,
        repr(game.options),
        tuple(game.names),
        viewer,
        get_language(),
        i18n.installed(),  # another translator (tests): other words
        repr(events),
    )
    lines = _kept.get(key)
    if lines is None:
        lines = tuple(_describe(game, state, events, viewer))
        with _lock:
            if len(_kept) >= KEPT:
                del _kept[next(iter(_kept))]  # the oldest
            _kept[key] = lines
    return list(lines)


def forget() -> None:
    """Forget the lines kept (for a test that changes the texts)."""
    with _lock:
        _kept.clear()


def _describe(
    game: Game, state: State, events: list[dict[str, Any]], viewer: int | None
) -> list[str]:
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
