"""The release step after ``migrate``: every stored game brought up to date
(``games.play.upgrades``): snapshots of an older state format rewritten in the current one
from the replay of their record, and the games an earlier upgrade broke mended (their
record replayed under the rules it was made under). ``--dry-run`` says what it would change
and changes nothing. Each game is upgraded under its own row lock, so the site may serve
meanwhile. Exit status 1 if a game was left as it was because nothing explains its
snapshot (``verify_games`` names it too). Output names games and what changes, never a
state (it holds hands and the seed).
"""

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.play.upgrades import do_upgrade_game


class Command(BaseCommand):
    help = "Upgrade every stored game to the current state format; mend broken records."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would change, change nothing"
        )

    def handle(self, *args, game_ids: list[int], dry_run: bool, **options) -> None:
        ids = Game.objects.order_by("pk").values_list("pk", flat=True)
        if game_ids:
            ids = ids.filter(pk__in=game_ids)
        checked = changed = left = 0
        would = "would change" if dry_run else "changed"
        for game_id in ids.iterator(chunk_size=500):
            checked += 1
            upgrade = do_upgrade_game(game_id, dry_run=dry_run)
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
