"""Does a gunicorn worker's memory grow without end? (issue 46: 126 -> 166 MB in 10 minutes)

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/guildhall \\
        python manage.py bench_memory --minutes 5 [--workers 2] [--every 20] \\
        [--max-requests 0] [--redis redis://127.0.0.1:6379/<empty db>] [--json]

In a scratch database of its own (bench_<name>, created and dropped) it builds a few players'
games (``--games``, Guildhall), starts the site under gunicorn as production runs it with
``--workers`` sync workers and ``--max-requests`` (default 0: no worker is ever replaced, so
that a leak shows instead of being recycled away), and for ``--minutes`` sends a steady mix
from ``--clients`` connections at once: the board pages of the games, their htmx partials,
the dashboard, the API's game, a move through the API every tenth request (the games change:
new pages, new lines of the move log), a page that does not exist and a query string never
asked before (what a cache keyed by URL would keep). Every ``--every`` seconds it reads each
worker's resident memory (VmRSS) and prints it with the requests so far; at the end, each
worker's growth from its first sample after the warm-up (the first minute) to the last, and
per thousand requests.
"""

from __future__ import annotations

import http.client
import os
import random
import secrets
import tempfile
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from games.models import Game
from games.perf import data as bench_data
from games.perf import load
from games.perf.command import BenchCommand
from games.perf.logs import quiet_logs
from games.perf.memory import Mix, api_move_target, mib, workers_rss
from games.perf.scratch import database_url, empty_redis, scratch_database
from games.perf.server import Gunicorn, base_env, collectstatic, free_port

WARM_UP_SECONDS = 60


