"""What a Guildhall seat or a spectator may know, and the log
(``games.core.protocol.Observer``): ``views``, ``log`` and the board's presenter."""

from __future__ import annotations

from typing import Any, cast

from games.core.i18n import ngettext
from games.core.protocol import ResultRow

from . import log, present, views
from .cards import full_name
from .state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    # The site takes views as plain JSON: a View is that dict.
    return cast(dict[str, Any], views.view(state, seat))


def describe(state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
    return log.describe_all(state, events, viewer)


def log_heading(state: State, event: dict[str, Any]) -> str | None:
    if event.get("type") == "turn":
        return log.describe(state, event, None)
    return None


def prompt(view: dict[str, Any]) -> str | None:
    return present.my_prompt(view)


def scores(view: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["vp"] for p in view["players"]}


def result_detail(row: ResultRow) -> str:
    n = cast(dict[str, Any], row)["completed"]  # a row of ``result``: the engine's own
    return ngettext("{n} completed chapter", "{n} completed chapters", n).format(n=n)


def hand_summary(view: dict[str, Any]) -> list[str] | None:
    me = next((p for p in view["players"] if p["seat"] == view["viewer"]), None)
    if me is None or "hand" not in me:
        return None
    return [full_name(c["color"], c["name"]) for c in me["hand"]]
