"""Prometheus metrics (prometheus-client), at ``/metrics`` when ``METRICS_ENABLED``.

What is counted, and who counts it (each a single call from where it happens):

- every request, by view (its URL name), method and status, and the time of the hot ones
  (the board, its poll, a move from the board or the API) as histograms:
  ``RequestMetricsMiddleware``;
- moves applied, per game kind (``games.play.change``, when a change is saved);
- time-outs applied (``games.play.timeouts``), computer moves and their think time
  (``games.play.computer_moves``), page-cache hits and misses (``games.web.page_cache``);
- notifications delivered, by channel (email, push) and outcome (sent, retry, failed...)
  (``games.notifications.delivery``), and every Celery task's outcome (Celery's signals);
- the Celery queues' lengths and the age of each one's oldest message, read from the
  broker's Redis when scraped;
- each kind of background process's heartbeat and the age of beat's last tick
  (``guildhall_site.ops.heartbeat``), read from Redis when scraped;
- games by kind and state, and players active within 15 minutes and a day, counted in the
  database when the web is scraped (``SiteCollector``).

Under gunicorn (several processes) and in Celery's prefork pool, prometheus-client's
multiprocess mode adds up what every process counted: set ``PROMETHEUS_MULTIPROC_DIR`` to a
folder of the machine (a tmpfs); each gunicorn server and each Celery worker takes a folder of
its own inside it as it starts (``use_group_dir``; docs/deploy.md). A web process serves its
server's figures at ``/metrics``; a Celery worker started with ``METRICS_PORT`` serves its
own on that port. Access: a bearer token
(``METRICS_TOKEN``) or a client address in ``METRICS_ALLOWED_NETWORKS`` that did not come
through a proxy. Labels are names and outcomes, never a user, a game's id or anything a
player chose.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from wsgiref.simple_server import make_server

import redis
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    make_wsgi_app,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

PREFIX = "guildhall"

REQUESTS = Counter(
    f"{PREFIX}_http_requests",
    "Requests answered, by view (URL name), method and status.",
    ["view", "method", "status"],
)
# The pages and calls whose speed players feel: the board, its poll, a move.
TIMED_VIEWS = frozenset(
    {"games:board", "games:board_poll", "games:board_move", "api:game", "api:actions"}
)
LATENCY = Histogram(
    f"{PREFIX}_http_request_duration_seconds",
    "Time to answer the board, its poll, and a move (board or API), by view and method.",
    ["view", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0),
)
MOVES = Counter(
    f"{PREFIX}_moves_applied",
    "Records applied to games (players' moves and the automatic ones), by game kind.",
    ["game"],
)
TIMEOUTS = Counter(
    f"{PREFIX}_timeouts_applied",
    "Waits whose time ran out and that the computer played (abandoned: the seat resigned).",
    ["game", "abandoned"],
)
COMPUTER_MOVES = Counter(
    f"{PREFIX}_computer_moves",
    "Moves made by computer players in the worker, by game kind and level.",
    ["game", "level"],
)
COMPUTER_THINK = Histogram(
    f"{PREFIX}_computer_think_seconds",
    "How long a computer player thought over one decision, by game kind and level.",
    ["game", "level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
)
PAGE_CACHE = Counter(
    f"{PREFIX}_page_cache_requests",
    "Cached pages asked for: hit (served from the cache), miss (rendered and stored), "
    "first (rendered, not stored: not asked for before), skip (rendered, not cacheable "
    "this time).",
    ["result"],
)
NOTIFICATIONS = Counter(
    f"{PREFIX}_notifications",
    "Notifications a worker handled, by channel (email, push) and outcome "
    "(sent, retry, failed, gone, skipped, deferred, done, busy).",
    ["channel", "outcome"],
)
TASKS = Counter(
    f"{PREFIX}_celery_tasks",
    "Celery tasks run, by task name and outcome (success, retry, failure).",
    ["task", "outcome"],
)
UNQUEUED = Counter(
    f"{PREFIX}_celery_tasks_unqueued",
    "Tasks not queued at a commit because the broker was away, by task name.",
    ["task"],
)


# What the site calls ------------------------------------------------------------------------


def moves_applied(game_kind: str, count: int) -> None:
    if count:
        MOVES.labels(game_kind).inc(count)


def timeout_applied(game_kind: str, *, abandoned: bool) -> None:
    TIMEOUTS.labels(game_kind, "true" if abandoned else "false").inc()


def computer_move(game_kind: str, level: str, seconds: float) -> None:
    COMPUTER_MOVES.labels(game_kind, level).inc()
    COMPUTER_THINK.labels(game_kind, level).observe(seconds)


def page_cache(result: str) -> None:
    PAGE_CACHE.labels(result).inc()


def task_unqueued(task: str) -> None:
    UNQUEUED.labels(task).inc()


def notification(channel: str, outcome: str) -> None:
    NOTIFICATIONS.labels(channel, outcome).inc()


# Requests ----------------------------------------------------------------------------------


def view_name(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None and match.view_name:
        name: str = match.view_name
        return name
    probe = request.path_info.strip("/")
    return probe if request.path_info in _PROBE_PATHS else "unresolved"


_PROBE_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - start
        view = view_name(request)
        # Any other method is counted as "other": a client must not invent label values.
        method = request.method if request.method in _METHODS else "other"
        REQUESTS.labels(view, method, str(response.status_code)).inc()
        if view in TIMED_VIEWS:
            LATENCY.labels(view, method).observe(elapsed)
        return response


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


# Celery ------------------------------------------------------------------------------------


def _task_name(sender: Any) -> str:
    return str(getattr(sender, "name", None) or "unknown")


def connect_celery() -> None:
    """Count every task's outcome (in the process that runs it), and start a worker's
    exporter (``METRICS_PORT``) in its main process."""
    from celery import signals

    def on_success(sender: Any = None, **kwargs: Any) -> None:
        TASKS.labels(_task_name(sender), "success").inc()

    def on_retry(sender: Any = None, **kwargs: Any) -> None:
        TASKS.labels(_task_name(sender), "retry").inc()

    def on_failure(sender: Any = None, **kwargs: Any) -> None:
        TASKS.labels(_task_name(sender), "failure").inc()

    def on_worker_init(**kwargs: Any) -> None:
        use_group_dir("worker")
        port = settings.METRICS_PORT
        if settings.METRICS_ENABLED and port:
            serve_worker_metrics(settings.METRICS_ADDRESS, port)

    def on_child_exit(pid: int | None = None, **kwargs: Any) -> None:
        if pid and _multiprocess_dir():
            multiprocess.mark_process_dead(pid)

    def on_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # When it was queued, for the age of the oldest waiting task (QueueCollector):
        # Celery's messages carry no time of their own.
        if headers is not None:
            headers.setdefault(QUEUED_AT, time.time())

    signals.before_task_publish.connect(on_publish, weak=False)
    signals.task_success.connect(on_success, weak=False)
    signals.task_retry.connect(on_retry, weak=False)
    signals.task_failure.connect(on_failure, weak=False)
    signals.worker_init.connect(on_worker_init, weak=False)
    signals.worker_process_shutdown.connect(on_child_exit, weak=False)


class QueueCollector(Collector):
    """The Celery queues' lengths, read from the broker's Redis at each scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        url = settings.CELERY_BROKER_URL
        if settings.CELERY_TASK_ALWAYS_EAGER or not url.startswith(("redis://", "rediss://")):
            return
        lengths = GaugeMetricFamily(
            f"{PREFIX}_celery_queue_length",
            "Messages waiting in each Celery queue (read from the broker when scraped).",
            labels=["queue"],
        )
        unacked = GaugeMetricFamily(
            f"{PREFIX}_celery_unacked_messages",
            "Messages taken by a worker and not yet acknowledged (running, or waiting for "
            "their countdown).",
        )
        up = GaugeMetricFamily(
            f"{PREFIX}_celery_broker_up", "1 if the broker answered this scrape, else 0."
        )
        oldest = GaugeMetricFamily(
            f"{PREFIX}_celery_queue_oldest_age_seconds",
            "Seconds the oldest message of each queue has waited (0 when it is empty).",
            labels=["queue"],
        )
        try:
            client = _broker(url)
            pipe = client.pipeline(transaction=False)
            queues = queue_names()
            for queue in queues:
                for name in _priority_lists(queue):
                    pipe.llen(name)
            pipe.hlen("unacked")
            for queue in queues:
                for name in _priority_lists(queue):
                    # kombu pushes on the left and takes from the right: the oldest is last.
                    pipe.lindex(name, -1)
            replies = pipe.execute()
        except redis.RedisError as error:
            log.warning("metrics: cannot read the queues from the broker: %s", error)
            up.add_metric([], 0)
            yield up
            return
        steps = len(_PRIORITY_STEPS)
        lists = len(queues) * steps
        counts, lasts = replies[: lists + 1], replies[lists + 1 :]
        now = time.time()
        for i, queue in enumerate(queues):
            lengths.add_metric([queue], sum(counts[i * steps : (i + 1) * steps]))
            times = [_queued_at(m) for m in lasts[i * steps : (i + 1) * steps] if m]
            known = [t for t in times if t is not None]
            oldest.add_metric([queue], max(0.0, now - min(known)) if known else 0.0)
        unacked.add_metric([], counts[-1])
        up.add_metric([], 1)
        yield from (lengths, unacked, oldest, up)