class Command(BenchCommand):
    help = "Drive a real gunicorn for N minutes and print each worker's RSS over time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--minutes", type=float, default=5)
        parser.add_argument("--every", type=float, default=20, help="Seconds between samples.")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--clients", type=int, default=2)
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--max-requests", type=int, default=0)
        parser.add_argument("--redis", default="", help="An empty Redis database's URL.")
        parser.add_argument("--seed", type=int, default=46)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **o: Any) -> None:
        self.as_json = o["json"]
        with quiet_logs():
            redis = empty_redis(o["redis"]) if o["redis"] else nullcontext()
            with redis, scratch_database("bench_memory"):
                try:
                    result = self.run(o)
                except RuntimeError as error:
                    raise CommandError(str(error)) from error
        self.output(result)

    def run(self, o: dict[str, Any]) -> dict[str, Any]:
        bench_data.tasks_to_nowhere()
        secret_key = secrets.token_urlsafe(64)
        settings.SECRET_KEY = secret_key
        data = bench_data.build("guildhall", players=4, moves=60, dashboard=o["games"], seed=1)
        session = bench_data.login_session(data.viewer)
        self.tokens = {u.pk: bench_data.api_token(u) for u in data.users}
        self.rand = random.Random(o["seed"])
        self.lock = threading.Lock()
        games = list(
            Game.objects.filter(status__in=Game.ACTIVE, seats__user=data.viewer).values_list(
                "pk", flat=True
            )
        )
        self.move_games = list(games)
        page = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}", "X-Forwarded-Proto": "https"}
        htmx = {**page, "HX-Request": "true"}
        api = {
            "Authorization": f"Token {self.tokens[data.viewer.pk]}",
            "X-Forwarded-Proto": "https",
        }
        pages = [load.Target("dashboard", "/", page)]
        for pk in games:
            pages += [
                load.Target("board", f"/games/{pk}/", page),
                load.Target("partial", f"/games/{pk}/", htmx),
                load.Target("API game", f"/api/v1/games/{pk}/", api),
            ]
        mix = Mix(pages, self.one_move)

        with tempfile.TemporaryDirectory(prefix="bench_memory_") as tmp:
            port = free_port()
            env = base_env(
                DJANGO_SETTINGS_MODULE="guildhall_site.bench_settings",
                DEBUG="false",
                SECRET_KEY=secret_key,
                ALLOWED_HOSTS="127.0.0.1,localhost",
                SITE_URL=f"http://127.0.0.1:{port}",
                DATABASE_URL=database_url(),
                TRUST_X_FORWARDED_PROTO="true",
                EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
                API_THROTTLE_REQUESTS="1000000/minute",
                API_THROTTLE_ACTIONS="1000000/minute",
                BENCH_STATIC_ROOT=str(Path(tmp) / "static"),
                REDIS_URL=o["redis"],
                WEB_MAX_REQUESTS=str(o["max_requests"]),
                WEB_MAX_REQUESTS_JITTER="0",
            )
            if not o["redis"]:
                env.pop("REDIS_URL")
            self.note("Collecting the static files...")
            collectstatic(env)
            with Gunicorn(env, port, o["workers"], Path(tmp)) as server:
                assert server.pid is not None
                self.note(f"gunicorn (pid {server.pid}), {o['workers']} workers, port {port}")
                samples = self.drive(server.pid, port, mix, o)
                errors = server.log_tail(200).count("Traceback")
        return self.summary(samples, o, errors)

    # ------------------------------------------------------------------------------------

    def one_move(self, conn: http.client.HTTPConnection) -> bool:
        """A move of the seat to move in one of the games (chosen here, outside the server),
        posted to the API; False when every game has ended."""
        with self.lock:
            while self.move_games:
                pk = self.rand.choice(self.move_games)
                game = Game.objects.get(pk=pk)
                move = bench_data.next_move(game, self.rand)
                if move is None:
                    self.move_games.remove(pk)
                    continue
                seat, action = move
                target = api_move_target(pk, game.version, action, self.tokens[seat.user_id])
                status, body, _seconds = load.request(conn, target)
                if status not in (201, 409):
                    raise RuntimeError(f"an API move answered {status}: {body[:300]!r}")
                return True
        return False

    def drive(self, master: int, port: int, mix: Mix, o: dict[str, Any]) -> list[dict[str, Any]]:
        stop = threading.Event()
        counts = [0] * o["clients"]
        failures: list[str] = []

        def client(i: int) -> None:
            try:
                requests(i)
            finally:
                connection.close()  # this thread's, opened by the moves (chosen here)

        def requests(i: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            rand = random.Random(o["seed"] + i)
            for target in mix.requests(rand):
                if stop.is_set():
                    break
                try:
                    if target is None:
                        mix.move(conn)
                    else:
                        status, _body, _s = load.request(conn, target)
                        if status != target.expect:
                            failures.append(f"{target.path}: {status}")
                except (OSError, http.client.HTTPException) as error:
                    failures.append(f"{type(error).__name__}: {error}")
                    conn.close()
                counts[i] += 1

        threads = [
            threading.Thread(target=client, args=(i,), daemon=True) for i in range(o["clients"])
        ]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        samples: list[dict[str, Any]] = []
        end = start + o["minutes"] * 60
        while True:
            now = time.monotonic()
            rss = workers_rss(master)
            sample: dict[str, Any] = {
                "seconds": round(now - start),
                "requests": sum(counts),
                "rss_mib": {str(pid): mib(kib) for pid, kib in sorted(rss.items())},
                "load": round(os.getloadavg()[0], 1),
            }
            samples.append(sample)
            self.note(
                f"{sample['seconds']:>5} s {sample['requests']:>7} requests  "
                + "  ".join(f"{pid}: {v} MiB" for pid, v in sample["rss_mib"].items())
                + f"  (load {sample['load']})"
            )
            if now >= end or failures[20:]:
                break
            time.sleep(min(o["every"], max(0.0, end - time.monotonic())))
        stop.set()
        for thread in threads:
            thread.join(60)
        if failures:
            self.note(f"{len(failures)} unexpected answers, e.g. {failures[:3]}")
        self.failures = failures
        return samples

    def summary(
        self, samples: list[dict[str, Any]], o: dict[str, Any], errors: int
    ) -> dict[str, Any]:
        warm = next((s for s in samples if s["seconds"] >= WARM_UP_SECONDS), samples[0])
        last = samples[-1]
        growth: dict[str, dict[str, float]] = {}
        for pid, end_mib in last["rss_mib"].items():
            start_mib = warm["rss_mib"].get(pid)
            if start_mib is None or end_mib is None:
                continue  # a worker replaced meanwhile
            requests = max(1, last["requests"] - warm["requests"])
            growth[pid] = {
                "after_warm_up_mib": start_mib,
                "end_mib": end_mib,
                "growth_mib": round(end_mib - start_mib, 1),
                "per_1000_requests_mib": round((end_mib - start_mib) * 1000 / requests, 2),
            }
        return {
            "settings": {
                "minutes": o["minutes"],
                "workers": o["workers"],
                "clients": o["clients"],
                "games": o["games"],
                "max_requests": o["max_requests"],
                "redis": bool(o["redis"]),
            },
            "requests": last["requests"],
            "unexpected_answers": len(self.failures),
            "tracebacks_logged": errors,
            "samples": samples,
            "growth_after_warm_up": growth,
        }

    def report(self, result: dict[str, Any]) -> None:
        s = result["settings"]
        self.stdout.write(
            f"{result['requests']} requests in {s['minutes']} min, {s['workers']} workers, "
            f"max_requests {s['max_requests']}, redis {s['redis']}; "
            f"{result['unexpected_answers']} unexpected answers"
        )
        for pid, g in result["growth_after_warm_up"].items():
            self.stdout.write(
                f"  worker {pid}: {g['after_warm_up_mib']} MiB after the warm-up -> "
                f"{g['end_mib']} MiB ({g['growth_mib']:+} MiB, "
                f"{g['per_1000_requests_mib']:+} MiB per 1000 requests)"
            )
