"""The ASGI application: the events process (uvicorn, docs/Procfile) serves the event stream
with it (games/api/stream.py)."""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

from guildhall_site.ops.access_log import AccessLog
from guildhall_site.ops.heartbeat import EventsLifespan
from guildhall_site.ops.logging import adopt_uvicorn_loggers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guildhall_site.settings")

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Requests admitted at once: each reads the database (its token or session, the game) in a
# thread of its own until its answer starts, so that a thousand listeners coming back at
# once (after a deploy, a Redis restart) never open a thousand database connections.
ADMITTING = 8


class AdmitFew:
    """At most ``limit`` requests before their answer starts; a stream counts only until
    its headers are sent, then it waits without holding anything."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit
        self._gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._gates = weakref.WeakKeyDictionary()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(self.limit)
        await gate.acquire()
        admitted = True

        async def sending(message: Message) -> None:
            nonlocal admitted
            if admitted and message["type"] == "http.response.start":
                admitted = False
                gate.release()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if admitted:
                gate.release()


django_application = get_asgi_application()
# uvicorn's lines as the site's (JSON when LOG_FORMAT=json): guildhall_site/ops/logging.py.
adopt_uvicorn_loggers(settings.LOG_FORMAT)

# The events process's heartbeat (ASGI lifespan: guildhall_site/ops/heartbeat.py), and one
# access-log line per request, with its fields (guildhall_site/ops/access_log.py).
application = EventsLifespan(AccessLog(AdmitFew(django_application, ADMITTING)))
