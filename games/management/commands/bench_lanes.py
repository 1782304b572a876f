"""Benchmark of the task lanes and the page cache under a steady stream of moves, as
production runs them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/guildhall \\
        python manage.py bench_lanes --seconds 600 --rate 3

In a scratch database of its own (bench_<name>, created and dropped) it starts ``--games``
two-player Guildhall games between people who want an email at each turn, half of them with
a webhook to a receiver in this process, and runs the site as docs/Procfile says: gunicorn,
a worker per lane (``worker`` with ``beat``, ``notices``, ``webhooks``, ``computer``), emails
to an SMTP server in this process, two empty Redis databases (the broker's and the pages').
For ``--seconds`` it loads the board of a game's player to move and then makes their move
through the API, ``--rate`` moves a second in all (the soak the issue names: a move after
every board load). It runs twice: as it is, then with one player flooding the computer lane
(``--flood-games`` games against the strong computer, each of their moves answered at once),
and prints for each run:

- the turn emails' delay, from the move that began the wait to the email's arrival (p50,
  p90, the slowest), and their ratio between the two runs;
- the webhooks' delay likewise (the delivery of ``turn:<game>:<wait>`` from that move);
- the moves made and their answers' p50;
- the page cache's hits and misses (gunicorn's /metrics) and its hit rate;
- the memory of the keys in each Redis database (MEMORY USAGE over every key) at the start,
  its most and at the end, and how many keys.

``--runs`` chooses ``both`` (default), ``quiet`` or ``flood``; ``--json`` prints JSON.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import secrets
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from accounts.models import User
from accounts.tokens import do_create_token
from games.models import Game, Move, Seat
from games.notifications.models import Notification
from games.perf import data as bench_data
from games.perf.command import BenchCommand
from games.perf.logs import quiet_logs
from games.perf.scratch import database_url, empty_redis, percentile, scratch_database
from games.perf.server import Gunicorn, ProcfileProcess, base_env, collectstatic, free_port
from games.play import invitations
from games.play.errors import Limited
from games.webhooks.models import Delivery, Webhook

if TYPE_CHECKING:
    from aiosmtpd.smtp import Envelope
    from redis import Redis

METRICS_TOKEN = "bench-lanes-" + "m" * 20
LANE_PROCESSES = ("worker", "notices", "webhooks", "computer", "beat")


@dataclass
class Arrivals:
    """What reached this process, with when: emails by Message-ID, webhooks by delivery."""

    emails: dict[str, float] = field(default_factory=dict)
    hooks: dict[int, float] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Command(BenchCommand):
    help = "Time emails and webhooks under a stream of moves, with and without a computer flood."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=600.0, help="of moves, per run")
        parser.add_argument("--rate", type=float, default=3.0, help="moves a second")
        parser.add_argument("--games", type=int, default=30, help="games between people")
        parser.add_argument("--flood-games", type=int, default=10)
        parser.add_argument("--runs", choices=("both", "quiet", "flood"), default="both")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
        parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
        parser.add_argument("--pages-redis", default="redis://127.0.0.1:6379/12")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **o: Any) -> None:
        if o["redis"] == o["pages_redis"]:
            raise CommandError("--redis and --pages-redis must be two databases")
        self.as_json = o["json"]
        runs = ["quiet", "flood"] if o["runs"] == "both" else [o["runs"]]
        results: dict[str, Any] = {}
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # (aiosmtpd's every word)
        with quiet_logs():
            for run in runs:
                with (
                    empty_redis(o["redis"]) as broker,
                    empty_redis(o["pages_redis"]) as pages,
                    scratch_database("bench_lanes") as name,
                ):
                    self.note(f"Run '{run}': {o['seconds']:.0f} s at {o['rate']} moves a second")
                    results[run] = self.run(name, broker, pages, flood=run == "flood", o=o)
        if "quiet" in results and "flood" in results:
            quiet, flood = results["quiet"]["emails"], results["flood"]["emails"]
            results["email_p90_ratio_flood_to_quiet"] = round(
                flood["p90_s"] / quiet["p90_s"] if quiet["p90_s"] else 0.0, 2
            )
        self.output(results)

    # The site ---------------------------------------------------------------------------

    def run(
        self, database: str, broker: Redis, pages: Redis, flood: bool, o: dict[str, Any]
    ) -> dict[str, Any]:
        bench_data.tasks_to_nowhere()  # (what this process sets up queues nothing)
        secret_key = secrets.token_urlsafe(64)
        settings.SECRET_KEY = secret_key
        arrivals = Arrivals()
        rand = random.Random(o["seed"])
        with tempfile.TemporaryDirectory(prefix="bench_lanes_") as tmp:
            folder = Path(tmp)
            (smtp, smtp_port), (receiver, receiver_port) = _smtp(arrivals), _receiver(arrivals)
            web_port = free_port()
            env = base_env(
                DJANGO_SETTINGS_MODULE="guildhall_site.bench_settings",
                DEBUG="false",
                SECRET_KEY=secret_key,
                ALLOWED_HOSTS="127.0.0.1,localhost",
                SITE_URL=f"http://127.0.0.1:{web_port}",
                DATABASE_URL=database_url(database),
                TRUST_X_FORWARDED_PROTO="true",
                REDIS_URL=o["redis"],
                PAGES_REDIS_URL=o["pages_redis"],
                EMAIL_HOST="127.0.0.1",
                EMAIL_PORT=str(smtp_port),
                EMAIL_USE_TLS="false",
                WEBHOOK_ALLOW_LOOPBACK="true",
                API_THROTTLE_REQUESTS="1000000/minute",
                API_THROTTLE_ACTIONS="1000000/minute",
                BENCH_STATIC_ROOT=str(folder / "static"),
                BEAT_SCHEDULE=str(folder / "beat-schedule"),
                METRICS_ENABLED="true",
                METRICS_TOKEN=METRICS_TOKEN,
                PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
                LOG_FORMAT="plain",
                WEB_CONCURRENCY=str(o["workers"]),
            )
            (folder / "metrics").mkdir()
            people, flooder = self.build(o, receiver_port, rand)
            collectstatic(env)
            processes = [
                ProcfileProcess(name, env, folder / f"{name}.log") for name in LANE_PROCESSES
            ]
            try:
                with Gunicorn(env, web_port, o["workers"], folder) as web:
                    for process in processes:
                        process.__enter__()
                    site = Site(web_port, people, flooder)
                    figures = self.soak(site, broker, pages, flood, rand, o, processes)
                    figures["page_cache"] = _page_cache(web_port)
                    web.stop()
            finally:
                for process in processes:
                    process.stop()
                smtp.stop()
                receiver.shutdown()
        figures["emails"] = self.email_delays(arrivals)
        figures["webhooks"] = self.webhook_delays(arrivals)
        return figures

    def build(
        self, o: dict[str, Any], receiver_port: int, rand: random.Random
    ) -> tuple[dict[int, tuple[str, str | None]], tuple[User, str]]:
        """The people's games: in half of them players at their browsers, who load the board
        before each move (and get no email: they are there); in the other half players of
        an app, who move through the API alone and hear of their turns by email and webhook
        (a player seen on the board within 5 minutes gets no turn email). The flooder."""
        users = bench_data.make_users(2 * o["games"] + 1, prefix="lanes")
        *players, flooder = users
        people: dict[int, tuple[str, str | None]] = {}
        for game_index in range(o["games"]):
            pair = players[2 * game_index : 2 * game_index + 2]
            browser = game_index % 2 == 0
            for user in pair:
                row, token = do_create_token(user, "bench_lanes")
                if browser:
                    people[user.pk] = (token, bench_data.login_session(user))
                    continue
                user.turn_emails = User.TurnEmails.EACH_TURN
                user.save(update_fields=["turn_emails"])
                Webhook.objects.create(
                    user=user,
                    token=row,
                    url=f"http://127.0.0.1:{receiver_port}/hook",
                    events=["turn"],
                    secret="s" * 32,
                )
                people[user.pk] = (token, None)
            with bench_data.seeded_games(o["seed"] + game_index):
                bench_data.start_game("guildhall", pair[0], [pair[1]], move_days=3)
        flooding = (flooder, do_create_token(flooder, "flood")[1])
        return people, flooding

    # The load ---------------------------------------------------------------------------

    def soak(
        self,
        site: Site,
        broker: Redis,
        pages: Redis,
        flood: bool,
        rand: random.Random,
        o: dict[str, Any],
        processes: list[ProcfileProcess],
    ) -> dict[str, Any]:
        stop = threading.Event()
        flood_moves = [0]
        if flood:
            self.start_flood(site, o["flood_games"])
            flooding = threading.Thread(
                target=site.flood, args=(stop, flood_moves, o["flood_games"]), daemon=True
            )
            flooding.start()
        began = time.monotonic()
        interval = 1 / o["rate"]
        answers: list[float] = []
        memory = {"broker": [_memory(broker)], "pages": [_memory(pages)]}
        next_move, next_sample = began, began + 30
        while time.monotonic() - began < o["seconds"]:
            now = time.monotonic()
            if now >= next_sample:
                for process in processes:  # a lane without its worker measures nothing
                    process.check()
                memory["broker"].append(_memory(broker))
                memory["pages"].append(_memory(pages))
                next_sample += 30
                elapsed = now - began
                self.note(f"  {elapsed:.0f} s: {len(answers)} moves, pages {memory['pages'][-1]}")
            if now < next_move:
                time.sleep(min(next_move - now, 0.05))
                continue
            next_move += interval
            took = site.load_and_move(rand)
            if took is not None:
                answers.append(took)
        stop.set()
        if flood:
            flooding.join(60)
        # What is still on its way (emails, webhooks) arrives after the last move.
        time.sleep(15)
        memory["broker"].append(_memory(broker))
        memory["pages"].append(_memory(pages))
        return {
            "seconds": o["seconds"],
            "moves": len(answers),
            "moves_per_second": round(len(answers) / (time.monotonic() - 15 - began), 2),
            "move_answer_ms_p50": round(statistics.median(answers) * 1000, 1) if answers else 0,
            "flood_moves": flood_moves[0],
            "redis": {
                name: {
                    "start_kib": round(samples[0][0] / 1024),
                    "most_kib": round(max(s[0] for s in samples) / 1024),
                    "end_kib": round(samples[-1][0] / 1024),
                    "end_keys": samples[-1][1],
                }
                for name, samples in memory.items()
            },
        }

    def start_flood(self, site: Site, games: int) -> None:
        flooder, _token = site.flooder
        for _ in range(games):
            invitations.do_create_invitation(
                flooder, kind="guildhall", players=2, computers=["strong"], move_days=3
            )

    # The figures ------------------------------------------------------------------------

    def email_delays(self, arrivals: Arrivals) -> dict[str, Any]:
        """Each turn email's arrival after the move that began its wait."""
        delays = []
        for message_id, arrived in arrivals.emails.items():
            parts = message_id.strip("<>").split("@")[0].split(".")
            if len(parts) != 3 or parts[1] != Notification.Kind.TURN:
                continue
            row = Notification.objects.filter(pk=int(parts[2])).values("game_id", "turn").first()
            began = row and _move_time(row["game_id"], row["turn"])
            if began is not None:
                delays.append(arrived - began)
        return _summary(delays)

    def webhook_delays(self, arrivals: Arrivals) -> dict[str, Any]:
        delays = []
        keys = dict(Delivery.objects.filter(pk__in=arrivals.hooks).values_list("pk", "key"))
        for pk, arrived in arrivals.hooks.items():
            event, game_id, wait = keys[pk].split(":")
            began = _move_time(int(game_id), int(wait)) if event == "turn" else None
            if began is not None:
                delays.append(arrived - began)
        return _summary(delays)

    def report(self, results: dict[str, Any]) -> None:
        w = self.stdout.write
        for run in ("quiet", "flood"):
            r = results.get(run)
            if r is None:
                continue
            flood = f", and {r['flood_moves']} moves against the strong computer" * (run == "flood")
            w(
                f"Run '{run}': {r['moves']} moves in {r['seconds']:.0f} s "
                f"({r['moves_per_second']} a second; answer p50 "
                f"{r['move_answer_ms_p50']} ms){flood}"
            )
            for name in ("emails", "webhooks"):
                s = r[name]
                w(
                    f"  turn {name}: {s['count']}, delay p50 {s['p50_s']} s, p90 {s['p90_s']} s, "
                    f"slowest {s['max_s']} s"
                )
            c = r["page_cache"]
            w(
                f"  page cache: {c['hit']} hits, {c['miss']} stored, {c['first']} asked once "
                f"(not stored), {c['skip']} skipped: hit rate {c['hit_rate']}"
            )
            for name, m in r["redis"].items():
                w(
                    f"  Redis ({name}): {m['start_kib']} KiB at the start, at most "
                    f"{m['most_kib']} KiB, {m['end_kib']} KiB and {m['end_keys']} keys at the end"
                )
        if "email_p90_ratio_flood_to_quiet" in results:
            w(
                f"Turn emails' p90 with the flood / without: "
                f"{results['email_p90_ratio_flood_to_quiet']}"
            )


