"""``GET /api/v1/events/``: Server-Sent Events, for browsers and apps that wait to be told.

An async view, served by the ASGI server (uvicorn, beside gunicorn: docs/deploy.md), where a
listener holds no worker, no database connection and no Redis connection of its own: it
waits on its process's ``games.api.listeners.Hub`` for a change of its stream (a Redis
stream of ``games.reads.live``), then reads what is new. Each entry is one event (``id:``
the entry's id, ``event:`` its kind, ``data:`` its JSON); ``Last-Event-ID`` (sent by
EventSource when it reconnects by itself) resumes after the entry it names. Without
``?game=`` the stream is the user's own (``turn``, ``game``, ``chat`` of their games); with
``?game=<id>`` that game's, as its boards follow it (anyone may read a game; its chat's
events only when the chat is not for its players alone).

Served by a WSGI worker (gunicorn), the view answers at once with what is there and ends
the stream, which EventSource opens again after the board's poll interval: a poll, holding
no worker. Without Redis there is no stream (404); with a Redis that cannot be reached now,
503 and Retry-After: clients poll meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import redis
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework import exceptions

from accounts.tokens import TokenAuthentication
from games.api.common import error
from games.api.listeners import READ_COUNT, Entries, RedisAway, hub
from games.models import Game
from games.reads import live
from guildhall_site import parsing
from guildhall_site.rest import RATE_LIMIT_HEADERS, ApiThrottle, page_limit, rate_limit

RETRY_MS = 2_000
POLL_MS = 3_000  # the board's poll
# A client told the stream's Redis is away comes back after this (seconds).
AWAY_RETRY = 30
_ENTRY_ID = re.compile(r"\d{1,20}-\d{1,20}")
# The stream's events, for the schema and the docs: (name, what it says).
EVENTS = (
    ("turn", "a game of mine now waits for me (my stream only)"),
    ("game", "a game changed: a move, its end (my stream: one where I do not decide now)"),
    ("chat", "a line was written in the game's chat (`line`: its id)"),
)


@dataclass(frozen=True)
class Admitted:
    """A request let in: the stream it reads, whether chat events are for it, where it
    resumes (None: from now), and its rate-limit headers."""

    key: str
    user_id: int
    chat: bool
    last: str | None
    headers: dict[str, str]


async def events(request: HttpRequest) -> HttpResponseBase:
    admitted = await sync_to_async(_admit)(request)
    if not isinstance(admitted, Admitted):
        return admitted
    if not live.enabled():
        return error("not_found", _("This site has no event stream: poll instead."), 404)
    if isinstance(request, ASGIRequest):
        try:
            listeners = hub(str(settings.REDIS_URL))
            last = admitted.last or await listeners.newest(admitted.key)
        except RedisAway:
            return _away()
        body: Any = _stream(admitted, last)
    else:
        # A WSGI worker (gunicorn) is never held: what is there now, then the stream ends
        # and EventSource comes back after the poll's interval, as a poll would.
        try:
            body = _short_stream(admitted)
        except (redis.RedisError, OSError):
            return _away()
    stream = StreamingHttpResponse(body, content_type="text/event-stream")
    stream["Cache-Control"] = "no-store"
    stream["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    for name, value in admitted.headers.items():
        stream[name] = value
    return stream


def _away() -> JsonResponse:
    message = _("The event stream is not available just now: poll, and try again later.")
    response = error("unavailable", message, 503, retry_after=AWAY_RETRY)
    response["Retry-After"] = str(AWAY_RETRY)
    return response


def _admit(request: HttpRequest) -> Admitted | JsonResponse:
    """Who asks, for which stream: every database read of the request, in one thread,
    whose connections are closed after it, so that a listener holds none while it waits."""
    try:
        return _check(request)
    finally:
        _close_connections()


def _close_connections() -> None:
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:  # (a test's transaction is left alone)
            connection.close()


def _check(request: HttpRequest) -> Admitted | JsonResponse:
    if request.method != "GET":
        response = error("method_not_allowed", _("Only GET is allowed here."), 405)
        response["Allow"] = "GET"
        return response
    try:
        # (knox reads only the Authorization header, which a Django request has as well)
        found = TokenAuthentication().authenticate(request)
    except exceptions.AuthenticationFailed as failure:
        return error("authentication_failed", str(failure.detail), 401)
    user = found[0] if found is not None else request.user
    user_id = user.pk
    if not user.is_authenticated or not isinstance(user_id, int):
        message = _("Authentication credentials were not provided.")
        return error("not_authenticated", message, 401)
    request.user = user  # (the token's, for the throttle)
    throttle = ApiThrottle()
    limited = page_limit(request, throttle)
    if limited is not None:
        seconds, message = limited
        response = error("throttled", message, 429, retry_after=seconds)
        response["Retry-After"] = str(seconds)
        return response
    counted = rate_limit([throttle])
    headers = dict(zip(RATE_LIMIT_HEADERS, map(str, counted), strict=True)) if counted else {}
    sent = request.headers.get("Last-Event-ID")  # (an empty one is a bad one)
    if sent is not None and not _ENTRY_ID.fullmatch(sent):
        return error("invalid", _("Last-Event-ID is not an event's id."), 400, fields={})
    key, chat = live.user_stream(user_id), True
    if "game" in request.GET:
        game_id = parsing.whole_number(request.GET["game"])
        game = None
        if game_id is not None:
            game = Game.objects.filter(pk=game_id).values("chat_players_only").first()
        if game_id is None or game is None:
            return error("not_found", _("No such game"), 404)
        key, chat = live.game_stream(game_id), not game["chat_players_only"]
    return Admitted(key, user_id, chat, sent, headers)


def _events(entries: Entries, chat: bool) -> Iterator[tuple[str, str | None]]:
    """The text of each entry as an event ("" for one this listener is not told; None for
    the end of the stream: its user was suspended), and the entry's id."""
    for entry_id, fields in entries:
        data = json.loads(fields["data"])
        if data["event"] == "closed":
            yield entry_id, None
        elif data["event"] == "chat" and not chat:
            yield entry_id, ""
        else:
            yield entry_id, f"id: {entry_id}\nevent: {data['event']}\ndata: {json.dumps(data)}\n\n"


