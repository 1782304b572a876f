"""Benchmark of the events process: many idle listeners on one uvicorn, as production runs it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/guildhall \\
        python manage.py bench_events --listeners 1000 --idle 20 --moves 5

In a scratch database of its own (bench_<name>, created and dropped) it starts a game of two
players and docs/Procfile's ``events`` command (the real uvicorn, DEBUG off, the scratch
database, an empty Redis database). It opens ``--listeners`` streams at once, half on the
game's stream (its boards) and half on a player's own stream, each a connection of its own;
holds them quiet for ``--idle`` seconds (longer than every timeout of the process: the
keep-alive's 15 s, Redis's 5 s); then makes ``--moves`` moves through the services, a few
seconds apart, and times each listener's event of each move from the move's commit. It prints
the PostgreSQL connections the process holds (by its application name), its memory before
and with the listeners, and the delays of the events (p50, p99, the slowest, and how many
arrived within 1 s), or ``--json``.
"""

from __future__ import annotations

import os
import random
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from games.models import Game
from games.perf import data as bench_data
from games.perf.command import BenchCommand
from games.perf.events import EventsProcess, Listener, Loop
from games.perf.logs import quiet_logs
from games.perf.scratch import database_url, empty_redis, percentile, scratch_database
from games.play.moves import do_submit_action

APP_NAME = "guildhall-bench-events"


