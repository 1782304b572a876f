"""Replay every game from its Move records and compare with its stored snapshot.

A difference means a snapshot written by a buggy service, a record changed by hand, or an
engine change that plays old records differently. Exit status 1 if any game differs.
Output names games and what differs, never their state (it holds hands and the seed).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.core import IllegalAction, Match, registry
from games.models import Game


def check_game(game: Game) -> str | None:
    """None if the game's records rebuild its snapshot, or what is wrong."""
    moves = list(game.moves.order_by("number"))
    if [m.number for m in moves] != list(range(1, len(moves) + 1)):
        return "its move numbers are not 1, 2, 3, ..."
    records = [m.record() for m in moves]
    if len(records) != game.version:
        return f"version {game.version} but {len(records)} moves"
    try:
        kind = registry.get(game.kind)
    except registry.UnknownGame:
        return f"this site has no game {game.kind!r}"
    try:
        match = Match(kind, game.engine_options(), game.names, game.seed, records)
    except IllegalAction as error:
        return f"its record does not replay: {error.rule}"
    except ValueError as error:
        return f"it cannot be set up again: {error}"
    # Compared as stored: through JSON, as the JSONField wrote it.
    if json.loads(json.dumps(kind.to_json(match.state))) != game.snapshot:
        return "its snapshot differs from the replay of its record"
    return None


class Command(BaseCommand):
    help = "Replay every game from its moves and report the games whose snapshot differs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args, game_ids: list[int], **options) -> None:
        games = Game.objects.order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = bad = 0
        for game in games.iterator(chunk_size=100):
            checked += 1
            problem = check_game(game)
            if problem:
                bad += 1
                self.stderr.write(f"Game {game.pk}: {problem}")
        summary = f"Checked {checked} game{'s' * (checked != 1)}: {bad} differ."
        if bad:
            raise CommandError(summary)
        self.stdout.write(summary)