async def _stream(admitted: Admitted, last: str) -> AsyncIterator[str]:
    """Until its lifetime ends: what is new after ``last`` each time the stream changes,
    and a comment after each EVENTS_KEEPALIVE_SECONDS of quiet."""
    # Whatever the middleware read after the view (the session) is let go as well: the
    # request's thread is this one's (Django's ThreadSensitiveContext of the request).
    await sync_to_async(_close_connections)()
    _let_the_thread_go()
    listeners = hub(str(settings.REDIS_URL))
    yield f"retry: {RETRY_MS}\n\n"
    try:
        wake = await listeners.join(admitted.key, admitted.user_id)
    except RedisAway:
        return  # (EventSource comes back in RETRY_MS, and hears 503 while it is away)
    try:
        keepalive = float(settings.EVENTS_KEEPALIVE_SECONDS)
        ends = time.monotonic() + settings.EVENTS_LIFETIME_SECONDS
        while True:
            wake.clear()  # (before the read: a change during it wakes the next wait)
            try:
                entries = await listeners.read(admitted.key, last)
            except RedisAway:
                return
            for entry_id, text in _events(entries, admitted.chat):
                if text is None:
                    return  # suspended: told nothing more (its token is refused from now)
                last = entry_id
                if text:
                    yield text
            if wake.closed:
                return
            if len(entries) == READ_COUNT:
                continue  # more waits already
            left = ends - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(wake.wait(), min(keepalive, left))
            except TimeoutError:
                if time.monotonic() < ends:
                    yield ": still here\n\n"
    finally:
        listeners.leave(admitted.key, wake)


def _let_the_thread_go() -> None:
    """Django runs a request's sync code (middleware, the database) in a thread of the
    request's own, kept until the request ends: a thousand listeners would keep a thousand
    idle threads. The stream needs it no more; a later sync call of the request (the signal
    at its end) starts another. (asgiref's own bookkeeping, as its ThreadSensitiveContext
    does at the request's end: pinned by uv.lock, and counted by
    tests/games/api/test_stream_served.py.)"""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is not None and getattr(context, "_executor", None) is None:  # (Django's)
        executor = SyncToAsync.context_to_thread_executor.pop(context, None)
        if executor is not None:
            executor.shutdown(wait=False)