class Site:
    """The site as its players and the flooder reach it: through gunicorn."""

    def __init__(
        self, port: int, people: dict[int, tuple[str, str | None]], flooder: tuple[User, str]
    ) -> None:
        self.port, self.people, self.flooder = port, people, flooder

    def request(
        self, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        payload = None if body is None else json.dumps(body)
        headers = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", **headers}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, payload, headers)
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def load_and_move(self, rand: random.Random) -> float | None:
        """A person's move through the API (after loading their board, for a player at a
        browser): the answer's seconds."""
        active = Game.objects.filter(status__in=Game.ACTIVE).exclude(seats__computer_level__gt="")
        games = list(active.values_list("pk", flat=True))
        if not games:
            return None
        game = Game.objects.get(pk=rand.choice(games))
        step = bench_data.next_move(game, rand)
        if step is None:
            return None
        seat, action = step
        token, session = self.people[seat.user_id]
        if session is not None:
            cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"}
            self.request("GET", f"/games/{game.pk}/", cookie)
        began = time.monotonic()
        status, _body = self.request(
            "POST",
            f"/api/v1/games/{game.pk}/actions/",
            {"Authorization": f"Token {token}"},
            {"version": game.version, "action": action},
        )
        return time.monotonic() - began if status == 201 else None

    def flood(self, stop: threading.Event, made: list[int], games: int) -> None:
        """The flooder moves in each of their games against the computer whenever it waits
        for them, and starts another when one ends."""
        try:
            self._flood(stop, made, games)
        finally:
            connection.close()  # (its own thread's: the scratch database is dropped next)

    def _flood(self, stop: threading.Event, made: list[int], games: int) -> None:
        user, token = self.flooder
        rand = random.Random(2)
        while not stop.is_set():
            mine = Seat.objects.filter(user=user, deciding=True, game__status__in=Game.ACTIVE)
            for seat in mine.select_related("game"):
                step = bench_data.next_move(seat.game, rand)
                if step is None or step[0].user_id != user.pk:
                    continue
                status, _body = self.request(
                    "POST",
                    f"/api/v1/games/{seat.game_id}/actions/",
                    {"Authorization": f"Token {token}"},
                    {"version": seat.game.version, "action": step[1]},
                )
                made[0] += status == 201
            active = Game.objects.filter(seats__user=user, status__in=Game.ACTIVE).count()
            try:
                for _ in range(games - active):
                    invitations.do_create_invitation(
                        user, kind="guildhall", players=2, computers=["strong"], move_days=3
                    )
            except Limited:
                pass  # the site's limit of games against the computer an hour: play on
            stop.wait(0.2)


def _move_time(game_id: int, number: int) -> float | None:
    """The move ``number`` of the game, as a time.time() of this machine."""
    created = Move.objects.filter(game_id=game_id, number=number).values_list("created", flat=True)
    moment: datetime | None = created.first()
    return moment.timestamp() if moment is not None else None


def _summary(delays: list[float]) -> dict[str, Any]:
    return {
        "count": len(delays),
        "p50_s": round(percentile(delays, 0.5), 2),
        "p90_s": round(percentile(delays, 0.9), 2),
        "max_s": round(max(delays), 2) if delays else 0.0,
    }


def _memory(client: Redis) -> tuple[int, int]:
    """The bytes of every key of the Redis database, and their count."""
    total = keys = 0
    for key in client.scan_iter(count=500):
        total += client.memory_usage(key, samples=0) or 0
        keys += 1
    return total, keys


def _page_cache(port: int) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    text = connection.getresponse().read().decode()
    found: dict[str, Any] = {"hit": 0, "miss": 0, "first": 0, "skip": 0}
    for line in text.splitlines():
        if line.startswith("guildhall_page_cache_requests_total{"):
            result = line.split('result="')[1].split('"')[0]
            found[result] = found.get(result, 0) + int(float(line.rsplit(" ", 1)[1]))
    asked = found["hit"] + found["miss"] + found["first"]
    found["hit_rate"] = round(found["hit"] / asked, 3) if asked else 0.0
    return found


def _smtp(arrivals: Arrivals) -> tuple[Any, int]:
    from aiosmtpd.controller import Controller

    class Handler:
        async def handle_DATA(  # aiosmtpd's hook
            self, server: object, session: object, envelope: Envelope
        ) -> str:
            raw = cast(bytes, envelope.content)  # (aiosmtpd's default: the bytes received)
            message = message_from_bytes(raw, policy=policy.default)
            with arrivals.lock:
                arrivals.emails.setdefault(str(message["Message-ID"]), time.time())
            return "250 Message accepted for delivery"

    port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    return controller, port


def _receiver(arrivals: Arrivals) -> tuple[ThreadingHTTPServer, int]:
    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with arrivals.lock:
                delivery = int(self.headers.get("Guildhall-Delivery", "0"))
                arrivals.hooks.setdefault(delivery, time.time())
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, int(server.server_address[1])
