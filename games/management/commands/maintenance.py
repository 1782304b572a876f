"""manage.py maintenance on|off|status: the site read-only for a while (docs/deploy.md,
"Maintenance mode").

    manage.py maintenance on --message "Moving to a new server" --until 2026-05-01T22:30
    manage.py maintenance off

``on`` makes every change answer 503 (reads go on) and pauses the time-outs, reminders and
computer players; it may be run again to change the message or the planned end. ``--until``
(ISO 8601; without a zone, the site's TIME_ZONE) is what the banner and Retry-After say: it
does not end maintenance by itself. ``off`` ends it and extends the clock of every game
waiting through it (games.play.maintenance), and whatever else hears that it ends (the
deadline of every tournament round playing through it: games.tournaments.maintenance).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.play import maintenance
from guildhall_site.upkeep import maintenance as state
from guildhall_site.upkeep.models import MESSAGE_MAX_CHARS


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--until {text!r}: write it as 2026-05-01T22:30 (ISO 8601)") from None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    if moment <= timezone.now():
        raise CommandError(f"--until {text!r} is in the past")
    return moment


class Command(BaseCommand):
    help = "Turn maintenance mode (read-only, clocks paused) on or off, or show it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("switch", choices=["on", "off", "status"])
        parser.add_argument("--message", default="", help="Shown on every page and 503 page.")
        parser.add_argument("--until", default=None, help="The planned end (ISO 8601).")

    def handle(
        self, *args: Any, switch: str, message: str, until: str | None, **options: Any
    ) -> None:
        if len(message) > MESSAGE_MAX_CHARS:
            raise CommandError(f"--message: at most {MESSAGE_MAX_CHARS} characters")
        if switch == "on":
            on = maintenance.do_start_maintenance(message, _moment(until) if until else None)
            self.stdout.write(f"Maintenance on since {on.since:%Y-%m-%d %H:%M:%S %Z}.")
        elif switch == "off":
            if message or until:
                raise CommandError("off takes no --message or --until")
            ended = maintenance.do_end_maintenance()
            if ended is None:
                self.stdout.write("Maintenance was not on.")
                return
            window = ended.window
            assert window.end is not None
            also = "".join(f", and {n} {what}" for what, n in sorted(ended.also_moved.items()))
            self.stdout.write(
                f"Maintenance off after {window.end - window.start}; "
                f"{ended.deadlines_moved} deadlines moved back{also}."
            )
        else:
            now = state.current()
            self.stdout.write(
                "Maintenance off." if now is None else f"Maintenance on since {now.since}."
            )
