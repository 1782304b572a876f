"""Renaissance Man's stored state formats and the upgraders between them
(``games.core.formats``): positions.from_json runs the chain, and only there.

1. The first format (commit bea9dcd and before): an action phase's pending removals were
   its ``picks``.
2. Pending removals are their own list in every step (1881389).
3. Each player's ``known`` hand cards: those every seat saw taken (e9e2ccf).
4. The ``rules`` version the game is played under (games.core.protocol.RulesVersions):
   a snapshot of format 1 was written under rules 1, of formats 2 and 3 under rules 2
   (the rules changed with format 2), so an upgraded one says so.
5. ``undoable``: the seats that may take back their last step, several in a simultaneous
   step (issue 45); format 4 read with the last seat's alone.
6. Each player's progress: ``best`` (the most cards its structure has held at the end of
   a round) and ``idle`` (rounds ended since without more), issue 49; format 5 read as if
   its structure had just reached its best.
"""

from __future__ import annotations

from typing import Any

from games.core.formats import Formats, FormatStep

Data = dict[str, Any]
# The rules every format before 4 was written under: format 1 by the code of rules 1, 2 and
# 3 by that of rules 2. (A format-3 snapshot of a game begun under rules 1 and played on
# by the code of 1881389 is mended by ``manage.py upgrade_games``.)
_RULES_OF_FORMAT = {1: 1, 2: 2, 3: 2}
# Carried from format 1 through 2 and 3 to where format 4 stores it.
_RULES_HINT = "rules_hint"


def _players(data: Data) -> list[Data]:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(pd, dict) for pd in players):
        raise ValueError("a player entry must be an object")
    return players


def _up_1(data: Data) -> Data:
    """Format 1 to 2: an action phase's removals move out of ``picks``."""
    players = []
    for pd in _players(data):
        if "removals" in pd:
            raise ValueError("a format 1 player entry has no removals")
        if data["stage"] == "action":
            players.append({**pd, "picks": [], "removals": pd.get("picks")})
        else:
            players.append({**pd, "removals": []})
    return {**data, "format": 2, "players": players, _RULES_HINT: _RULES_OF_FORMAT[1]}


def _down_2(data: Data) -> Data:
    """Format 2 as format 1 held it: removals were pending only in an action phase, as its
    picks."""
    players = []
    for pd in _players(data):
        rest = {k: v for k, v in pd.items() if k != "removals"}
        if data["stage"] == "action":
            rest["picks"] = list(pd["removals"])
        players.append(rest)
    return {**data, "format": 1, "players": players}


def _up_2(data: Data) -> Data:
    """Format 2 to 3: no hand card is known to have been seen taken (what was seen before
    is forgotten, as if it had been discarded)."""
    players = _players(data)
    if any("known" in pd for pd in players):
        raise ValueError("a format 2 player entry has no known hand cards")
    return {**data, "format": 3, "players": [{**pd, "known": []} for pd in players]}


def _down_3(data: Data) -> Data:
    players = [{k: v for k, v in pd.items() if k != "known"} for pd in _players(data)]
    return {**data, "format": 2, "players": players}


def _up_3(data: Data) -> Data:
    """Format 3 to 4: the rules version it was written under."""
    if "rules" in data:
        raise ValueError("a format 3 state has no rules version")
    rest = {k: v for k, v in data.items() if k != _RULES_HINT}
    return {**rest, "format": 4, "rules": data.get(_RULES_HINT, _RULES_OF_FORMAT[3])}


def _down_4(data: Data) -> Data:
    return {**{k: v for k, v in data.items() if k != "rules"}, "format": 3}


def _up_4(data: Data) -> Data:
    """Format 4 to 5: only the last seat may take back its last step."""
    if "undoable" in data:
        raise ValueError("a format 4 state has no seats that may undo")
    last = data.get("last_seat")
    undoable = [last] if data.get("last_undoable") is True and type(last) is int else []
    return {**data, "format": 5, "undoable": undoable}


def _down_5(data: Data) -> Data:
    return {**{k: v for k, v in data.items() if k != "undoable"}, "format": 4}


def _up_5(data: Data) -> Data:
    """Format 5 to 6: every structure at its best, as of now."""
    players = _players(data)
    if any("best" in pd or "idle" in pd for pd in players):
        raise ValueError("a format 5 player entry has no progress")
    return {
        **data,
        "format": 6,
        "players": [{**pd, "best": _cards(pd.get("cells")), "idle": 0} for pd in players],
    }


def _cards(cells: object) -> int:
    if not isinstance(cells, list):
        raise ValueError("a structure is a list")
    return sum(c is not None for c in cells)


def _down_6(data: Data) -> Data:
    players = [{k: v for k, v in pd.items() if k not in ("best", "idle")} for pd in _players(data)]
    return {**data, "format": 5, "players": players}


FORMATS = Formats(
    current=6,
    steps={
        1: FormatStep(up=_up_1, down=_down_2),
        2: FormatStep(up=_up_2, down=_down_3),
        3: FormatStep(up=_up_3, down=_down_4),
        4: FormatStep(up=_up_4, down=_down_5),
        5: FormatStep(up=_up_5, down=_down_6),
    },
)
