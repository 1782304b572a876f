"""Health probes for a load balancer or an orchestrator, and the door they come in by.

- ``/healthz``: the process answers (liveness). Touches nothing else: a database outage must
  not make an orchestrator restart every web process.
- ``/readyz``: this process can serve (readiness): the database answers and every migration
  of the code is applied, the cache's Redis and the Celery broker answer. 200 when all are
  up, else 503 naming each part and whether it is ``ok`` or ``down`` (or ``unapplied``); never
  an address, a password or an error text (they go to the log).
- ``/readyz?deep=1``: the same, and each kind of background process (each Celery lane's
  worker, beat and its tick, the events process) by its heartbeat: ``ok``, ``stale`` or
  ``missing`` (``guildhall_site.ops.heartbeat``). For a monitor, not the load balancer.

Both are cheap and quick: each check has a timeout of ``READY_TIMEOUT`` seconds (a part that
does not answer in time is down), and they are answered with ``Cache-Control: no-store``.

``ProbesMiddleware``, first in settings.MIDDLEWARE after the request id, answers these paths
(and ``/metrics``) before any other middleware runs: no HTTPS redirect (a load balancer probes
over plain HTTP), no session, login, language or page cache, and no ``ALLOWED_HOSTS`` check,
since nothing in their answers is built from the Host header (a balancer probes by address).
Everything else goes on to the site as before.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Literal

import redis
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)

# Seconds each check may take.
READY_TIMEOUT = 2.0

State = Literal["ok", "down", "unapplied", "stale", "missing"]


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    if request.GET.get("deep") in ("1", "true"):
        # The deep check (a monitor's, not the load balancer's: a dead worker must not take
        # the web out of service): every kind of process beat lately (ops/heartbeat.py).
        checks.update(heartbeats())
    ready = all(state == "ok" for state in checks.values())
    response = JsonResponse(
        {"status": "ready" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
    # Not logged again as an error by Django at every probe of an outage (nor sent to
    # Sentry): the checks logged what is down.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def run_checks() -> dict[str, State]:
    """Every check, at once (each in a thread, with its timeout): the slowest one bounds the
    answer, not their sum."""
    checks: dict[str, Callable[[], State]] = {"database": _database}
    names: dict[str, list[str]] = {"database": ["database"]}
    # A server that is both the cache and the broker is asked once, for both.
    for url, parts in redis_servers().items():
        checks[parts[0]] = functools.partial(_redis, url)
        names[parts[0]] = parts
    results: dict[str, State] = {}
    pool = ThreadPoolExecutor(max_workers=len(checks), thread_name_prefix="readyz")
    try:
        futures = {name: pool.submit(_guarded, name, check) for name, check in checks.items()}
        deadline = time.monotonic() + READY_TIMEOUT + 0.5
        for name, future in futures.items():
            try:
                state = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                log.warning("readyz: %s did not answer within %ss", name, READY_TIMEOUT)
                state = "down"
            for part in names[name]:
                results[part] = state
    finally:
        # A hung check is left to its own timeout, not waited for.
        pool.shutdown(wait=False)
    return results


def _guarded(name: str, check: Callable[[], State]) -> State:
    try:
        return check()
    except Exception as error:  # any failure of a part is "down"; what failed goes to the log
        log.warning("readyz: %s is down: %s: %s", name, type(error).__name__, error)
        return "down"


def redis_servers() -> dict[str, list[str]]:
    """The Redis servers the site depends on, each with the parts it serves: the cache, the
    pages' cache (``cache_pages``) and the Celery broker, when they are Redis."""
    servers: dict[str, list[str]] = {}
    for alias, cache in settings.CACHES.items():
        if "redis" in str(cache["BACKEND"]).lower():
            name = "cache" if alias == "default" else f"cache_{alias}"
            servers.setdefault(str(cache["LOCATION"]), []).append(name)
    broker = settings.CELERY_BROKER_URL
    if not settings.CELERY_TASK_ALWAYS_EAGER and broker.startswith(("redis://", "rediss://")):
        servers.setdefault(broker, []).append("broker")
    return servers


@functools.cache
def _client(url: str) -> redis.Redis:
    # One client (and its connection pool) per server and process, with short timeouts.
    return redis.Redis.from_url(
        url, socket_connect_timeout=READY_TIMEOUT, socket_timeout=READY_TIMEOUT
    )


def _redis(url: str) -> State:
    return "ok" if _client(url).ping() else "down"


def _database() -> State:
    # Runs in the check's own thread, which has its own connection: closed when done, so that
    # probes leave no connection behind.
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET statement_timeout = %s", [int(READY_TIMEOUT * 1000)])
            cursor.execute("SELECT 1")
        return "ok" if migrations_applied() else "unapplied"
    finally:
        connection.close()


@functools.cache
def _expected_migrations() -> frozenset[tuple[str, str]]:
    """The migrations of the running code, read from disk once per process. (A squashed
    migration would need its replaced ones accepted too; the site has none.)"""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return frozenset(loader.graph.nodes)


def migrations_applied() -> bool:
    """Every migration of this code is applied (one query): a new version's web process is
    not ready before ``migrate`` has run (docs/deploy.md, upgrades)."""
    applied = MigrationRecorder(connection).applied_migrations()
    return _expected_migrations() <= applied.keys()


def heartbeats() -> dict[str, State]:
    """Each kind of background process: ``ok``, ``stale`` or ``missing`` (all ``down`` when
    their Redis does not answer). None without Redis (nothing runs apart then)."""
    from guildhall_site.ops import heartbeat

    if not heartbeat.enabled():
        return {}
    try:
        seen = heartbeat.ages()
    except redis.RedisError as error:
        log.warning("readyz: cannot read the heartbeats: %s: %s", type(error).__name__, error)
        return dict.fromkeys(heartbeat.expected(), "down")
    found = heartbeat.states(seen)
    for kind, state in found.items():
        if state != "ok":
            log.warning("readyz: %s is %s", kind, state)
    return dict(found)


# The door ----------------------------------------------------------------------------------


def _metrics(request: HttpRequest) -> HttpResponse:
    from guildhall_site.ops.metrics import metrics_view  # prometheus_client only when asked

    return metrics_view(request)


PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": _metrics,
}


class ProbesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info)
        if probe is None or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        return probe(request)
