"""The release step after ``migrate``: every stored game brought up to date
(``games.play.upgrades``): snapshots of an older state format rewritten in the current one
from the replay of their record, and the games an earlier upgrade broke mended (their
record replayed under the rules it was made under). ``--dry-run`` says what it would change
and changes nothing. ``--back-to GAME:FORMAT`` (before a rollback to a release that reads
no newer format of that game's states) stores the snapshots of that game as that format held
them. Each game is upgraded under its own row lock, so the site may serve
meanwhile. Exit status 1 if a game was left as it was because nothing explains its
snapshot (``verify_games`` names it too). Output names games and what changes, never a
state (it holds hands and the seed).
"""

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core import registry
from games.models import Game
from games.play.upgrades import Upgrade, do_store_back, do_upgrade_game


def back_to(value: str) -> tuple[str, int]:
    """ "renaissance:3": a game of this site and one of its state formats."""
    game, _, fmt = value.partition(":")
    try:
        kind = registry.get(game)
        number = int(fmt)
        formats = kind.formats
        oldest, current = (formats.oldest, formats.current) if formats else (1, 1)
        if not oldest <= number <= current:
            raise ValueError(f"unknown state format {number}")
    except (registry.UnknownGame, ValueError) as error:
        raise argparse.ArgumentTypeError(f"not a game and one of its formats: {value}") from error
    return game, number


class Command(BaseCommand):
    help = "Upgrade every stored game to the current state format; mend broken records."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would change, change nothing"
        )
        parser.add_argument(
            "--back-to",
            type=back_to,
            metavar="GAME:FORMAT",
            help="before a rollback: store that game's snapshots in that older format",
        )

    def handle(
        self,
        *args: Any,
        game_ids: list[int],
        dry_run: bool,
        back_to: tuple[str, int] | None,
        **options: Any,
    ) -> None:
        ids = Game.objects.order_by("pk").values_list("pk", flat=True)
        if game_ids:
            ids = ids.filter(pk__in=game_ids)
        if back_to is not None:
            ids = ids.filter(kind=back_to[0])
        checked = changed = left = 0
        would = "would change" if dry_run else "changed"
        for game_id in ids.iterator(chunk_size=500):
            checked += 1
            upgrade: Upgrade
            if back_to is None:
                upgrade = do_upgrade_game(game_id, dry_run=dry_run)
            else:
                upgrade = do_store_back(game_id, back_to[1], dry_run=dry_run)
            if upgrade.problem:
                left += 1
                self.stderr.write(f"Game {game_id}: left as it was: {upgrade.problem}")
            elif upgrade.changes:
                changed += 1
                self.stdout.write(f"Game {game_id}: {'; '.join(upgrade.changes)}")
        summary = (
            f"Checked {checked} game{'s' * (checked != 1)}: {changed} {would}, "
            f"{left} left as they were."
        )
        if left:
            raise CommandError(summary)
        self.stdout.write(summary)
