"""One access-log line per request, with fields, for gunicorn (the web) and for uvicorn (the
events process): ``method``, ``path`` (query values stripped), ``status``, ``duration_ms``,
``client`` (``client_address``: the forwarded address only from a trusted proxy) and
``request_id`` (the ``X-Request-ID`` the site answered with). With ``LOG_FORMAT=json`` they
are the JSON object's fields; in plain text, one line that names them.

- gunicorn: ``AccessLogger``, its ``logger_class`` (guildhall_site/ops/gunicorn.py);
- uvicorn: ``AccessLog``, an ASGI wrapper of the events application (guildhall_site/asgi.py);
  uvicorn's own access log stays off (docs/Procfile: ``--no-access-log``): one line a request.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from guildhall_site.ops import client_address
from guildhall_site.ops.logging import strip_query_values

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PLAIN = '%(client)s "%(method)s %(path)s" %(status)s %(duration_ms)sms request_id=%(request_id)s'


def json_logs() -> bool:
    return (os.environ.get("LOG_FORMAT") or "").strip() == "json"


def fields(
    *,
    method: str,
    path: str,
    query: str,
    status: int,
    seconds: float,
    peer: str,
    forwarded_for: str | None,
    request_id: str,
) -> dict[str, Any]:
    """A request's fields, as both access logs write them."""
    target = f"{path}?{query}" if query else path
    return {
        "method": method,
        "path": strip_query_values(target),
        "status": status,
        "duration_ms": round(seconds * 1000, 1),
        "client": client_address.client(peer, forwarded_for),
        "request_id": request_id,
    }


def write(logger: logging.Logger, record: dict[str, Any]) -> None:
    """One line: the fields as JSON's, or as text."""
    if json_logs():
        logger.info("%s %s %s", record["method"], record["path"], record["status"], extra=record)
    else:
        logger.info(PLAIN, record)


# gunicorn -----------------------------------------------------------------------------------


@functools.cache
def _gunicorn_logger() -> type:
    from gunicorn.glogging import Logger

    class AccessLogger(Logger):
        """gunicorn's logger, whose access log is this module's line (the request's fields,
        query values stripped)."""

        def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
            if not self.access_log_enabled:
                return
            status = resp.status
            if isinstance(status, str):
                status = status.split(None, 1)[0]
            headers = {name.lower(): value for name, value in resp.headers or []}
            record = fields(
                method=environ.get("REQUEST_METHOD", "-"),
                path=req.path or "/",
                query=req.query or "",
                status=int(status) if str(status).isdigit() else 0,
                seconds=request_time.total_seconds(),
                peer=environ.get("REMOTE_ADDR") or "-",
                forwarded_for=environ.get("HTTP_X_FORWARDED_FOR"),
                request_id=headers.get("x-request-id", ""),
            )
            write(self.access_log, record)

    return AccessLogger


def __getattr__(name: str) -> Any:
    # gunicorn is imported only by gunicorn's configuration, never by the site's processes.
    if name == "AccessLogger":
        return _gunicorn_logger()
    raise AttributeError(name)


# uvicorn (ASGI) -----------------------------------------------------------------------------

log = logging.getLogger("guildhall_site.access")


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


class AccessLog:
    """One line per HTTP request of the wrapped application, when its answer ends (a stream's
    when it closes: its duration is the stream's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        answer: dict[str, Any] = {"status": 500, "request_id": ""}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["request_id"] = _header(message.get("headers", ()), b"x-request-id") or ""
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client")
            record = fields(
                method=scope.get("method", "-"),
                path=scope.get("path", "/"),
                query=scope.get("query_string", b"").decode("latin-1"),
                status=answer["status"],
                seconds=time.perf_counter() - start,
                peer=client[0] if client else "-",
                forwarded_for=_header(scope.get("headers", ()), b"x-forwarded-for"),
                request_id=answer["request_id"],
            )
            write(log, record)
