"""What a Renaissance Man seat or a spectator may know, and the log
(``games.core.protocol.Observer``): ``views``, ``log`` and the board's presenter."""

from __future__ import annotations

from typing import Any, cast

from games.core.i18n import gettext as _
from games.core.protocol import ResultRow

from . import log, present, views
from .state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    # The site takes views as plain JSON: a View is that dict.
    return cast(dict[str, Any], views.view(state, seat))


def describe(state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
    return log.describe(state, events, viewer)


def log_heading(state: State, event: dict[str, Any]) -> str | None:
    return log.heading(event)


def prompt(view: dict[str, Any]) -> str | None:
    return present.prompt(view)


def scores(view: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["cards"] for p in view["players"]}


def result_detail(row: ResultRow) -> str:
    return _("a Master") if row["score"] == 15 else ""


def hand_summary(view: dict[str, Any]) -> list[str] | None:
    if view["hand"] is None:
        return None
    return [f"{present.card_label(c)}: {present.corners_text(c)}" for c in view["hand"]]
