"""A seat's player renamed in a game's record: a deleted account's games keep their moves
under a neutral name (``games.privacy.erase``).

The game's names are part of what its record is replayed from (``Game.names``, and the
engine's state that the snapshot stores), so both change together: the snapshot is the
replay of the record under the new names, stored in the format the old one was in, which
is exactly what ``manage.py verify_games`` compares it with. No game's JSON is read here
for its names: the engine writes them where it keeps them.
"""

from __future__ import annotations

import dataclasses
import logging

from django.db import transaction
from django.db.models import F

from games.core import IllegalAction, replays
from games.models import Game
from games.play.change import lock_game
from games.reads import list_stamps
from games.reads.records import stored_game

log = logging.getLogger(__name__)


def do_rename_seat(game_id: int, number: int, name: str) -> bool:
    """Seat ``number`` of the game is called ``name`` from its first record on; whether
    anything changed. A game whose record does not rebuild its snapshot (which
    ``verify_games`` names) is left as it was: its snapshot cannot be rebuilt."""
    with transaction.atomic():
        game = lock_game(game_id)
        names = list(game.names)
        if names[number] == name:
            return False
        kind = game.game_kind
        stored = stored_game(game)
        problem, _state = replays.check(stored)
        if problem is not None:
            log.warning("game %s: seat %s not renamed: %s", game_id, number, problem)
            return False
        names[number] = name
        try:
            match = replays.replay(dataclasses.replace(stored, names=names))
        except (IllegalAction, ValueError):
            log.warning("game %s: seat %s not renamed: no replay under the name", game_id, number)
            return False
        fmt = kind.state_format(game.snapshot)
        snapshot = kind.as_format(replays.stored(kind.to_json(match.state)), fmt)
        # Every open board and cached page shows the new name (the stamp keys them).
        Game.objects.filter(pk=game_id).update(names=names, snapshot=snapshot, stamp=F("stamp") + 1)
    list_stamps.games_changed([game_id])
    return True
