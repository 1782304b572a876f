import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import autoreload

from accounts.services import do_ensure_demo_user

DEMO_USERS = ["alice", "bob"]
DEMO_PASSWORD = "guildhall-demo"


class Command(BaseCommand):
    help = (
        "Set up a local database with two demo players (alice and bob) and start the "
        "development server. Needs nothing but Python: SQLite, no Redis, emails to the console."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport", nargs="?", default="127.0.0.1:8000", help="Where to listen."
        )
        parser.add_argument("--noreload", action="store_true", help="Do not watch the code.")

    def handle(self, *args, addrport: str, noreload: bool, **options):
        if not settings.DEBUG:
            # Known passwords on a public site would be an open door.
            raise CommandError("rundemo is for development only: it needs DEBUG=true")
        # The autoreloader runs this command again in a child process (marked by RUN_MAIN),
        # and again after each code change: the set-up is done once, by the first process.
        if os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) != "true":
            self.set_up(addrport, verbosity=options["verbosity"])
        call_command("runserver", addrport, use_reloader=not noreload)

    def set_up(self, addrport: str, verbosity: int) -> None:
        call_command("migrate", interactive=False, verbosity=verbosity)
        for username in DEMO_USERS:
            _user, created = do_ensure_demo_user(username, DEMO_PASSWORD)
            state = "created" if created else "already there (password unchanged)"
            self.stdout.write(f"Demo user {username}: {state}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Log in as {' or '.join(DEMO_USERS)} with the password {DEMO_PASSWORD!r} "
                f"at http://{addrport}/"
            )
        )
