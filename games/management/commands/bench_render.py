"""``manage.py bench_render``: what each page costs in one process, without a server.

Where ``bench_pages`` measures the site under gunicorn and load (what a player's request
waits for), this command times the work of one request alone, with Django's test client in
this process: the whole middleware chain, the session and user lookups, the view, the
templates and the queries, one request at a time (docs/performance.md, issue 30). For each
game of the registry it builds, through the services, a late game of 4 players and 50 active
games for the viewer (``games.perf.data``), then times:

- a board rendered afresh (the page cache off): the page and its htmx partial, as the seat
  the game waits for and as another seat, and the page with none of the fragments that
  boards share (``{% cached_partial %}``: cards, places, players) stored yet, as the first
  board a new process renders;
- the board as a player first opens it after a move: a move, then the board of the seat
  the game waits for now (its queries are not counted);
- the board from the page cache, the unchanged poll and the dashboard (fresh and cached);
- the bare view (one small template, the same session): what every logged-in request
  pays at least; and the same view with no middleware at all (no session, no user): what
  Django itself costs;
- moves through the API, one at a time, with the queries each one makes.

Each row prints p50, p90 and p99 over ``--repeat`` requests, the queries of one request and
the size of the answer. ``--profile`` adds, for a fresh board of each game, the functions
that took the most time (cProfile), and how many translation lookups it made.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import platform
import pstats
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import django
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone, translation

from accounts.models import User
from games.core import registry
from games.models import Game, Move, Seat
from games.perf import data as bench_data
from games.perf.logs import quiet_logs
from games.play.moves import do_submit_action
from games.templatetags.fragment_tags import forget_fragments
from games.web.board import poll_token_of

if TYPE_CHECKING:  # (the test client's answer, of Django's stubs only)
    from django.test.client import _MonkeyPatchedWSGIResponse

MOVES = {"guildhall": 600, "renaissance": 150}  # a late game of each (Renaissance Man's end sooner)


def percentile(values: list[float], pc: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pc / 100 * (len(ordered) - 1)))]


class Command(BaseCommand):
    help = "What each page costs in one process: fresh boards, polls, dashboards, API moves."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", action="append", help="a game of the registry (default: every one)"
        )
        parser.add_argument("--repeat", type=int, default=200, help="requests per row")
        parser.add_argument(
            "--moves",
            type=int,
            default=0,
            help="decisions into the late game (default: 600 for Guildhall, 150 for others)",
        )
        parser.add_argument("--api-moves", type=int, default=60)
        parser.add_argument(
            "--extra-games",
            type=int,
            default=0,
            help="finished games of other players added first (does anything slow as the "
            "site grows?)",
        )
        parser.add_argument("--dashboard", type=int, default=50, help="the viewer's games")
        parser.add_argument("--language", default="en")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--profile", action="store_true", help="where a fresh board goes")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument(
            "--sql", action="store_true", help="print the queries of the dearest API move counted"
        )

    def handle(self, *args: Any, **o: Any) -> None:
        with quiet_logs():
            return self.run(*args, **o)

    def run(self, *args: Any, **o: Any) -> None:
        kinds = o["game"] or [k.id for k in registry.all_games()]
        for kind_id in kinds:
            try:
                registry.get(kind_id)
            except registry.UnknownGame as error:
                raise CommandError(str(error)) from None
        bench_data.tasks_to_nowhere()
        db = settings.DATABASES["default"]
        old_name = db["NAME"]
        if connection.vendor == "sqlite":
            scratch = str(Path(old_name).with_name(f"bench_{Path(old_name).name}"))
        else:
            scratch = f"bench_{old_name}"
        db.setdefault("TEST", {})["NAME"] = scratch
        self.note("Creating a scratch database...")
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            with bench_settings():
                results = {k: self.measure(k, o) for k in kinds}
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        summary = {
            "settings": {
                "database": connection.vendor,
                "python": platform.python_version(),
                "django": django.get_version(),
                "repeat": o["repeat"],
                "language": o["language"],
                "load_average": os.getloadavg()[0],
            },
            "games": results,
        }
        if o["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.report(summary)

    def note(self, text: str) -> None:
        (self.stderr if self.json_out else self.stdout).write(text)

    json_out = False
    show_sql = False

    # -------------------------------------------------------------------------------------

    def measure(self, kind_id: str, o: dict[str, Any]) -> dict[str, Any]:
        self.json_out = o["json"]
        self.show_sql = o["sql"]
        t = time.perf_counter()
        data = bench_data.build(
            kind_id,
            players=4,
            moves=o["moves"] or MOVES.get(kind_id, 100),
            dashboard=o["dashboard"],
            seed=o["seed"],
            prefix=f"bench-{kind_id}",
        )
        game = data.game
        if o["extra_games"]:
            t = time.perf_counter()
            add_finished_games(game, o["extra_games"])
            self.note(
                f"  and {o['extra_games']} finished games of other players, added in "
                f"{time.perf_counter() - t:.1f} s"
            )
        self.note(
            f"{kind_id}: a {len(game.names)}-player game at move {game.version} and "
            f"{data.active_games} active games for the viewer, built in "
            f"{time.perf_counter() - t:.1f} s"
        )
        seat = game.seats.get(user=data.viewer).number
        other = game.seats.exclude(user=data.viewer).select_related("user").first()
        assert other is not None
        client = self.client_for(data.viewer, o["language"])
        other_client = self.client_for(other.user, o["language"])
        board = f"/games/{game.pk}/"
        poll = f"/games/{game.pk}/poll/?v={poll_token_of(game, seat)}"
        htmx = {"headers": {"HX-Request": "true"}}
        rows: dict[str, dict[str, Any]] = {}
        fresh = {"PAGE_CACHE_SECONDS": 0}
        with override_settings(MIDDLEWARE=[]):
            # What Django costs with no middleware, no session and no user: the floor.
            rows["bare view, no middleware"] = self.row(
                Client(), "/bench/bare/", o, must=b"one small template"
            )
        rows["bare view"] = self.row(client, "/bench/bare/", o, must=b"one small template")
        rows["board, fresh"] = self.row(client, board, o, fresh, must=b'name="action"')
        rows["board, fresh, nothing stored"] = self.row(
            client, board, o, fresh, before=forget_fragments
        )
        rows["board partial, fresh"] = self.row(client, board, o, fresh, htmx, must=b'id="board"')
        rows["board, fresh, another seat"] = self.row(other_client, board, o, fresh)
        rows["board, cached"] = self.row(client, board, o, must=b'name="action"')
        rows["unchanged poll"] = self.row(client, poll, o, htmx, status=204)
        rows["dashboard, fresh"] = self.row(client, "/", o, fresh, must=board.encode())
        rows["dashboard, cached"] = self.row(client, "/", o, must=board.encode())
        # The profile of the board the rows above timed, before the moves below change it
        # (a game they end would profile a finished game's board instead).
        profile = self.profile(client, board) if o["profile"] else None
        rows["board after each move"] = self.after_moves(data, o)
        rows["API move"] = self.api_moves(data, o)
        result: dict[str, Any] = {"moves": game.version, "rows": rows}
        if profile is not None:
            result["profile"] = profile
        return result

    def client_for(self, user: User, language: str) -> Client:
        client = Client(headers={"Accept-Language": language})
        client.cookies[settings.SESSION_COOKIE_NAME] = bench_data.login_session(user)
        return client

    def row(
        self,
        client: Client,
        path: str,
        o: dict[str, Any],
        overrides: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        *,
        status: int = 200,
        must: bytes = b"",
        before: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """``path`` requested ``repeat`` times (after two untimed), one at a time; ``before``
        called before each (untimed)."""
        extra = extra or {}
        with override_settings(**(overrides or {})):
            response = client.get(path, secure=True, **extra)
            if response.status_code != status or must not in response.content:
                raise CommandError(
                    f"{path} answered {response.status_code}, not {status}, or not the page "
                    f"it should be:\n{response.content[:600]!r}"
                )
            client.get(path, secure=True, **extra)
            with count_queries() as queries:
                client.get(path, secure=True, **extra)
            times, cpu = [], []
            for _ in range(o["repeat"]):
                if before is not None:
                    before()
                t, c = time.perf_counter(), time.thread_time()
                client.get(path, secure=True, **extra)
                cpu.append(time.thread_time() - c)
                times.append(time.perf_counter() - t)
        return summary_of(times, queries=queries.calls, kb=len(response.content) / 1024, cpu=cpu)

    def after_moves(self, data: bench_data.BenchData, o: dict[str, Any]) -> dict[str, Any]:
        """The board as a player first opens it after a move (the one the turn email links
        to): a move by the game's computer player through the services (untimed), then the
        board of the seat the game waits for now, a new version (the page cache on, as in
        production, and missing it). Up to ``repeat`` moves, fewer if the game ends."""
        rand = random.Random(o["seed"])
        clients: dict[int, Client] = {}
        game = data.game
        times: list[float] = []
        size = 0
        for _ in range(o["repeat"]):
            move = bench_data.next_move(game, rand)
            if move is None:
                break
            seat, action = move
            game = do_submit_action(game.pk, seat.user, action, game.version)
            to_move = bench_data.seat_to_move(game)
            if to_move is None:
                break
            user = to_move.user
            client = clients.get(user.pk) or clients.setdefault(
                user.pk, self.client_for(user, o["language"])
            )
            t = time.perf_counter()
            response = client.get(f"/games/{game.pk}/", secure=True)
            times.append(time.perf_counter() - t)
            if response.status_code != 200:
                raise CommandError(f"the board answered {response.status_code}")
            size = len(response.content)
        return summary_of(times, queries=None, kb=size / 1024)

    def api_moves(self, data: bench_data.BenchData, o: dict[str, Any]) -> dict[str, Any]:
        """Moves through the API one at a time (each chosen by the game's computer player
        outside the timed part): the late game, then its other active games."""
        rand = random.Random(o["seed"])
        tokens = {u.pk: bench_data.api_token(u) for u in data.users}
        games = [data.game.pk] + list(
            Game.objects.filter(kind=data.game.kind, status__in=Game.ACTIVE)
            .exclude(pk=data.game.pk)
            .values_list("pk", flat=True)
        )
        client = Client()
        times: list[float] = []
        query_counts: list[int] = []
        dearest_sql: list[str] = []
        for n in range(o["api_moves"] + 2):
            move = None
            while move is None and games:
                game = Game.objects.get(pk=games[0])
                move = bench_data.next_move(game, rand)
                if move is None:
                    games.pop(0)
            if move is None:
                break
            seat, action = move
            path = f"/api/v1/games/{game.pk}/actions/"
            body = {"version": game.version, "action": action}
            headers = {"Authorization": f"Token {tokens[seat.user_id]}"}

            def post(
                path: str = path, body: dict[str, Any] = body, headers: dict[str, str] = headers
            ) -> _MonkeyPatchedWSGIResponse:
                return client.post(
                    path, body, content_type="application/json", secure=True, headers=headers
                )

            if n % 2:  # every other move counted, the others timed
                with count_queries() as queries:
                    response = post()
                if queries.calls > max(query_counts, default=-1):
                    dearest_sql = queries.sql
                query_counts.append(queries.calls)
            else:
                t = time.perf_counter()
                response = post()
                elapsed = time.perf_counter() - t
                if n >= 2:  # the first ones load the API's modules
                    times.append(elapsed)
            if response.status_code != 201:
                raise CommandError(
                    f"an API move answered {response.status_code}: {response.content[:500]!r}"
                )
        summary = summary_of(times, queries=max(query_counts, default=0), kb=0.0)
        # The queries of the dearest move counted, and how many moves made each count.
        summary["sql"] = dearest_sql
        summary["query_counts"] = {n: query_counts.count(n) for n in sorted(set(query_counts))}
        return summary

    def profile(self, client: Client, path: str) -> dict[str, Any]:
        """Where a fresh board's time goes: the functions with the most time of their own,
        and the translation lookups."""
        lookups = count_translations()
        with override_settings(PAGE_CACHE_SECONDS=0):
            client.get(path, secure=True)
            profiler = cProfile.Profile()
            with lookups:
                profiler.enable()
                client.get(path, secure=True)
                profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(15)
        # And the site's own functions by their whole time (what they call included).
        stats.sort_stats("cumulative").print_stats(r"/(games|accounts|guildhall_site)/", 30)
        return {"translation_lookups": lookups.calls, "top": out.getvalue()}

    # -------------------------------------------------------------------------------------

    def report(self, summary: dict[str, Any]) -> None:
        s = summary["settings"]
        self.stdout.write(
            f"\nIn one process, one request at a time, {s['repeat']} requests per row; "
            f"{s['database']}, Python {s['python']}, Django {s['django']}, language "
            f"{s['language']}, load average {s['load_average']:.2f}"
        )
        for kind_id, result in summary["games"].items():
            self.stdout.write(f"\n{kind_id}, a 4-player game at move {result['moves']}:")
            self.stdout.write(
                f"{'':28} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'queries':>8} {'KB':>6}"
                f" {'cpu p50':>8}"
            )
            for name, r in result["rows"].items():
                kb = f"{r['kb']:6.1f}" if r["kb"] else f"{'':6}"
                queries = f"{r['queries']:8d}" if r["queries"] is not None else f"{'':8}"
                cpu = f"{r['cpu_p50']:8.2f}" if r.get("cpu_p50") is not None else ""
                self.stdout.write(
                    f"{name:28} {r['p50']:7.2f} {r['p90']:7.2f} {r['p99']:7.2f} {queries} {kb}"
                    f" {cpu}"
                )
            if self.show_sql:
                api = result["rows"]["API move"]
                counts = ", ".join(f"{n} queries: {k}" for n, k in api["query_counts"].items())
                self.stdout.write(f"\nThe queries of the dearest API move ({counts} moves):")
                for sql in api["sql"]:
                    self.stdout.write(f"  {sql[:300]}")
            if "profile" in result:
                p = result["profile"]
                self.stdout.write(
                    f"\nA fresh board: {p['translation_lookups']} translation lookups"
                )
                self.stdout.write(p["top"])


def add_finished_games(like: Game, n: int, crowd: int = 1000, per_batch: int = 5000) -> None:
    """``n`` finished games of ``like``'s kind, 2 seats each, among ``crowd`` other players
    (with ``like``'s first 10 records each), written in bulk: the tables as a busy site's,
    the pages' own games unchanged."""
    players = bench_data.make_users(crowd, prefix="bench-crowd")
    rand = random.Random(n)
    moves = list(like.moves.order_by("number")[:10])
    now = timezone.now()
    for start in range(0, n, per_batch):
        count = min(per_batch, n - start)
        games = Game.objects.bulk_create(
            Game(
                kind=like.kind,
                options=like.options,
                names=like.names[:2],
                seed=rand.getrandbits(62),
                status=Game.Status.FINISHED,
                version=len(moves),
                snapshot=like.snapshot,
                rules=like.rules,
                finished=now,
                rated=True,
            )
            for _ in range(count)
        )
        Seat.objects.bulk_create(
            Seat(game=g, user=u, number=i, rank=i + 1, score=10 - i)
            for g in games
            for i, u in enumerate(rand.sample(players, 2))
        )
        Move.objects.bulk_create(
            Move(
                game=g,
                number=m.number,
                seat=m.seat % 2,
                action=m.action,
                events=m.events,
                automatic=m.automatic,
            )
            for g in games
            for m in moves
        )
    settle_tables()


def settle_tables() -> None:
    """Vacuum and analyse the tables just filled, as autovacuum keeps a live site's: right
    after a bulk insert the daemon's own run competes with the timed requests. Only the
    benchmark's scratch database is there; inside a transaction (tests) PostgreSQL can
    only analyse (as ``bench_timeouts`` does)."""
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if vacuum else "ANALYZE")


