"""``GET /api/v1/events/``: Server-Sent Events, for browsers and apps that wait to be told.

An async view, served by the ASGI server (uvicorn, beside gunicorn: docs/deploy.md), where a
listener holds no worker: it waits in Redis (XREAD BLOCK on a stream of ``games.reads.live``)
for the next entry. Each entry is one event (``id:`` the entry's id, ``event:`` its kind,
``data:`` its JSON); ``Last-Event-ID`` (sent by EventSource when it reconnects by itself)
resumes after the entry it names. Without ``?game=`` the stream is the user's own (``turn``,
``game``, ``chat`` of their games); with ``?game=<id>`` that game's, as its boards follow it
(anyone may read a game; its chat's events only when the chat is not for its players alone).

Served by a WSGI worker (gunicorn), the view answers at once with what is there and ends
the stream, which EventSource opens again after the board's poll interval: a poll, holding
no worker. Without Redis there is no stream (404): clients poll.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework import exceptions

from accounts.tokens import TokenAuthentication
from games.api.common import error
from games.models import Game
from games.reads import live
from guildhall_site import parsing
from guildhall_site.rest import ApiThrottle, page_limit

# A stream ends after this (EventSource reconnects at once, with Last-Event-ID): a deploy
# or a token revoked is noticed within it.
LIFETIME = 600.0
KEEPALIVE_MS = 15_000
RETRY_MS = 2_000
POLL_MS = 3_000  # the board's poll
_ENTRY_ID = re.compile(r"\d{1,20}-\d{1,20}")


async def _user(request: HttpRequest):
    """The token's user, else the session's; None for nobody (AuthenticationFailed for a
    bad token)."""
    found = await sync_to_async(TokenAuthentication().authenticate)(request)
    if found is not None:
        return found[0]
    user = await request.auser()
    return user if user.is_authenticated else None


async def events(request: HttpRequest) -> HttpResponseBase:
    if request.method != "GET":
        response = error("method_not_allowed", _("Only GET is allowed here."), 405)
        response["Allow"] = "GET"
        return response
    try:
        user = await _user(request)
    except exceptions.AuthenticationFailed as failure:
        return error("authentication_failed", str(failure.detail), 401)
    if user is None:
        message = _("Authentication credentials were not provided.")
        return error("not_authenticated", message, 401)
    request.user = user  # (the token's, for the throttle)
    limited = await sync_to_async(page_limit)(request, ApiThrottle())
    if limited is not None:
        seconds, message = limited
        response = error("throttled", message, 429, retry_after=seconds)
        response["Retry-After"] = str(seconds)
        return response
    sent = request.headers.get("Last-Event-ID")  # (an empty one is a bad one)
    last = sent or ""
    if sent is not None and not _ENTRY_ID.fullmatch(sent):
        return error("invalid", _("Last-Event-ID is not an event's id."), 400, fields={})
    key, chat = live.user_stream(user.pk), True
    if "game" in request.GET:
        game_id = parsing.whole_number(request.GET["game"])
        game = None
        if game_id is not None:
            game = await Game.objects.filter(pk=game_id).values("chat_players_only").afirst()
        if game_id is None or game is None:
            return error("not_found", _("No such game"), 404)
        key, chat = live.game_stream(game_id), not game["chat_players_only"]
    if not live.enabled():
        return error("not_found", _("This site has no event stream: poll instead."), 404)
    if isinstance(request, ASGIRequest):
        last = last or await _newest(key)
        body: Any = _stream(key, last, chat)
    else:
        # A WSGI worker (gunicorn) is never held: what is there now, then the stream ends
        # and EventSource comes back after the poll's interval, as a poll would.
        body = _short_stream(key, last, chat)
    stream = StreamingHttpResponse(body, content_type="text/event-stream")
    stream["Cache-Control"] = "no-store"
    stream["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return stream


def _client(kind):
    # (redis-py's types of stream replies are too loose to be of use: Any.)
    client: Any = kind.from_url(str(settings.REDIS_URL), decode_responses=True)
    return client


async def _newest(key: str) -> str:
    """The id of the stream's newest entry: a new listener hears what comes after it."""
    client = _client(redis.asyncio.Redis)
    try:
        newest = await client.xrevrange(key, count=1)
    finally:
        await client.aclose()
    return newest[0][0] if newest else "0-0"


def _events(entries, chat: bool):
    """The text of each entry as an event, and the id of the last one read."""
    for entry_id, fields in entries:
        data = json.loads(fields["data"])
        if data["event"] == "chat" and not chat:
            yield entry_id, ""
        else:
            yield entry_id, f"id: {entry_id}\nevent: {data['event']}\ndata: {json.dumps(data)}\n\n"


async def _stream(key: str, last: str, chat: bool):
    client = _client(redis.asyncio.Redis)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        ends = time.monotonic() + LIFETIME
        while time.monotonic() < ends:
            found = await client.xread({key: last}, block=KEEPALIVE_MS, count=100)
            if not found:
                yield ": still here\n\n"
                continue
            for entry_id, text in _events(found[0][1], chat):
                last = entry_id
                if text:
                    yield text
    finally:
        await client.aclose()


def _short_stream(key: str, last: str, chat: bool):
    client = _client(redis.Redis)
    try:
        yield f"retry: {POLL_MS}\n\n"
        if last:
            found = client.xread({key: last}, count=100)
            for _last, text in _events(found[0][1] if found else [], chat):
                if text:
                    yield text
        else:  # where to resume from, next time
            newest = client.xrevrange(key, count=1)
            yield f"id: {newest[0][0] if newest else '0-0'}\n\n"
    finally:
        client.close()


def add_schema(result, generator, request, public):
    """drf-spectacular postprocessing hook: the stream (a plain Django view) in the schema."""
    error_ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
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
                "`chat`: a line was written) and JSON `data`: `event`, `game`, `version`, "
                "`status` (`line` for chat). Nothing else: read the game. A comment line "
                "every 15 s keeps the connection open; the stream ends after 10 minutes "
                "(EventSource reconnects by itself)."
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
                "200": {
                    "description": "The stream.",
                    "content": {
                        "text/event-stream": {"schema": {"type": "string", "format": "binary"}}
                    },
                },
                "400": {"description": "A bad Last-Event-ID.", "content": error_ref},
                "429": {
                    "description": "Too many requests (each connection counts as one).",
                    "content": error_ref,
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                },
                "401": {"description": "No token or session.", "content": error_ref},
                "404": {
                    "description": "No such game, or no stream on this site: poll.",
                    "content": error_ref,
                },
            },
            "security": [{"bearerAuth": []}, {"tokenAuth": []}, {"cookieAuth": []}],
        }
    }
    return result