QUEUED_AT = "guildhall_queued_at"


def _queued_at(message: bytes) -> float | None:
    """The time a kombu message of the Redis transport was queued (our header), if any."""
    try:
        value = json.loads(message)["headers"][QUEUED_AT]
        return float(value)
    except (ValueError, KeyError, TypeError):
        return None


class HeartbeatCollector(Collector):
    """Each kind of background process's last heartbeat (guildhall_site.ops.heartbeat)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from guildhall_site.ops import heartbeat

        if not heartbeat.enabled():
            return
        try:
            by_process = heartbeat.process_ages()
        except redis.RedisError as error:
            log.warning("metrics: cannot read the heartbeats: %s", error)
            return
        seen = heartbeat.ages(by_process)
        alive = GaugeMetricFamily(
            f"{PREFIX}_process_up",
            "1 if a process of this kind beat within HEARTBEAT_STALE_SECONDS, else 0 "
            "(worker:<lane>, beat, beat_tick: the beat that sends the schedule, events).",
            labels=["process"],
        )
        ages = GaugeMetricFamily(
            f"{PREFIX}_process_heartbeat_age_seconds",
            "Seconds since a process of this kind last beat (kinds ever seen).",
            labels=["process"],
        )
        processes = GaugeMetricFamily(
            f"{PREFIX}_processes_alive",
            "Processes of this kind that beat within HEARTBEAT_STALE_SECONDS (one of two "
            "workers of a lane gone shows here while process_up stays 1).",
            labels=["process"],
        )
        for kind, state in heartbeat.states(seen).items():
            alive.add_metric([kind], 1 if state == "ok" else 0)
            if kind in seen:
                ages.add_metric([kind], seen[kind])
        for kind, count in heartbeat.alive(by_process).items():
            processes.add_metric([kind], count)
        tick = GaugeMetricFamily(
            f"{PREFIX}_beat_tick_age_seconds",
            "Seconds since the beat holding the lock last ticked (sent what was due).",
        )
        if "beat_tick" in seen:
            tick.add_metric([], seen["beat_tick"])
        yield from (alive, processes, ages, tick)


# kombu's Redis transport keeps each priority of a queue in a list of its own: "celery",
# "celery\x06\x163", ... (kombu.transport.redis, PRIORITY_STEPS and the separator).
_PRIORITY_STEPS = (0, 3, 6, 9)
_PRIORITY_SEP = "\x06\x16"


def _priority_lists(queue: str) -> list[str]:
    return [queue if step == 0 else f"{queue}{_PRIORITY_SEP}{step}" for step in _PRIORITY_STEPS]


def queue_names() -> list[str]:
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return ["celery", *sorted(routed - {"celery"})]


_brokers: dict[str, redis.Redis] = {}


def _broker(url: str) -> redis.Redis:
    if url not in _brokers:
        _brokers[url] = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    return _brokers[url]


# Exposition --------------------------------------------------------------------------------


def _multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def use_group_dir(kind: str) -> None:
    """Give this process group (a gunicorn server and its workers, a Celery worker and its
    pool) a folder of its own inside ``PROMETHEUS_MULTIPROC_DIR``, ``<kind>-<pid>``, before
    any of its processes counts, and remove the folders of groups that have ended. Several
    groups of one machine (two web servers, a worker) may then share the variable: none reads
    or clears another's files. Called by gunicorn's ``on_starting`` and Celery's
    ``worker_init``; their processes inherit the folder through the environment."""
    base = os.environ.get("PROMETHEUS_BASE_DIR") or _multiprocess_dir()
    if not base:
        return
    root = Path(base)
    root.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_BASE_DIR"] = str(root)
    for entry in root.iterdir():
        kind_, _, pid = entry.name.rpartition("-")
        if entry.is_dir() and kind_ and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
    group = root / f"{kind}-{os.getpid()}"
    if group.exists():
        shutil.rmtree(group)
    group.mkdir()
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(group)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class SiteCollector(Collector):
    """What a game site's dashboard shows, counted in the database at each scrape: games by
    kind and state, and the players active lately. Read through Django's app registry by
    model name: ops stays below the apps (it imports none of them)."""

    # Players who had a game of theirs open within each span (Seat.last_seen_at).
    ACTIVE_WITHIN = {"15m": 15 * 60, "24h": 24 * 3600}

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from datetime import timedelta

        from django.apps import apps
        from django.db import DatabaseError
        from django.db.models import Count
        from django.utils import timezone

        games = GaugeMetricFamily(
            f"{PREFIX}_games",
            "Games by game kind and state (setup, playing, finished, cancelled).",
            labels=["game", "status"],
        )
        players = GaugeMetricFamily(
            f"{PREFIX}_players_active",
            "Players who had a game of theirs open within the span (15m, 24h).",
            labels=["within"],
        )
        try:
            game_model = apps.get_model("games", "Game")
            seat_model = apps.get_model("games", "Seat")
            rows = game_model.objects.values_list("kind", "status").annotate(n=Count("id"))
            for kind, status, count in rows.order_by():
                games.add_metric([kind, status], count)
            now = timezone.now()
            for span, seconds in self.ACTIVE_WITHIN.items():
                since = now - timedelta(seconds=seconds)
                active = (
                    seat_model.objects.filter(last_seen_at__gte=since)
                    .values("user_id")
                    .distinct()
                    .count()
                )
                players.add_metric([span], active)
        except (LookupError, DatabaseError) as error:
            log.warning("metrics: cannot count the games: %s", error)
            return
        yield from (games, players)


def registry(site: bool = True) -> CollectorRegistry:
    """What a scrape reads: the process group's files in multiprocess mode, else this
    process's metrics; the queues, the heartbeats, and (``site``) the games and players."""
    if _multiprocess_dir():
        reg = CollectorRegistry()
        multiprocess.MultiProcessCollector(reg)
    else:
        reg = CollectorRegistry()
        reg.register(_Process())
    reg.register(QueueCollector())
    reg.register(HeartbeatCollector())
    if site:
        reg.register(SiteCollector())
    return reg


