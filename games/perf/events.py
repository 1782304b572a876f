"""The events process as production runs it (docs/Procfile's ``events`` command: uvicorn)
and a plain listener of its streams, for ``manage.py bench_events`` and the tests of
``games.api.stream`` that hold streams open for real.

The listener speaks HTTP/1.1 over asyncio's streams, chunk by chunk, and notes when each
event and each keep-alive comment arrived: 1,000 of them cost a bench little more than
their sockets.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from games.perf.server import ProcfileProcess, free_port

T = TypeVar("T")


class EventsProcess(ProcfileProcess):
    """docs/Procfile's ``events`` command (uvicorn) on a free port, with ``env``; its output
    in ``log``. Started on entering (once it listens), stopped on leaving."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        port = free_port()
        super().__init__("events", {**env, "EVENTS_PORT": str(port)}, log, port=port)


@dataclass
class Listener:
    """One open stream: its status, headers, events and keep-alives with their times."""

    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    events: list[tuple[float, dict[str, object]]] = field(default_factory=list)
    keepalives: list[float] = field(default_factory=list)
    opened: float = 0.0
    ended: float | None = None  # the server ended the stream (its last chunk came)
    body: str = ""
    last_id: str | None = None  # the id of the last event, for Last-Event-ID

    def seen(self, event: str | None, **data: object) -> float | None:
        """When the first event ``event`` (None: of any kind) whose data has ``data``
        arrived."""
        for at, found in self.events:
            if event not in (None, found.get("event")):
                continue
            if all(found.get(k) == v for k, v in data.items()):
                return at
        return None


async def listen(port: int, path: str, headers: dict[str, str], listener: Listener) -> None:
    """GET ``path`` and read its stream into ``listener`` until the server ends it (or the
    task is cancelled)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        listener.opened = time.monotonic()
        status_line = (await reader.readline()).decode()
        listener.status = int(status_line.split()[1])
        while (line := (await reader.readline()).decode().rstrip("\r\n")) != "":
            name, _, value = line.partition(":")
            listener.headers[name.strip().lower()] = value.strip()
        if listener.headers.get("transfer-encoding") != "chunked":
            size = int(listener.headers.get("content-length", "0"))
            listener.body = (await reader.readexactly(size)).decode() if size else ""
            listener.ended = time.monotonic()
            return
        pending = ""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                listener.ended = time.monotonic()
                return
            chunk = (await reader.readexactly(size + 2))[:-2].decode()
            listener.body += chunk
            pending += chunk
            *blocks, pending = pending.split("\n\n")
            now = time.monotonic()
            for block in blocks:
                _read_block(block, now, listener)
    finally:
        writer.close()


def _read_block(block: str, now: float, listener: Listener) -> None:
    if block.startswith(":"):
        listener.keepalives.append(now)
        return
    for line in block.splitlines():
        if line.startswith("id: "):
            listener.last_id = line[len("id: ") :]
        elif line.startswith("data: "):
            listener.events.append((now, json.loads(line[len("data: ") :])))


class Loop:
    """An event loop in a thread of its own, where listeners read, while the caller's
    thread makes moves in its own database connection."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks: list[concurrent.futures.Future[None]] = []

    def open(self, port: int, path: str, headers: dict[str, str], count: int = 1) -> list[Listener]:
        """``count`` new listeners of ``path`` (each its own connection)."""
        out = [Listener() for _ in range(count)]
        for listener in out:
            self.tasks.append(
                asyncio.run_coroutine_threadsafe(listen(port, path, headers, listener), self.loop)
            )
        return out

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        time.sleep(0.2)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
