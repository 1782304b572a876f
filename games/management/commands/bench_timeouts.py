"""Benchmark of the time limits and the turn emails at scale (docs/notifications.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/guildhall \
        python manage.py bench_timeouts --games 100000 --expired 1

In a scratch database of its own (bench_<name>, created and dropped; never the site's own
data) it bulk-creates ``--games`` two-player games in play, all sharing one realistic
mid-game snapshot, of which ``--expired`` per cent are past their deadline. It then measures:

1. the sweep's query that finds the expired turns (and shows PostgreSQL's plan for it);
2. one sweep (``games.play.timeouts.sweep_timeouts``) timing out all of them: the computer
   plays each
   whole turn under the row lock, and a "your turn" task is queued for each next player
   (to an in-memory broker, so that the sweep's time is its own);
3. a Celery worker (solo pool, in this process) working through those tasks, sending each
   email to a local aiosmtpd server: emails per second.
"""

from __future__ import annotations

import logging
import random
import socket
import time
from datetime import timedelta
from typing import Any

from celery import Celery
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.core import Match, registry
from games.models import DEFAULT_KIND, Game, Seat
from games.notifications.models import Notification


class Command(BaseCommand):
    help = "Measure the time-out sweep and the turn emails on many games (scratch database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--expired", type=float, default=1.0, help="per cent past deadline")
        parser.add_argument("--players", type=int, default=2000, help="users to seat")
        parser.add_argument("--batch", type=int, default=2000, help="the sweep's batch size")

    def handle(
        self, *args: Any, games: int, expired: float, players: int, batch: int, **options: Any
    ) -> None:
        for name in ("celery", "mail.log", "kombu", "games", "notifications"):
            logging.getLogger(name).setLevel(logging.ERROR)
        if connection.vendor != "postgresql":
            self.stderr.write(
                self.style.WARNING(
                    f"The database is {connection.vendor}: the figures that matter are "
                    "PostgreSQL's (set DATABASE_URL=postgres://...)."
                )
            )
        db = settings.DATABASES["default"]
        old_name = db["NAME"]
        db.setdefault("TEST", {})["NAME"] = (
            f"bench_{old_name}" if connection.vendor == "postgresql" else None
        )
        self.stdout.write("Creating a scratch database...")
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            self.run(games, expired, players, batch)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    # ------------------------------------------------------------------------------------

    def run(self, n_games: int, expired_pc: float, n_players: int, batch: int) -> None:
        from guildhall_site.celery import app

        # The sweep queues its tasks; nothing runs them until the worker below starts.
        app.close()
        app.conf.update(task_always_eager=False, broker_url="memory://")
        n_expired = round(n_games * expired_pc / 100)

        t = time.perf_counter()
        snapshot, to_move = self.snapshot()
        users = self.make_users(n_players)
        self.make_games(n_games, n_expired, users, snapshot, to_move)
        self.stdout.write(
            f"Created {n_games:,} games ({n_expired:,} past their deadline) and "
            f"{n_players:,} players in {time.perf_counter() - t:.1f} s"
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

        # 1. Finding the expired turns.
        from games.play.timeouts import sweep_timeouts

        now = timezone.now()
        query = Seat.objects.filter(
            deadline__lte=now, deciding=True, game__status__in=Game.ACTIVE
        ).order_by("deadline")
        columns = ("game_id", "number", "wait_version")
        t = time.perf_counter()
        found = len(list(query.values_list(*columns)[:batch]))
        find_ms = (time.perf_counter() - t) * 1000
        self.stdout.write(f"Query finding {found:,} expired turns: {find_ms:.1f} ms")
        if connection.vendor == "postgresql":
            plan = query.values_list(*columns)[:batch].explain()
            self.stdout.write("  plan: " + " / ".join(line.strip() for line in plan.splitlines()))

        # 2. One sweep.
        t = time.perf_counter()
        done = sweep_timeouts(limit=batch)
        sweep_s = time.perf_counter() - t
        if done != n_expired:
            raise CommandError(f"the sweep timed out {done} games, not {n_expired}")
        self.stdout.write(
            f"One sweep timed out {done:,} turns in {sweep_s:.2f} s "
            f"({sweep_s / max(done, 1) * 1000:.1f} ms per turn, the computer playing each "
            "whole turn and queuing the next player's email)"
        )
        self.stdout.write(f"A second sweep right after: {sweep_timeouts(limit=batch)} turns")

        # 3. The worker sending the "your turn" emails.
        self.send_emails(app, done)

    def send_emails(self, app: Celery, expected: int) -> None:
        from aiosmtpd.controller import Controller
        from celery.contrib.testing.worker import start_worker

        class Counter:
            count = 0

            async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
                Counter.count += 1
                return "250 OK"

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        smtp = Controller(Counter(), hostname="127.0.0.1", port=port)
        smtp.start()
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        import games.notifications.events  # noqa: F401 (registered before the worker starts)
        import games.notifications.tasks  # noqa: F401

        try:
            with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=60):
                t = time.perf_counter()  # from the worker's start to the last email
                limit = time.monotonic() + 600
                while Counter.count < expected and time.monotonic() < limit:
                    time.sleep(0.01)
                elapsed = time.perf_counter() - t
        finally:
            smtp.stop()
        sent = Notification.objects.filter(
            kind=Notification.Kind.TURN, status=Notification.Status.SENT
        ).count()
        self.stdout.write(
            f"The worker (1 process, solo pool) sent {Counter.count:,} 'your turn' emails to "
            f"aiosmtpd in {elapsed:.2f} s: {Counter.count / elapsed:.0f} emails/s "
            f"({sent:,} marked sent)"
        )

    # Data -------------------------------------------------------------------------------

    def snapshot(self) -> tuple[dict[str, Any], int]:
        """A realistic position: a 2-player game of the first game, 300 decisions in (about
        30 Guildhall turns), one shared snapshot."""
        kind = registry.get(DEFAULT_KIND)
        rand = random.Random(1)
        match = Match(kind, kind.parse_options({}, 2), ["Ann", "Bob"], 123456789)
        for _ in range(300):
            (seat,) = sorted(kind.deciders(match.state))[:1]
            match.apply(kind.choose(match.state, seat, rand), seat)
            if kind.phase(match.state) == "over":
                raise CommandError("the sample game ended early")
        snapshot = kind.to_json(match.state)
        kind.from_json(snapshot)  # it reads back
        (to_move,) = sorted(kind.deciders(match.state))[:1]
        self.options = kind.options_json(match.options)
        return snapshot, to_move

    def make_users(self, n: int) -> list[User]:
        User.objects.bulk_create(
            (
                User(
                    username=f"bench{i}",
                    email=f"bench{i}@example.org",
                    password="!",
                    turn_emails=User.TurnEmails.EACH_TURN,
                )
                for i in range(n)
            ),
            batch_size=5000,
        )
        return list(User.objects.order_by("pk"))

    def make_games(
        self, n: int, n_expired: int, users: list[User], snapshot: dict[str, Any], to_move: int
    ) -> None:
        now = timezone.now()
        rand = random.Random(2)
        chunk = 2000
        for start in range(0, n, chunk):
            size = min(chunk, n - start)
            rows = []
            since_of = {}
            for i in range(start, start + size):
                expired = i < n_expired
                since = now - timedelta(days=3, minutes=1) if expired else now
                since_of[i] = since
                rows.append(
                    Game(
                        kind=DEFAULT_KIND,
                        options=self.options,
                        names=["Ann", "Bob"],
                        seed=rand.getrandbits(62),
                        status=Game.Status.PLAYING,
                        version=0,
                        move_days=3,
                        snapshot=snapshot,
                    )
                )
            created = Game.objects.bulk_create(rows)
            Seat.objects.bulk_create(
                Seat(
                    game=g,
                    user=users[(2 * k + s) % len(users)],
                    number=s,
                    deciding=s == to_move,
                    deciding_since=since_of[k] if s == to_move else None,
                    deadline=since_of[k] + timedelta(days=3) if s == to_move else None,
                )
                for k, g in enumerate(created, start)
                for s in (0, 1)
            )