class _Process(Collector):
    """This process's own metrics (the default registry), inside a scrape's registry."""

    def collect(self) -> Iterable[Any]:
        return REGISTRY.collect()


def _client_ip(
    remote_addr: str, forwarded: bool
) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if forwarded:
        # Through a proxy, REMOTE_ADDR is the proxy's, whoever the client is: only the
        # token lets such a request in.
        return None
    try:
        return ipaddress.ip_address(remote_addr)
    except ValueError:
        return None


def allowed(authorization: str, remote_addr: str, forwarded: bool) -> bool:
    token = settings.METRICS_TOKEN
    if token:
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip(), token):
            return True
    ip = _client_ip(remote_addr, forwarded)
    if ip is None:
        return False
    return any(
        ip in ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED_NETWORKS
    )


def _forwarded(headers: dict[str, str] | Any) -> bool:
    return bool(headers.get("X-Forwarded-For") or headers.get("Forwarded"))


def metrics_view(request: HttpRequest) -> HttpResponse:
    refusal = None
    if not settings.METRICS_ENABLED:
        refusal = HttpResponse(_("Metrics are turned off."), status=404)
    elif not allowed(
        request.headers.get("Authorization", ""),
        request.META.get("REMOTE_ADDR", ""),
        _forwarded(request.headers),
    ):
        refusal = HttpResponse(_("Metrics need a token or an allowed address."), status=403)
    if refusal is not None:
        refusal["Content-Type"] = "text/plain; charset=utf-8"
        refusal["Cache-Control"] = "no-store"
        refusal._has_been_logged = True  # type: ignore[attr-defined]  # a scraper, not a bug
        return refusal
    response = HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response


def serve_worker_metrics(address: str, port: int) -> threading.Thread:
    """A Celery worker's /metrics on ``address:port`` (a thread of its main process), with
    the same access rules as the web's."""
    # The site's counts of games and players are the web's to serve (its database).
    exposition = make_wsgi_app(registry(site=False))

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        headers = {
            "X-Forwarded-For": environ.get("HTTP_X_FORWARDED_FOR", ""),
            "Forwarded": environ.get("HTTP_FORWARDED", ""),
        }
        if environ.get("PATH_INFO") != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        if not allowed(
            environ.get("HTTP_AUTHORIZATION", ""),
            environ.get("REMOTE_ADDR", ""),
            _forwarded(headers),
        ):
            start_response("403 Forbidden", [("Content-Type", "text/plain")])
            return [b"forbidden\n"]
        answer: Iterable[bytes] = exposition(environ, start_response)
        return answer

    from prometheus_client.exposition import ThreadingWSGIServer, _SilentHandler

    server = make_server(address, port, app, ThreadingWSGIServer, handler_class=_SilentHandler)
    thread = threading.Thread(target=server.serve_forever, name="metrics", daemon=True)
    thread.start()
    log.info("metrics: serving the worker's figures on %s:%s/metrics", address, port)
    return thread
