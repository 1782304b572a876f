"""A stored game's record as its engine replays it: its Move rows' entries (with the
rules version where a record changed it), then its private records (``Game.drafts``),
which the snapshot includes. Secret: the actions hold choices not yet revealed."""

from __future__ import annotations

from typing import Any

from games.core import IllegalAction, replays
from games.models import Game, Move


def record_of(game: Game) -> list[dict[str, Any]]:
    record = [m.record() for m in game.moves.order_by("number").only(*Move.RECORD)]
    for draft in game.drafts:
        entry = {"player": draft["player"], "action": draft["action"]}
        if draft.get("joined"):
            entry["joined"] = True
        record.append(entry)
    return record


def stored_game(game: Game, record: list[dict[str, Any]] | None = None) -> replays.Game:
    """``game`` as the platform replays it (``record``: its own, read if not given)."""
    return replays.Game(
        kind=game.game_kind,
        options=game.engine_options(),
        names=list(game.names),
        seed=game.seed,
        rules=game.rules,
        record=record_of(game) if record is None else record,
        snapshot=game.snapshot,
    )


def current_state(game: Game) -> Any:
    """The game's state to play on from. A snapshot stored in an older state format is
    rebuilt from its record when the two agree (an upgrade of the snapshot alone would
    guess what its format lacked, and the record knows); else it is read through the
    game's upgraders, as every read does."""
    kind = game.game_kind
    if kind.formats is None or kind.state_format(game.snapshot) == kind.formats.current:
        return kind.from_json(game.snapshot)
    stored = stored_game(game)
    try:
        match = replays.replay(stored)
    except (IllegalAction, ValueError):
        return kind.from_json(game.snapshot)
    if replays.agrees(kind, game.snapshot, match.state):
        return match.state
    return kind.from_json(game.snapshot)
