"""Replay every game from its Move records and compare with its stored snapshot, and check
that the seats marked deciding are the ones the game waits for.

A difference means a snapshot written by a buggy service, a record changed by hand, or an
engine change that plays old records differently (a rule changed without a new rules
version: each game replays under the version it began with). A snapshot stored in an older
state format is compared with the replay as that format held it, like with like
(``games.core.replays``): right after an upgrade, before ``manage.py upgrade_games`` has
rewritten the snapshots, old games verify as they did before it. A wrong mark means a
game that waits for nobody (it would never time out nor tell anyone) or for someone with
nothing to decide. Exit status 1 if any game differs. Output names games, seats and what
differs, never their state (it holds hands and the seed).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core import registry, replays
from games.models import Game
from games.reads.records import stored_game


def check_game(game: Game) -> str | None:
    """None if the game's records rebuild its snapshot, or what is wrong."""
    moves = list(game.moves.order_by("number"))
    if [m.number for m in moves] != list(range(1, len(moves) + 1)):
        return "its move numbers are not 1, 2, 3, ..."
    if len(moves) != game.version:
        return f"version {game.version} but {len(moves)} moves"
    try:
        kind = registry.get(game.kind)
    except registry.UnknownGame:
        return f"this site has no game {game.kind!r}"
    # The private records not yet public follow the moves (the snapshot includes them).
    record = [m.record() for m in moves]
    record += [{"player": d["player"], "action": d["action"]} for d in game.drafts]
    problem, state = replays.check(stored_game(game, record))
    if problem:
        return problem
    return check_waits(game, kind.deciders(state))


def check_waits(game: Game, deciders: frozenset[int]) -> str | None:
    """None if exactly ``deciders`` (the game's, of its current state) are marked deciding,
    each since a moment and, in a game with a time limit, with a deadline; else what is
    wrong. A finished or cancelled game waits for nobody."""
    seats = list(game.seats.order_by("number"))
    expected = sorted(deciders) if game.is_active else []
    marked = [s.number for s in seats if s.deciding]
    if marked != expected:
        return f"seats {marked} are marked deciding, but the game waits for {expected}"
    for s in seats:
        if s.deciding and s.deciding_since is None:
            return f"seat {s.number} decides since no time"
        if s.deciding and game.move_days and s.deadline is None:
            return f"seat {s.number} decides with no deadline in a game with a time limit"
        if not s.deciding and (s.deciding_since is not None or s.deadline is not None):
            return f"seat {s.number} does not decide but has a clock"
    return None


class Command(BaseCommand):
    help = "Replay every game from its moves and report the games whose snapshot differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
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
