"""manage.py email_bounced <address> [--reason ...] [--forget]: record that the mail
provider could not deliver to an address (a hard bounce, a complaint), so that it gets no
more emails and its player is asked on the site to fix it; --forget undoes it (docs/deploy.md,
"Email deliverability")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from guildhall_site.upkeep import bounces


class Command(BaseCommand):
    help = "Record a bounced email address (no more emails to it), or forget one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addresses", nargs="+", metavar="address")
        parser.add_argument("--reason", default="", help="What the provider said (kept).")
        parser.add_argument("--forget", action="store_true", help="The address works again.")

    def handle(
        self, *args: Any, addresses: list[str], reason: str, forget: bool, **options: Any
    ) -> None:
        for address in addresses:
            if forget:
                known = bounces.forget(address)
                self.stdout.write(
                    f"{bounces.normal(address)}: " + ("forgotten" if known else "was not recorded")
                )
                continue
            try:
                bounces.record(address, reason)
            except ValidationError:
                raise CommandError(f"{address!r} is not an email address") from None
            self.stdout.write(f"{bounces.normal(address)}: no more emails")
