import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.commands.runserver import naiveip_re
from django.utils import autoreload

from accounts.services import do_ensure_demo_user

DEMO_USERS = ["alice", "bob"]
DEMO_PASSWORD = "guildhall-demo"
# Where a browser on this machine reaches a server listening on every address.
_WILDCARDS = {"0.0.0.0": "127.0.0.1", "[::]": "[::1]", "0": "127.0.0.1"}


def site_url(addrport: str) -> str:
    """The address that links in emails must point to when the server listens on
    ``addrport`` (runserver's syntax: PORT, ADDR:PORT, [IPv6]:PORT)."""
    match = naiveip_re.match(addrport)
    if match is None:
        raise CommandError(f"{addrport!r} is not a port or address:port")
    addr = match["addr"] or "127.0.0.1"
    return f"http://{_WILDCARDS.get(addr, addr)}:{match['port']}"


def unapplied_migrations() -> int:
    """How many migrations ``migrate`` would apply: reading the plan takes a fraction of a
    second, a ``migrate`` with nothing to do a second or more (its post-migrate handlers)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def _in_the_background() -> None:
    # The workers' start-up yields the cores to the web server's: the demo answers first.
    os.nice(10)


class Command(BaseCommand):
    # No system checks here: the server's process runs them as it starts (runserver), and
    # once is enough for a quick restart (docs/performance.md, "Restarting the demo").
    requires_system_checks: list[str] = []
    help = (
        "Set up a local database with two demo players (alice and bob) and start the "
        "development server, with a Celery worker and beat beside it. Needs nothing but "
        "Python: SQLite, kombu's filesystem transport instead of Redis, emails to the console. "
        "Links in emails point to ADDR:PORT unless SITE_URL is set."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "addrport",
            nargs="?",
            default="127.0.0.1:8000",
            help="Where to listen: PORT or ADDR:PORT (default 127.0.0.1:8000).",
        )
        parser.add_argument("--noreload", action="store_true", help="Do not watch the code.")
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="Start no Celery worker: tasks then run inline in the web server, and "
            "nothing runs on a schedule (no time-outs, reminders or digests).",
        )

    def handle(
        self, *args: Any, addrport: str, noreload: bool, no_worker: bool, **options: Any
    ) -> None:
        if not settings.DEBUG:
            # Known passwords on a public site would be an open door.
            raise CommandError("rundemo is for development only: it needs DEBUG=true")
        workers: list[subprocess.Popen[bytes]] = []
        if not os.environ.get("SITE_URL"):
            # The links of emails, in this process and in the children (the reloader's
            # server, the worker), which read it from the environment.
            os.environ["SITE_URL"] = settings.SITE_URL = site_url(addrport)
        # The autoreloader runs this command again in a child process (marked by RUN_MAIN),
        # and again after each code change: the set-up is done once, by the first process.
        if os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) != "true":
            self.set_up(addrport, verbosity=options["verbosity"])
            if not no_worker:
                workers = self.start_workers()
                # A plain "kill" must stop the worker too: turn SIGTERM into the Ctrl-C that
                # runs the clean-up below.
                signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            call_command("runserver", addrport, use_reloader=not noreload)
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(20)

    def set_up(self, addrport: str, verbosity: int) -> None:
        # Only what has changed: a restart with nothing to migrate skips migrate.
        if unapplied_migrations():
            call_command("migrate", interactive=False, verbosity=verbosity)
        elif verbosity:
            self.stdout.write("Database up to date: no migration to apply")
        for username in DEMO_USERS:
            _user, created = do_ensure_demo_user(username, DEMO_PASSWORD)
            state = "created" if created else "already there (password unchanged)"
            self.stdout.write(f"Demo user {username}: {state}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Log in as {' or '.join(DEMO_USERS)} with the password {DEMO_PASSWORD!r} "
                f"at {settings.SITE_URL}/"
            )
        )

    def start_workers(self) -> list[subprocess.Popen[bytes]]:
        """A Celery worker per lane (settings.TASK_LANES: time-outs and sweeps, with beat
        embedded (-B); emails and pushes; webhooks; the computer players' moves), as child
        processes, so that a game against the strong computer or a slow webhook receiver
        never holds up an email, as in production (docs/deploy.md, "Lanes").

        Without REDIS_URL the broker is kombu's filesystem transport: each message is a file
        in .celery/messages, put there by the web server and taken by the worker. That needs
        no server and is safe on one machine, where all processes share the folder; it is
        what CELERY_BROKER_URL=filesystem:// selects in settings.py. Beat keeps its schedule
        in a file (.celery/beat-schedule); run exactly one beat, which -B does here.
        """
        from guildhall_site.celery import app as celery_app

        if not settings.REDIS_URL:
            # For the children (the reloader's server, the worker) and for this process,
            # which serves itself under --noreload: queue tasks instead of running them.
            os.environ["CELERY_BROKER_URL"] = "filesystem://"
            folders = settings.FILESYSTEM_BROKER_OPTIONS
            for key in ("data_folder_in", "control_folder"):
                Path(folders[key]).mkdir(parents=True, exist_ok=True)
        os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
        celery_app.conf.task_always_eager = False
        schedule = Path(settings.FILESYSTEM_BROKER_DIR) / "beat-schedule"
        schedule.parent.mkdir(parents=True, exist_ok=True)
        celery = [sys.executable, "-m", "celery", "--app", "guildhall_site", "worker"]
        # One task at a time each: SQLite takes one writer at a time anyway.
        common = ["--pool", "solo", "--loglevel", "INFO"]
        commands = []
        for queue in settings.TASK_LANES:
            command = [*celery, "--queues", queue, "--hostname", f"demo-{queue}@%h", *common]
            if queue == settings.CELERY_TASK_DEFAULT_QUEUE:
                command[-len(common) : -len(common)] = ["--beat", "--schedule", str(schedule)]
            commands.append(command)
        workers = []
        for command in commands:
            self.stdout.write("Starting a Celery worker: " + " ".join(command[2:]))
            workers.append(
                subprocess.Popen(
                    command,
                    env=os.environ.copy(),
                    cwd=settings.BASE_DIR,
                    preexec_fn=_in_the_background,  # noqa: PLW1509 (no threads yet)
                )
            )
        return workers
