"""Heartbeats: every kind of background process says it is alive, in Redis, and the deep
health check (``/readyz?deep=1``), ``/metrics`` and compose's healthchecks read them.

The kinds: ``worker:<queue>`` for each Celery lane (a thread of the worker's main process,
every ``HEARTBEAT_SECONDS``), ``beat`` (each beat's tick, the standby's too) and ``beat_tick``
(the tick of the beat that holds the lock and sends the schedule), and ``events`` (a task of
the events process's event loop: a loop that hangs stops beating). Each process has a field
of its own in one Redis hash, ``<kind>|<host>:<pid>``, the time of its last beat: two workers of
one lane do not hide each other's death in one shared field, and a kind is ``ok`` while any
of its processes beat within ``HEARTBEAT_STALE_SECONDS``, ``stale`` when none did (never
seen: ``missing``). The fields of processes long gone are removed as the beats are read,
the newest of each kind kept (it tells how long ago the kind last beat).

Without ``REDIS_URL`` (development, the demo) there are no heartbeats and nothing expects them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import redis
from django.conf import settings

log = logging.getLogger(__name__)

KEY = "guildhall:heartbeats"

Beat = Literal["ok", "stale", "missing"]

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def enabled() -> bool:
    return bool(settings.REDIS_URL) and not settings.CELERY_TASK_ALWAYS_EAGER


def lanes() -> list[str]:
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return [settings.CELERY_TASK_DEFAULT_QUEUE, *sorted(routed - {"celery"})]


def expected() -> list[str]:
    """Every kind the site needs alive."""
    return [*(f"worker:{lane}" for lane in lanes()), "beat", "beat_tick", "events"]


_clients: dict[str, redis.Redis] = {}


def _client() -> redis.Redis:
    url = str(settings.REDIS_URL)
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1, retry=None
        )
    return _clients[url]


_failing = threading.Event()

SEPARATOR = "|"


def this_process() -> str:
    """The process a field stands for: ``<host>:<pid>`` (the host a container's id)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def field(kind: str) -> str:
    """This process's field for ``kind``."""
    return f"{kind}{SEPARATOR}{this_process()}"


def split(name: str) -> tuple[str, str]:
    """A field's kind and process (``""`` for a field of before processes had their own)."""
    kind, _, process = name.partition(SEPARATOR)
    return kind, process


def beat(*kinds: str) -> None:
    """Now is this process's last beat for each of ``kinds``. A Redis outage is logged once,
    not at each beat (the broker's check names it)."""
    if not enabled() or not kinds:
        return
    now = time.time()
    try:
        _client().hset(KEY, mapping={field(kind): now for kind in kinds})
    except redis.RedisError as error:
        if not _failing.is_set():
            _failing.set()
            log.warning("heartbeat: cannot reach Redis: %s", error)
        return
    _failing.clear()


# A process silent this many times HEARTBEAT_STALE_SECONDS is gone for good: its field is
# removed (unless it is its kind's newest).
FORGET_AFTER_STALE = 10


def process_ages() -> dict[str, dict[str, float]]:
    """Seconds since each process's last beat, by kind and process (raises RedisError).
    Removes the fields of processes long gone, keeping each kind's newest."""
    now = time.time()
    raw: dict[bytes, bytes] = _client().hgetall(KEY)  # type: ignore[assignment]
    found: dict[str, dict[str, float]] = {}
    names: dict[tuple[str, str], bytes] = {}
    for name, value in raw.items():
        kind, process = split(name.decode())
        try:
            found.setdefault(kind, {})[process] = max(0.0, now - float(value))
        except ValueError:
            continue
        names[kind, process] = name
    forget = settings.HEARTBEAT_STALE_SECONDS * FORGET_AFTER_STALE
    gone = [
        (kind, process)
        for kind, processes in found.items()
        for process, age in processes.items()
        if age > forget and age > min(processes.values())
    ]
    if gone:
        _client().hdel(KEY, *(names[key] for key in gone))
        for kind, process in gone:
            del found[kind][process]
    return found


def ages(by_process: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, float]:
    """Seconds since each kind's last beat, by any of its processes (the kinds seen; raises
    RedisError)."""
    found = process_ages() if by_process is None else by_process
    return {kind: min(processes.values()) for kind, processes in found.items() if processes}


def alive(by_process: Mapping[str, Mapping[str, float]]) -> dict[str, int]:
    """How many processes of each expected kind beat within HEARTBEAT_STALE_SECONDS."""
    stale = settings.HEARTBEAT_STALE_SECONDS
    return {
        kind: sum(1 for age in by_process.get(kind, {}).values() if age <= stale)
        for kind in expected()
    }


def states(seen: Mapping[str, float]) -> dict[str, Beat]:
    """Each expected kind's state from ``ages()``: ok while any of its processes beats."""
    stale = settings.HEARTBEAT_STALE_SECONDS
    result: dict[str, Beat] = {}
    for kind in expected():
        age = seen.get(kind)
        result[kind] = "missing" if age is None else ("ok" if age <= stale else "stale")
    return result


# Celery workers ----------------------------------------------------------------------------


def start_worker_thread(queues: list[str]) -> threading.Thread:
    """A thread of the worker's main process beating for each of its lanes."""
    kinds = [f"worker:{queue}" for queue in queues]

    def run() -> None:
        while True:
            beat(*kinds)
            time.sleep(settings.HEARTBEAT_SECONDS)

    thread = threading.Thread(target=run, name="heartbeat", daemon=True)
    thread.start()
    return thread


def connect_celery() -> None:
    from celery import signals

    def on_worker_ready(sender: Any = None, **kwargs: Any) -> None:
        if sender is None:
            return
        queues = sorted(sender.app.amqp.queues.consume_from or sender.app.amqp.queues)
        start_worker_thread(queues)

    signals.worker_ready.connect(on_worker_ready, weak=False)


# The events process ------------------------------------------------------------------------


class EventsLifespan:
    """The events process's heartbeat: a task of its event loop, started by ASGI's lifespan
    (uvicorn's startup), so that a loop that hangs stops beating. Other scopes pass on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        task: asyncio.Task[None] | None = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                task = asyncio.create_task(self._beat(), name="heartbeat")
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if task is not None:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _beat(self) -> None:
        while True:
            # In a thread: a Redis that does not answer must not hold the loop.
            await asyncio.to_thread(beat, "events")
            await asyncio.sleep(settings.HEARTBEAT_SECONDS)


# compose's healthchecks --------------------------------------------------------------------


def main(argv: list[str]) -> int:
    """``python -m guildhall_site.ops.heartbeat KIND...``: 0 if each kind beat lately, else 1
    (each stale or missing one named)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guildhall_site.settings")
    django.setup()
    try:
        found = states(ages())
    except redis.RedisError as error:
        print(f"redis: down ({type(error).__name__})")
        return 1
    bad = {kind: found.get(kind, "missing") for kind in argv if found.get(kind) != "ok"}
    for kind, state in bad.items():
        print(f"{kind}: {state}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