class Command(BenchCommand):
    help = "Hold many idle event streams on one uvicorn and time a move's events to all."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--listeners", type=int, default=1000)
        parser.add_argument("--idle", type=float, default=20.0, help="seconds of quiet")
        parser.add_argument("--moves", type=int, default=5)
        parser.add_argument(
            "--redis",
            default="redis://127.0.0.1:6379/13",
            help="an empty Redis database, emptied at the end",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["listeners"] < 2 or options["moves"] < 1:
            raise CommandError("--listeners must be at least 2 and --moves at least 1")
        self.as_json = options["json"]
        with quiet_logs(), empty_redis(options["redis"]), scratch_database("bench_events") as name:
            result = self.run(name, options)
        self.output(result)

    def held(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP_NAME]
            )
            return int(cursor.fetchone()[0])

    def run(self, database: str, o: dict[str, Any]) -> dict[str, Any]:
        bench_data.tasks_to_nowhere()  # (the moves here queue their tasks to nowhere)
        settings.REDIS_URL = o["redis"]  # the moves publish to the listeners' Redis
        users = bench_data.make_users(2)
        with bench_data.seeded_games(o["seed"]):
            game = bench_data.start_game("guildhall", users[0], users[1:], move_days=3)
        token = bench_data.api_token(users[1])
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": database_url(database),
            "REDIS_URL": o["redis"],
            "PGAPPNAME": APP_NAME,
            "API_THROTTLE_REQUESTS": "1000000/minute",
            "LOG_FORMAT": "plain",
        }
        rand = random.Random(o["seed"])
        with tempfile.TemporaryDirectory() as folder, EventsProcess(env, Path(folder) / "log") as p:
            loop = Loop()
            try:
                return self.measure(p, loop, game, token, rand, o)
            finally:
                loop.close()

    def measure(
        self,
        process: EventsProcess,
        loop: Loop,
        game: Game,
        token: str,
        rand: random.Random,
        o: dict[str, Any],
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Token {token}"}
        port = process.port
        assert port is not None  # (EventsProcess listens on one)
        # One listener first, so that the process has loaded everything once.
        [first] = loop.open(port, "/api/v1/events/", headers)
        _wait(lambda: first.status, 30, "the first stream")
        base_kib = process.rss_kib()
        n = o["listeners"]
        self.note(f"Opening {n} streams...")
        began = time.monotonic()
        listeners: list[Listener] = []
        for path, count in (
            (f"/api/v1/events/?game={game.pk}", n // 2),
            ("/api/v1/events/", n - n // 2),
        ):
            for start in range(0, count, 100):
                listeners += loop.open(port, path, headers, min(100, count - start))
                time.sleep(0.05)
        _wait(lambda: all(x.status for x in listeners), 120, "every stream to open")
        opened_in = time.monotonic() - began
        statuses = sorted({x.status for x in listeners})
        if statuses != [200]:
            raise CommandError(f"streams answered {statuses}:\n{process.output()}")
        self.note(f"  all open in {opened_in:.1f} s; quiet for {o['idle']:.0f} s...")
        held_max = self.held()
        quiet_until = time.monotonic() + o["idle"]
        while time.monotonic() < quiet_until:
            time.sleep(1)
            held_max = max(held_max, self.held())
        with_kib, threads = process.rss_kib(), process.threads()
        ended = sum(1 for x in listeners if x.ended is not None)
        keepalives = min(len(x.keepalives) for x in listeners)

        delays: list[float] = []
        for i in range(o["moves"]):
            # A public move: a private one (a choice of a simultaneous step) tells no one.
            before = Game.objects.get(pk=game.pk).version
            while True:
                game = Game.objects.get(pk=game.pk)
                step = bench_data.next_move(game, rand)
                if step is None:
                    break
                seat, action = step
                committed = time.monotonic()
                game = do_submit_action(game.pk, seat.user, action, game.version)
                if game.version != before:
                    break
            if step is None:
                break
            version = game.version

            def arrived(v: int = version) -> bool:
                return all(x.seen(None, version=v) for x in listeners)

            _wait(arrived, 30, f"move {i + 1}'s events")
            # Each listener has seen the version now (``arrived``): no None is left.
            delays += [x.seen(None, version=version) - committed for x in listeners]  # type: ignore[operator]
            held_max = max(held_max, self.held())
            time.sleep(2)
        return {
            "listeners": n,
            "opened_seconds": round(opened_in, 2),
            "idle_seconds": o["idle"],
            "ended_while_idle": ended,
            "fewest_keepalives_while_idle": keepalives,
            "database_connections_held_max": held_max,
            "rss_mib_before": round(base_kib / 1024, 1),
            "rss_mib_with_listeners": round(with_kib / 1024, 1),
            "kib_per_listener": round((with_kib - base_kib) / n, 1),
            "threads_with_listeners": threads,
            "moves": len(delays) // n,
            "event_delay_ms_p50": round(percentile(delays, 0.5) * 1000, 1),
            "event_delay_ms_p99": round(percentile(delays, 0.99) * 1000, 1),
            "event_delay_ms_max": round(max(delays) * 1000, 1),
            "events_within_1s": f"{sum(d <= 1 for d in delays)} of {len(delays)}",
        }

    def report(self, r: dict[str, Any]) -> None:
        w = self.stdout.write
        w(f"{r['listeners']} listeners on one events process (uvicorn, docs/Procfile)")
        w(
            f"  opened in {r['opened_seconds']} s; quiet for {r['idle_seconds']:.0f} s: "
            f"{r['ended_while_idle']} ended, each heard at least "
            f"{r['fewest_keepalives_while_idle']} keep-alives"
        )
        w(
            f"  PostgreSQL connections held by the process, at most: "
            f"{r['database_connections_held_max']}"
        )
        w(
            f"  memory: {r['rss_mib_before']} MiB with one listener, "
            f"{r['rss_mib_with_listeners']} MiB with all: {r['kib_per_listener']} KiB a "
            f"listener; {r['threads_with_listeners']} threads"
        )
        w(
            f"  a move's event, from its commit to each listener, over {r['moves']} moves: "
            f"p50 {r['event_delay_ms_p50']} ms, p99 {r['event_delay_ms_p99']} ms, slowest "
            f"{r['event_delay_ms_max']} ms; within 1 s: {r['events_within_1s']}"
        )


def _wait(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise CommandError(f"timed out waiting for {what}")
        time.sleep(0.02)
