"""The event stream's listeners in one events process, and the one reader that wakes them.

A listener never waits in Redis. Each change publishes the keys of the streams it added to
on ``live.wake_channel`` (``games.reads.live``); the ``Hub`` of the process (one per event
loop) holds the one subscription to that channel and sets the ``asyncio.Event`` of each
listener of those keys. A woken listener reads what came after its last entry (XREAD, never
blocking), and listeners of one game that read from the same entry share one read. So the
process holds one Redis connection for the subscription and a few for reads, whatever the
number of listeners, and no Redis timeout is ever shorter than a wait.

Pub/sub tells at most once: a message lost while the subscription reconnects is made up for
by waking every listener once the subscription is back (and each listener reads again at
each keep-alive anyway).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import defaultdict
from typing import Any

import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from games.reads import live

log = logging.getLogger(__name__)

# A command (a read, the subscription) that takes longer than this fails: Redis is away.
COMMAND_TIMEOUT = 5.0
# The subscription is asked for a PONG when quiet this long; with none for three times as
# long, its connection is taken for dead (a server gone without closing it) and made again.
PING_EVERY = 10.0
# After the subscription failed, it is tried again after this.
RECONNECT_AFTER = 1.0
# Reads at the same time at most (a Redis restart wakes every listener at once).
READ_CONNECTIONS = 16
READ_COUNT = 100

Entries = list[tuple[str, dict[str, str]]]


class RedisAway(Exception):
    """The stream's Redis cannot be reached now."""


class Wake(asyncio.Event):
    """A listener's wake-up: set after each change of its stream; ``closed`` once its user
    may be told nothing more (a suspension: ``live.user_closed``)."""

    def __init__(self, user_id: int) -> None:
        super().__init__()
        self.user_id = user_id
        self.closed = False


class Hub:
    """The listeners of one process's event loop, by stream key, and their wake-ups."""

    def __init__(self, url: str) -> None:
        # (redis-py's types of stream replies are too loose to be of use: Any.) No retry
        # inside redis-py: a failure reaches the loop below, which knows what to redo.
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_timeout": COMMAND_TIMEOUT,
            "socket_connect_timeout": COMMAND_TIMEOUT,
            "retry": Retry(NoBackoff(), 0),
        }
        self._reads: Any = redis.asyncio.Redis(
            connection_pool=redis.asyncio.BlockingConnectionPool.from_url(
                url, max_connections=READ_CONNECTIONS, timeout=COMMAND_TIMEOUT, **options
            )
        )
        self._subscriber: Any = redis.asyncio.Redis.from_url(url, **options)
        self._channel = live.wake_channel(url)
        self._listeners: defaultdict[str, set[Wake]] = defaultdict(set)
        self._pending: dict[tuple[str, str], asyncio.Future[Entries]] = {}
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    # Listeners ------------------------------------------------------------------------------

    @property
    def listeners(self) -> int:
        return sum(len(events) for events in self._listeners.values())

    async def join(self, key: str, user_id: int) -> Wake:
        """A new listener of ``key`` for ``user_id``: its wake-up, set after each change of
        the stream.

        Returns once the subscription is up, so that a change made after this returns wakes
        it (RedisAway when it cannot be set up in time)."""
        wake = Wake(user_id)
        self._listeners[key].add(wake)
        if self._task is None or self._task.done():
            self._subscribed.clear()
            self._task = asyncio.create_task(self._run(), name="event-stream hub")
        try:
            await asyncio.wait_for(self._subscribed.wait(), COMMAND_TIMEOUT)
        except TimeoutError:
            self.leave(key, wake)
            raise RedisAway from None
        return wake

    def leave(self, key: str, wake: Wake) -> None:
        listeners = self._listeners.get(key)
        if listeners is not None:
            listeners.discard(wake)
            if not listeners:
                del self._listeners[key]
        if not self._listeners and self._task is not None:
            # Nobody listens: the subscription is let go, and taken again by the next one.
            self._task.cancel()
            self._task = None

    def _wake(self, keys: list[str]) -> None:
        for key in keys:
            if key.startswith(live.CLOSED_PREFIX):
                self._close(int(key[len(live.CLOSED_PREFIX) :]))
                continue
            for wake in self._listeners.get(key, ()):
                wake.set()

    def _close(self, user_id: int) -> None:
        for listeners in self._listeners.values():
            for wake in listeners:
                if wake.user_id == user_id:
                    wake.closed = True
                    wake.set()

    def _wake_all(self) -> None:
        self._wake(list(self._listeners))

    # Reads ----------------------------------------------------------------------------------

    async def read(self, key: str, after: str) -> Entries:
        """The entries of ``key`` after the entry ``after`` (at most READ_COUNT): one read
        for all the listeners that ask the same at once."""
        pending = self._pending.get((key, after))
        if pending is None:
            pending = asyncio.ensure_future(self._read(key, after))
            self._pending[(key, after)] = pending
            pending.add_done_callback(lambda done: self._read_done(key, after, done))
        # A listener that goes away (its client left) must not cancel the others' read.
        return await asyncio.shield(pending)

    def _read_done(self, key: str, after: str, done: asyncio.Future[Entries]) -> None:
        self._pending.pop((key, after), None)
        if not done.cancelled():
            done.exception()  # (seen: asyncio logs no "never retrieved" when all left)

    async def _read(self, key: str, after: str) -> Entries:
        try:
            found = await self._reads.xread({key: after}, count=READ_COUNT)
        except (RedisError, OSError) as failure:
            raise RedisAway from failure
        return found[0][1] if found else []

    async def newest(self, key: str) -> str:
        """The id of the newest entry of ``key`` ("0-0": none): a new listener hears what
        comes after it."""
        try:
            found = await self._reads.xrevrange(key, count=1)
        except (RedisError, OSError) as failure:
            raise RedisAway from failure
        return found[0][0] if found else "0-0"

    # The subscription -----------------------------------------------------------------------

    async def _run(self) -> None:
        failing = False
        while True:
            pubsub = self._subscriber.pubsub()
            try:
                await pubsub.subscribe(self._channel)
                heard = time.monotonic()
                self._subscribed.set()
                if failing:
                    log.warning("the event stream's Redis is back: listeners woken")
                    failing = False
                self._wake_all()  # whatever changed while (re)connecting
                while True:
                    message = await pubsub.get_message(timeout=PING_EVERY)
                    now = time.monotonic()
                    if message is not None:
                        heard = now
                        if message["type"] == "message":
                            self._wake(message["data"].split())
                    elif now - heard > 3 * PING_EVERY:
                        raise TimeoutError("no answer from the subscription's connection")
                    else:
                        await pubsub.ping()
            except (RedisError, OSError, TimeoutError) as failure:
                self._subscribed.clear()
                if not failing:  # once per outage, not once per try
                    log.warning("the event stream's Redis failed (%s): trying again", failure)
                    failing = True
                # Each listener reads now, fails and ends its stream; the client reconnects.
                self._wake_all()
                await asyncio.sleep(RECONNECT_AFTER)
            finally:
                await asyncio.shield(_close(pubsub))


async def _close(pubsub: Any) -> None:
    try:
        await pubsub.aclose()
    except (RedisError, OSError):
        pass


# One hub per event loop: uvicorn runs one loop per process; tests run several, one after
# another, and a hub's connections belong to the loop that made them.
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub(url: str) -> Hub:
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(url)
    return found
