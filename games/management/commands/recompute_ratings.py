"""Recompute every rating from the finished rated games, in the order they finished.

The ratings are updated one game at a time as games finish (games.play.ratings); this applies the
same rule to every game from scratch and must find the same numbers. Without options it
stores what it found (every Rating and RatingChange row replaced, in one transaction); with
``--check`` it changes nothing and exits with status 1, naming each player and game whose
stored rating differs.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User
from games.play import ratings


class Command(BaseCommand):
    help = "Recompute every rating from the finished rated games (--check: only compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="change nothing; exit 1 naming the ratings that differ from the recomputation",
        )

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        with transaction.atomic():
            # Games being rated meanwhile lock their players (games.play.ratings): holding every
            # player's lock, nothing is rated between reading the games and storing.
            list(User.objects.select_for_update().order_by("pk").values("pk"))
            computed, changes = ratings.recompute()
            differ = ratings.differences(computed)
            if not check:
                ratings.store(computed, changes)
        if check:
            names = dict(
                User.objects.filter(pk__in={uid for uid, _ in differ}).values_list("pk", "username")
            )
            for uid, kind in differ:
                self.stderr.write(f"{names.get(uid, uid)} at {kind}: the stored rating differs")
            summary = (
                f"Checked {len(computed)} rating{'s' * (len(computed) != 1)}: {len(differ)} differ."
            )
            if differ:
                raise CommandError(summary)
            self.stdout.write(summary)
        else:
            self.stdout.write(
                f"Stored {len(computed)} rating{'s' * (len(computed) != 1)} from "
                f"{len({c.game_id for c in changes})} rated games ({len(differ)} had differed)."
            )