def _short_stream(admitted: Admitted) -> list[str]:
    """What is there now, read before the answer starts (a Redis that fails is a 503)."""
    client: Any = redis.Redis.from_url(
        str(settings.REDIS_URL), decode_responses=True, socket_timeout=2, socket_connect_timeout=1
    )
    try:
        out = [f"retry: {POLL_MS}\n\n"]
        if admitted.last:
            found = client.xread({admitted.key: admitted.last}, count=READ_COUNT)
            for _id, text in _events(found[0][1] if found else [], admitted.chat):
                if text is None:
                    break
                if text:
                    out.append(text)
        else:  # where to resume from, next time
            newest = client.xrevrange(admitted.key, count=1)
            out.append(f"id: {newest[0][0] if newest else '0-0'}\n\n")
        return out
    finally:
        client.close()


def add_schema(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the stream (a plain Django view) in the schema,
    with ``StreamEvent``, the JSON of each event's ``data:`` line."""
    error_ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    kinds = [name for name, _text in EVENTS]
    result.setdefault("components", {}).setdefault("schemas", {})["StreamEvent"] = {
        "type": "object",
        "description": "The `data:` of each event of `GET /api/v1/events/`: what changed, "
        "never how (read the game for that).",
        "properties": {
            "event": {
                "type": "string",
                "enum": kinds,
                "description": "\n".join(f"- `{name}`: {text}" for name, text in EVENTS),
            },
            "game": {"type": "integer", "description": "The game's id."},
            "version": {
                "type": "integer",
                "description": "The game's version (the length of its record) after the change.",
            },
            "status": {
                "type": "string",
                "description": "The game's status after the change (`game` and `turn` only).",
            },
            "line": {"type": "integer", "description": "`chat` only: the new line's id."},
        },
        "required": ["event", "game", "version"],
    }
    answer = {
        "description": "The stream: `retry:` once, then for each event three lines, `id: "
        "<entry id>` (send it back as `Last-Event-ID`), `event: <turn|game|chat>` and "
        "`data: <a StreamEvent as JSON>`, and a blank line; a comment line (`: still here`) "
        "after 15 s of quiet.",
        "content": {
            "text/event-stream": {
                "schema": {
                    "type": "string",
                    "description": "Server-Sent Events whose `data:` lines are StreamEvent "
                    "objects (`#/components/schemas/StreamEvent`).",
                }
            }
        },
    }
    result["paths"]["/api/v1/events/"] = {
        "get": {
            "operationId": "events_stream",
            "tags": ["events"],
            "summary": "Server-Sent Events: my games' turns and changes, or one game's",
            "description": (
                "A `text/event-stream` (served by the site's ASGI server; elsewhere it "
                "ends at once, with what is there, and EventSource comes back in 3 s). "
                "Each event has an `id` (send it back as `Last-Event-ID` to resume), an "
                "`event` (`turn`: a game of mine waits for me; `game`: a game changed; "
                "`chat`: a line was written) and JSON `data` (`StreamEvent`). My stream "
                "carries one event for every version of each of my games, in order, and "
                "one more at its end. A comment line every 15 s keeps the connection open; "
                "the stream ends after 10 minutes (EventSource reconnects by itself)."
            ),
            "parameters": [
                {
                    "name": "game",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1},
                    "description": "That game's events (anyone's boards) instead of mine.",
                },
                {
                    "name": "Last-Event-ID",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string", "pattern": r"^\d{1,20}-\d{1,20}$"},
                    "description": "Resume after this event.",
                },
            ],
            "responses": {
                "200": answer,
                "400": {"description": "A bad Last-Event-ID.", "content": error_ref},
                "401": {"description": "No token or session.", "content": error_ref},
                "404": {
                    "description": "No such game, or no stream on this site: poll.",
                    "content": error_ref,
                },
                "405": {"description": "Not a GET.", "content": error_ref},
                "429": {
                    "description": "Too many requests (each connection counts as one).",
                    "content": error_ref,
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                },
                "503": {
                    "description": "The stream's Redis cannot be reached now: poll, and come "
                    "back after Retry-After seconds.",
                    "content": error_ref,
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                },
            },
            "security": [{"bearerAuth": []}, {"tokenAuth": []}, {"cookieAuth": []}],
        }
    }
    return result
