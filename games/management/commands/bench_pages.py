"""Benchmark of the pages a player loads, under gunicorn as production runs it
(docs/performance.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/guildhall \
        python manage.py bench_pages --rounds 3 --seconds 10

In a scratch database of its own (bench_<name>, created and dropped; never the site's own
data) it builds, through the services, a late game of ``--game`` (default Guildhall: 4
players, ``--moves`` 600 decisions in and still going) and ``--dashboard`` active games for
the user it waits for. It starts the site under gunicorn (``--workers`` sync workers,
DEBUG off, Redis cache and broker, static files collected) with one more URL, a bare Django
view (one small template: ``guildhall_site.bench_urls``), and loads with wrk when it is
installed (else a Python load generator), ``--connections`` at once for ``--seconds`` per
run, the bare view and each page in turn (A B A B, ``--rounds`` of each):

- the board page of the late game, as the seat it waits for;
- the same URL as htmx asks for it (the board partial);
- the board's poll while nothing changed (204);
- the dashboard of that user;

then moves through the API, one at a time (each a legal action of the seat to move, from the
game's own computer player, chosen outside the timed part), alternated with the bare view one
at a time. It prints requests/s, p50 and p99 of each (the median of the rounds) and their
ratio to the bare view's, or ``--json``.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import platform
import random
import secrets
import statistics
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from games.core import registry
from games.models import Game
from games.perf import data as bench_data
from games.perf import load
from games.perf.command import BenchCommand
from games.perf.logs import quiet_logs
from games.perf.scratch import database_url, empty_redis, scratch_database
from games.perf.server import Gunicorn, base_env, collectstatic, free_port
from games.web.board import poll_token_of

PAGES = ("board", "partial", "poll", "dashboard")


class Command(BenchCommand):
    help = "Measure the board, its partial, its poll, the dashboard and API moves under gunicorn."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="guildhall", help="a game of the registry")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--moves", type=int, default=600, help="decisions into the game")
        parser.add_argument(
            "--dashboard", type=int, default=50, help="active games of the dashboard's user"
        )
        parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
        parser.add_argument("--connections", type=int, default=8)
        parser.add_argument("--seconds", type=float, default=10.0, help="per run")
        parser.add_argument("--rounds", type=int, default=3, help="runs of each (A B A B)")
        parser.add_argument(
            "--api-moves", type=int, default=25, help="API moves per round (serial)"
        )
        parser.add_argument(
            "--load", choices=("auto", "wrk", "python"), default="auto", help="load generator"
        )
        parser.add_argument(
            "--redis",
            default="redis://127.0.0.1:6379/13",
            help="an empty Redis database for the cache and the broker, emptied at the end "
            "('' for none: a cache in each process and tasks inline, unlike production)",
        )
        parser.add_argument(
            "--no-page-cache",
            action="store_true",
            help="serve every page rendered (PAGE_CACHE_SECONDS=0): what the first view of a "
            "board after a move costs",
        )
        parser.add_argument(
            "--language",
            default="en",
            choices=[code for code, _ in settings.LANGUAGES],
            help="the viewer's browser language (Accept-Language): the pages in it",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        with quiet_logs():
            return self.measured(*args, **options)

    def measured(self, *args: Any, **options: Any) -> None:
        self.as_json = options["json"]
        try:
            registry.get(options["game"])
        except registry.UnknownGame as error:
            raise CommandError(str(error)) from None
        self.wrk = self.load_generator(options["load"])
        if not options["redis"]:
            self.stderr.write(
                self.style.WARNING(
                    "Without Redis each gunicorn worker has its own cache and tasks run "
                    "inline: production's figures are with Redis."
                )
            )
        redis = empty_redis(options["redis"]) if options["redis"] else nullcontext()
        with redis, scratch_database("bench_pages"):
            self.note("Created a scratch database.")
            try:
                result = self.run(options)
            except RuntimeError as error:  # the server did not start, a game ended too soon
                raise CommandError(str(error)) from error
        self.output(result)

    # ------------------------------------------------------------------------------------

    def load_generator(self, choice: str) -> str | None:
        """wrk's path, or None for the Python load generator."""
        path = load.wrk_path()
        if choice == "wrk" and path is None:
            raise CommandError("wrk is not installed (apt-get install wrk), or use --load python")
        return path if choice != "python" else None

    def run(self, o: dict[str, Any]) -> dict[str, Any]:
        # The moves below queue their notification tasks to no broker in this process (the
        # benchmark sends no email); the site's own processes queue them to Redis.
        bench_data.tasks_to_nowhere()
        # The server's key: the sessions made here must be valid there.
        secret_key = secrets.token_urlsafe(64)
        settings.SECRET_KEY = secret_key

        t = time.perf_counter()
        data = bench_data.build(
            o["game"],
            players=o["players"],
            moves=o["moves"],
            dashboard=o["dashboard"],
            seed=o["seed"],
            progress=lambda n: self.note(f"  move {n}"),
        )
        game = data.game
        self.note(
            f"Built a {len(game.names)}-player game of {game.kind} at move {game.version} "
            f"(after {data.attempts} game{'s' if data.attempts > 1 else ''}) and "
            f"{data.active_games} active games for {data.viewer.username} in "
            f"{time.perf_counter() - t:.1f} s"
        )
        to_move = bench_data.seat_to_move(game)
        assert to_move is not None  # the late game waits for someone
        viewer_seat = to_move.number
        session = bench_data.login_session(data.viewer)
        tokens = {u.pk: bench_data.api_token(u) for u in data.users}
        self.rand = random.Random(o["seed"])

        with tempfile.TemporaryDirectory(prefix="bench_pages_") as tmp:
            port = free_port()
            env = base_env(
                DJANGO_SETTINGS_MODULE="guildhall_site.bench_settings",
                DEBUG="false",
                SECRET_KEY=secret_key,
                ALLOWED_HOSTS="127.0.0.1,localhost",
                SITE_URL=f"http://127.0.0.1:{port}",
                DATABASE_URL=database_url(),
                # As behind production's TLS proxy: the requests say they came over HTTPS.
                TRUST_X_FORWARDED_PROTO="true",
                EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
                # The moves come faster than a person's: the throttles still count them.
                API_THROTTLE_REQUESTS="1000000/minute",
                API_THROTTLE_ACTIONS="1000000/minute",
                BENCH_STATIC_ROOT=str(Path(tmp) / "static"),
                REDIS_URL=o["redis"],
                PAGE_CACHE_SECONDS="0" if o["no_page_cache"] else "600",
            )
            if not o["redis"]:
                env.pop("REDIS_URL")
            self.note("Collecting the static files...")
            collectstatic(env)
            with Gunicorn(env, port, o["workers"], Path(tmp)) as server:
                self.port = port
                self.note(f"gunicorn (pid {server.pid}) listens on 127.0.0.1:{port}")
                targets = self.targets(data, session, o["language"])
                sizes = self.check_pages(targets, data)
                load_start = os.getloadavg()
                pages = self.measure_pages(targets, o)
                moves = self.measure_moves(data, targets["bare"], tokens, o)
                load_end = os.getloadavg()
                errors = self.errors_in_log(server)

        return {
            "settings": {
                "game": game.kind,
                "players": len(game.names),
                "game_id": game.pk,
                "moves": game.version,
                "viewer_seat": viewer_seat,
                "dashboard_games": data.active_games,
                "workers": o["workers"],
                "connections": o["connections"],
                "seconds": o["seconds"],
                "rounds": o["rounds"],
                "api_moves": moves["requests"],
                "api_moves_per_round": o["api_moves"],
                "load_generator": load.wrk_version(self.wrk) if self.wrk else "python",
                "redis": bool(o["redis"]),
                "page_cache": not o["no_page_cache"],
                "language": o["language"],
                "postgresql": self.pg_version(),
                "python": platform.python_version(),
                "django": django.get_version(),
                "cpus": os.cpu_count(),
                "load_average": {"start": load_start[0], "end": load_end[0]},
                "server_errors_logged": errors,
            },
            "results": self.summary(pages, moves, sizes),
        }

    def pg_version(self) -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            row = cursor.fetchone()
            assert row is not None  # (SHOW has a row)
            version: str = row[0].split()[0]
            return version

    # The requests ----------------------------------------------------------------------------

    def targets(self, data: bench_data.BenchData, session: str, language: str) -> dict[str, Any]:
        game = data.game
        seat = game.seats.get(user=data.viewer).number
        # Every page the same way: the session of the viewer, over "HTTPS" (the proxy's
        # header), so that the difference to the bare view is the page's own work.
        page = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}",
            "X-Forwarded-Proto": "https",
            # The viewer has no language of their own: the browser's is the page's.
            "Accept-Language": language,
        }
        htmx = {**page, "HX-Request": "true"}
        return {
            "bare": load.Target("bare view", "/bench/bare/", page),
            "board": load.Target("board page", f"/games/{game.pk}/", page),
            "partial": load.Target("board partial (htmx)", f"/games/{game.pk}/", htmx),
            "poll": load.Target(
                "unchanged poll (204)",
                f"/games/{game.pk}/poll/?v={poll_token_of(game, seat)}",
                htmx,
                expect=204,
            ),
            "dashboard": load.Target(f"dashboard ({data.active_games} games)", "/", page),
        }

    def check_pages(self, targets: dict[str, Any], data: bench_data.BenchData) -> dict[str, int]:
        """Each request once, before anything is timed: the answer it must be. Returns the
        size of each body."""
        game_link = f"/games/{data.game.pk}/".encode()
        musts = {
            "bare": [b"one small template"],
            "board": [b'id="board"', b"<html", b'name="action"'],
            "partial": [b'id="board"', b'name="action"'],
            "dashboard": [game_link, b"<html"],
        }
        sizes = {}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        for key, target in targets.items():
            status, body, _ = load.request(conn, target)
            problem = None
            if status != target.expect:
                problem = f"answered {status}, not {target.expect}"
            elif any(must not in body for must in musts.get(key, ())):
                problem = "is not the page it should be"
            elif key == "partial" and b"<html" in body:
                problem = "is a whole page, not the partial"
            if problem:
                raise CommandError(f"{target.name} ({target.path}) {problem}:\n{body[:800]!r}")
            sizes[key] = len(body)
        conn.close()
        return sizes

    def run_load(
        self, target: load.Target, o: dict[str, Any], seconds: float | None = None
    ) -> load.Result:
        seconds = o["seconds"] if seconds is None else seconds
        if self.wrk:
            return load.wrk_load(
                "127.0.0.1",
                self.port,
                target,
                connections=o["connections"],
                seconds=seconds,
                threads=min(2, os.cpu_count() or 1),
                wrk=self.wrk,
            )
        return load.python_load(
            "127.0.0.1", self.port, target, connections=o["connections"], seconds=seconds
        )

    def measure_pages(self, targets: dict[str, Any], o: dict[str, Any]) -> dict[str, Any]:
        """Each page after the bare view, ``rounds`` times (A B A B). Returns the runs of
        each page, and of the bare view next to each page."""
        self.note("Warming up (every worker renders every page)...")
        for target in targets.values():
            self.run_load(target, o, seconds=1)
        runs: dict[str, list[load.Result]] = {key: [] for key in targets}
        paired: dict[str, list[load.Result]] = {key: [] for key in PAGES}
        for key in PAGES:
            for r in range(o["rounds"]):
                bare = self.run_load(targets["bare"], o)
                page = self.run_load(targets[key], o)
                runs["bare"].append(bare)
                paired[key].append(bare)
                runs[key].append(page)
                self.note(
                    f"  {targets[key].name}, round {r + 1}: {page.rps:.1f} req/s "
                    f"(bare view {bare.rps:.1f} req/s)"
                )
        return {"runs": runs, "paired": paired, "names": {k: t.name for k, t in targets.items()}}

    def measure_moves(
        self,
        data: bench_data.BenchData,
        bare: load.Target,
        tokens: dict[int, str],
        o: dict[str, Any],
    ) -> dict[str, Any]:
        """Moves through the API one at a time, each after reading the game (outside the
        timed part); the bare view one at a time before each round's moves. The late game
        first; should it end, the other active games of the same game."""
        self.note("API moves, one at a time...")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        games = [data.game.pk] + list(
            Game.objects.filter(kind=data.game.kind, status__in=Game.ACTIVE)
            .exclude(pk=data.game.pk)
            .order_by("-version")
            .values_list("pk", flat=True)
        )
        # A few moves untimed first: each worker's first API request loads what the API
        # needs (its views, serializers, the token check), once per process.
        for _ in range(2 * o["workers"]):
            self.api_move(conn, games, tokens)
        bare_times, move_times, done_moves = [], [], []
        in_late_game = 0
        for _ in range(o["rounds"]):
            for _ in range(o["api_moves"]):
                status, _body, seconds = load.request(conn, bare)
                if status != 200:
                    raise CommandError(f"the bare view answered {status}")
                bare_times.append(seconds)
            for _ in range(o["api_moves"]):
                done = self.api_move(conn, games, tokens)
                if done is None:
                    break
                done_moves.append(done)
                move_times.append(done["ms"] / 1000)
                in_late_game += done["game"] == data.game.pk
        conn.close()
        if in_late_game < len(move_times):
            self.note(
                f"  The late game ended: {len(move_times) - in_late_game} of the moves were "
                "made in the other games."
            )
        return {
            "move": load.summarise(move_times, sum(move_times), {201: len(move_times)}, 201),
            "bare_serial": load.summarise(bare_times, sum(bare_times), {200: len(bare_times)}, 200),
            "requests": len(move_times),
            "in_late_game": in_late_game,
            "slowest": sorted(done_moves, key=lambda m: -m["ms"])[:3],
        }

    def api_move(
        self, conn: http.client.HTTPConnection, games: list[int], tokens: dict[int, str]
    ) -> dict[str, Any] | None:
        """One move of the seat to move in the first game of ``games`` still going (those
        over are dropped from the list), by its computer player, posted to the API with the
        version read. Returns the game, the version the move was made on, the action's kind,
        the game's status after it and the milliseconds the request took; None when no game
        is left."""
        move = None
        while move is None and games:
            game = Game.objects.get(pk=games[0])
            move = bench_data.next_move(game, self.rand)
            if move is None:
                games.pop(0)
        if move is None:
            return None
        seat, action = move
        target = load.Target(
            "API move",
            f"/api/v1/games/{game.pk}/actions/",
            {
                "Authorization": f"Token {tokens[seat.user_id]}",
                "Content-Type": "application/json",
                "X-Forwarded-Proto": "https",
            },
            expect=201,
            method="POST",
            body=json.dumps({"version": game.version, "action": action}).encode(),
        )
        status, body, seconds = load.request(conn, target)
        if status != 201:
            raise CommandError(f"an API move answered {status}: {body[:500]!r}")
        # The answer is the game as it is now: its new version (the same one after a
        # simultaneous choice, which is kept back until every seat has chosen).
        answer = json.loads(body)
        if answer["version"] < game.version:
            raise CommandError("an API move answered an older version of the game")
        return {
            "game": game.pk,
            "version": game.version,
            "action": action.get("kind"),
            "status": answer["status"],
            "ms": round(seconds * 1000, 2),
        }

    def errors_in_log(self, server: Gunicorn) -> int:
        """Tracebacks in the server's error log (a 500 the load generators saw as an
        error too)."""
        try:
            return server.error_log.read_text(errors="replace").count("Traceback")
        except OSError:
            return 0

    # The result ------------------------------------------------------------------------------

    def summary(
        self, pages: dict[str, Any], moves: dict[str, Any], sizes: dict[str, int]
    ) -> dict[str, Any]:
        def median(results: list[load.Result]) -> dict[str, Any]:
            rps = [r.rps for r in results]
            middle = statistics.median(rps)
            return {
                "rps": round(middle, 1),
                # Half the range of the rounds' requests/s, in per cent of their median.
                "spread_pc": round((max(rps) - min(rps)) / 2 / middle * 100, 1) if middle else 0,
                "p50_ms": round(statistics.median(r.p50_ms for r in results), 2),
                "p99_ms": round(statistics.median(r.p99_ms for r in results), 2),
                "requests": sum(r.requests for r in results),
                "errors": sum(r.errors for r in results),
            }

        out = {}
        for key, results in pages["runs"].items():
            row = {"name": pages["names"][key], **median(results), "bytes": sizes[key]}
            if key in pages["paired"]:
                # How many times the bare view's cost, in each round against the bare view's
                # run just before (the median of the rounds): its requests/s over the
                # page's, and the page's p50 over its p50.
                pairs = list(zip(pages["paired"][key], results, strict=True))
                row["x_bare_rps"] = round(
                    statistics.median(b.rps / p.rps if p.rps else math.inf for b, p in pairs), 2
                )
                row["x_bare_p50"] = round(
                    statistics.median(
                        p.p50_ms / b.p50_ms if b.p50_ms else math.inf for b, p in pairs
                    ),
                    2,
                )
            row["rounds"] = [r.as_dict() for r in results]
            out[key] = row
        move, bare = moves["move"], moves["bare_serial"]
        out["bare_serial"] = {
            "name": "bare view (serial)",
            "p50_ms": round(bare.p50_ms, 2),
            "p99_ms": round(bare.p99_ms, 2),
            "requests": bare.requests,
        }
        out["move"] = {
            "name": "API move (serial)",
            "p50_ms": round(move.p50_ms, 2),
            "p99_ms": round(move.p99_ms, 2),
            "requests": move.requests,
            "in_late_game": moves["in_late_game"],
            "slowest": moves["slowest"],
            "x_bare_p50": round(move.p50_ms / bare.p50_ms, 2) if bare.p50_ms else None,
        }
        return out

    def report(self, result: dict[str, Any]) -> None:
        s, rows = result["settings"], result["results"]

        def w(line: str) -> None:
            self.stdout.write(line.rstrip())

        w("")
        w(
            f"gunicorn, {s['workers']} sync workers; {s['connections']} connections, "
            f"{s['seconds']:g} s per run, {s['rounds']} round{'s' if s['rounds'] > 1 else ''} "
            "of each (bare view and page "
            f"alternated), load generator {s['load_generator']}"
        )
        w(
            f"{s['game']}: a {s['players']}-player game at move {s['moves']}, viewed by the "
            f"seat to move (seat {s['viewer_seat']}), whose dashboard lists "
            f"{s['dashboard_games']} active games; pages in {s['language']}"
        )
        w(
            f"PostgreSQL {s['postgresql']}, Redis {'on' if s['redis'] else 'off'}, "
            f"page cache {'on' if s['page_cache'] else 'off'}, Python "
            f"{s['python']}, Django {s['django']}, {s['cpus']} CPUs, load average "
            f"{s['load_average']['start']:.2f} -> {s['load_average']['end']:.2f}"
        )
        w("")
        header = (
            f"{'':<26}{'req/s':>8}{'+-%':>6}{'p50 ms':>9}{'p99 ms':>9}{'KB':>7}"
            f"{'x bare req/s':>14}{'x bare p50':>12}"
        )
        w(header)
        w("-" * len(header))
        for key in ("bare", *PAGES):
            r = rows[key]
            ratios = (
                f"{r['x_bare_rps']:>13.1f}x{r['x_bare_p50']:>11.1f}x" if "x_bare_rps" in r else ""
            )
            w(
                f"{r['name']:<26}{r['rps']:>8.1f}{r['spread_pc']:>6.0f}{r['p50_ms']:>9.1f}"
                f"{r['p99_ms']:>9.1f}{r['bytes'] / 1024:>7.1f}{ratios}"
            )
        for key in ("bare_serial", "move"):
            r = rows[key]
            ratio = f"{r['x_bare_p50']:>11.1f}x" if r.get("x_bare_p50") else ""
            w(f"{r['name']:<26}{'':>14}{r['p50_ms']:>9.1f}{r['p99_ms']:>9.1f}{'':>21}{ratio}")
        w("")
        w(
            "+-%: half the range of the rounds' requests/s. x bare: the page's cost over the "
            "bare view's, run just before it in each round."
        )
        move = rows["move"]
        w(
            f"API moves: {move['requests']} ({move['in_late_game']} in the late game), one at "
            f"a time, in rounds of {s['api_moves_per_round']} after as many requests of the "
            "bare view one at a time. Slowest: "
            + ", ".join(
                f"{m['ms']:.0f} ms ({m['action']} on game {m['game']} at {m['version']}"
                + (f", {m['status']} after it)" if m["status"] != "playing" else ")")
                for m in move["slowest"]
            )
        )
        errors = sum(r.get("errors", 0) for r in rows.values()) + s["server_errors_logged"]
        if errors:
            self.stderr.write(
                self.style.WARNING(
                    f"{errors} unexpected answers or errors (see the rounds under --json)."
                )
            )
