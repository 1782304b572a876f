"""The move log as a person reads it: the engine's lines plus the site's own markers.

The engine's ``log.describe_all`` turns a move's events into lines for one viewer. The site
adds events of its own to moves it made for a player (``services.do_time_out``), which the
engine ignores; they become the lines below. Pages, emails and the API show a move's events
through ``describe_move`` only.
"""

from __future__ import annotations

from games.guildhall.log import describe_all
from games.guildhall.state import State

TIMEOUT_LINE = "(played by the computer: time ran out)"


def describe_move(st: State, events: list[dict], viewer: int | None) -> list[str]:
    lines = []
    engine_events = []
    for event in events:
        kind = event.get("type")
        if kind == "timeout":
            if TIMEOUT_LINE not in lines:
                lines.append(TIMEOUT_LINE)
        elif kind == "abandoned":
            name = st.names[event["player"]]
            lines.append(
                f"{name} ran out of time three turns in a row: the computer plays for "
                f"{name} from now on, and {name} ranks last"
            )
        else:
            engine_events.append(event)
    return lines + describe_all(st, engine_events, viewer)
