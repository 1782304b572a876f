"""What the event stream (``GET /api/v1/events/``) tells its listeners, kept in Redis streams.

After the commit of a change to a game (``games.play.events.turn``, which every change of a
game goes through) and of a line of its chat, an entry is added (XADD) to the stream of the
game, read by its boards, and to the stream of each of its players: ``turn`` to those the
game now waits for, ``game`` to the others, ``chat`` for a line. An entry names the game,
its version and (for a line) the line's id, never what changed: the listener reads the game
as it may see it. Each stream keeps its latest ``MAXLEN`` entries, so a listener that comes
back with ``Last-Event-ID`` (the entry's id) hears what it missed. The same pipeline
publishes the keys it added to on ``wake_channel``: an events process holds one subscription
to it and wakes the listeners of those keys (``games.api.listeners``), so that no listener
waits in Redis.

Without ``REDIS_URL`` (development without Redis) nothing is published and the stream is
not offered: the board polls as before. A Redis that fails is logged and left alone for a
few seconds: the change stands, and the boards' polls still find it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from functools import cache
from typing import Any

import redis
from django.conf import settings

from games.models import ChatLine, Game, Seat

log = logging.getLogger(__name__)
MAXLEN = 500


def wake_channel(url: str) -> str:
    """The channel on which each change names the streams it added to (space-separated
    keys). Pub/sub channels are the whole server's, not a database's: the database's number
    keeps two sites (or two test processes) on one Redis apart."""
    return f"live:wake:{redis.connection.parse_url(url).get('db', 0)}"


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def user_stream(user_id: int) -> str:
    return f"live:user:{user_id}"


def game_stream(game_id: int) -> str:
    return f"live:game:{game_id}"


# A Redis that cannot be reached is left alone this long (one warning per outage), so that no
# request waits for its time-out at every commit: the boards' polls carry on meanwhile.
RETRY_AFTER = 5.0
_down_until = 0.0


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=0.5)


# A word on the wake channel beside the stream keys: the listeners of this user (on any
# stream) end at once, as a suspension asks (``user_closed``).
CLOSED_PREFIX = "closed:"


def _add(entries: list[tuple[str, dict[str, Any]]], also: tuple[str, ...] = ()) -> None:
    global _down_until
    if not entries or time.monotonic() < _down_until:
        return
    url = str(settings.REDIS_URL)
    pipe = _client(url).pipeline(transaction=False)
    for key, data in entries:
        pipe.xadd(key, {"data": json.dumps(data)}, maxlen=MAXLEN, approximate=True)
    words = [*dict.fromkeys(key for key, _data in entries), *also]
    pipe.publish(wake_channel(url), " ".join(words))
    try:
        pipe.execute()
    except redis.RedisError as failure:
        _down_until = time.monotonic() + RETRY_AFTER
        log.warning("the event stream's Redis failed (%s): not told for %ss", failure, RETRY_AFTER)


# What a change publishes: the game's version and status, and each seat's user, whether it
# decides now and its computer level ("": a person).
Changed = tuple[int, str, list[tuple[int, bool, str]]]


def changed_as(game: Game, seats: Iterable[Seat]) -> Changed:
    """What ``game`` and its ``seats`` (every seat, as the change wrote them) publish."""
    return game.version, game.status, [(s.user_id, s.deciding, s.computer_level) for s in seats]


def game_changed(game_id: int, known: Changed | None = None) -> None:
    """After the commit of a change to the game: ``known`` as the change wrote it (a move:
    no query), else read."""
    if not enabled():
        return
    if known is None:
        rows = list(
            Seat.objects.filter(game_id=game_id).values_list(
                "user_id", "deciding", "computer_level", "game__version", "game__status"
            )
        )
        if not rows:
            return
        known = rows[0][3], rows[0][4], [(u, d, c) for u, d, c, *_ in rows]
    version, status, seats = known
    active = status in Game.ACTIVE
    entry = {"game": game_id, "version": version, "status": status}
    out = [(game_stream(game_id), {"event": "game", **entry})]
    for user_id, deciding, computer in seats:
        if not computer:
            kind = "turn" if deciding and active else "game"
            out.append((user_stream(user_id), {"event": kind, **entry}))
    _add(out)


def chat_written(game_id: int) -> None:
    """After the commit of a line in the game's chat."""
    if not enabled():
        return
    line = ChatLine.objects.filter(game_id=game_id).order_by("-id").values("id", "author_id")
    newest = line.first()
    game = Game.objects.filter(pk=game_id).values("version", "chat_players_only").first()
    if newest is None or game is None:
        return
    entry = {"event": "chat", "game": game_id, "version": game["version"], "line": newest["id"]}
    out = [] if game["chat_players_only"] else [(game_stream(game_id), entry)]
    users = Seat.objects.filter(game_id=game_id, computer_level="").values_list(
        "user_id", flat=True
    )
    out += [(user_stream(u), entry) for u in users if u != newest["author_id"]]
    _add(out)


def user_closed(user_id: int) -> None:
    """After the commit that suspended ``user_id``: every stream they listen to ends now (a
    ``closed`` entry in their own stream, kept for a listener that reconnects before its
    token is refused, and a word to every events process for their boards' streams)."""
    if not enabled():
        return
    _add(
        [(user_stream(user_id), {"event": "closed", "user": user_id})],
        also=(f"{CLOSED_PREFIX}{user_id}",),
    )