def summary_of(
    times: list[float], *, queries: int | None, kb: float, cpu: list[float] | None = None
) -> dict[str, Any]:
    ms = [t * 1000 for t in times] or [0.0]
    return {
        "p50": round(statistics.median(ms), 2),
        # This thread's processor time (the request's own work, without the database's and
        # without the waits for a processor that other programs cause): steadier than the
        # wall time on a shared machine.
        "cpu_p50": round(statistics.median(cpu) * 1000, 2) if cpu else None,
        "p90": round(percentile(ms, 90), 2),
        "p99": round(percentile(ms, 99), 2),
        "n": len(times),
        "queries": queries,
        "kb": round(kb, 1),
    }


def bench_settings() -> override_settings:
    """The site as production runs it (DEBUG off), plus the bare view's URL and template and
    the API's throttles counting but never refusing."""
    return override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF="guildhall_site.bench_urls",
        TEMPLATES=bench_templates(),
        API_THROTTLE_RATES=relaxed_throttles(),
    )


def bench_templates() -> list[dict[str, Any]]:
    """The site's templates plus the bare view's folder (as ``bench_settings``)."""
    import copy

    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [
        *templates[0]["DIRS"],
        settings.BASE_DIR / "guildhall_site" / "bench_templates",
    ]
    return templates


def relaxed_throttles() -> dict[str, Any]:
    """The API's throttles counting but never refusing (moves come faster than a person's)."""
    return {k: "1000000/minute" for k in settings.API_THROTTLE_RATES}


class count_translations:
    """Counts the calls of Django's gettext functions while it is entered."""

    NAMES = ("gettext", "ngettext", "pgettext", "npgettext")

    def __init__(self) -> None:
        self.calls = 0
        self.saved: dict[str, Callable[..., str]] = {}

    def __enter__(self) -> Self:
        trans = translation._trans  # type: ignore[attr-defined]  # (private: not in the stubs)
        for name in self.NAMES:
            original = getattr(trans, name)
            self.saved[name] = original

            def counted(*args: Any, _original: Callable[..., str] = original, **kwargs: Any) -> str:
                self.calls += 1
                return _original(*args, **kwargs)

            setattr(trans, name, counted)
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self.saved.items():
            setattr(translation._trans, name, original)  # type: ignore[attr-defined]


class count_queries:
    """Counts the queries made on the default connection while it is entered (the test
    client's requests reset ``connection.queries``, so they are counted as they run)."""

    def __init__(self) -> None:
        self.calls = 0
        self.sql: list[str] = []

    def __call__(
        self,
        execute: Callable[..., object],
        sql: str,
        params: object,
        many: bool,
        context: dict[str, Any],
    ) -> object:
        self.calls += 1
        self.sql.append(sql)
        return execute(sql, params, many, context)

    def __enter__(self) -> Self:
        self.wrapper = connection.execute_wrapper(self)
        self.wrapper.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.wrapper.__exit__(*exc)
