"""Celery beat that is harmless twice (settings.CELERY_BEAT_SCHEDULER).

Two beats would send every periodic sweep twice. That happens: a worker started with an
embedded beat (``-B``, as ``rundemo`` does) that is killed with SIGKILL leaves its beat
process running, orphaned, and the worker started again brings a second one; or someone
starts a second ``beat`` by mistake. So:

- a beat sends only while it holds a lock: in Redis (``SET NX`` with an expiry, renewed at
  every tick) where the site has one, else a ``flock`` on a file beside the schedule (the
  filesystem broker: one machine). Another beat waits, and takes over within
  ``LOCK_SECONDS`` of the first one's end (at once for the file lock, and for a beat that
  stops cleanly);
- an embedded beat stops when the worker that started it is gone (its parent process
  changed), instead of living on as an orphan.
"""

from __future__ import annotations

import fcntl
import logging
import os
import uuid
from pathlib import Path
from typing import Any, TextIO

from celery import signals
from celery.beat import PersistentScheduler
from django.conf import settings

from guildhall_site.ops import heartbeat

log = logging.getLogger(__name__)

# How long the Redis lock outlives its holder's last tick, and how often a beat ticks at
# most (it renews the lock each time), in seconds.
LOCK_SECONDS = 30
TICK_SECONDS = 5
LOCK_KEY = "guildhall:beat-lock"

# The worker that started this process's embedded beat (-B), once it has started it.
_worker_pid: int | None = None


@signals.beat_embedded_init.connect
def _remember_the_worker(sender: object = None, **kwargs: object) -> None:
    global _worker_pid
    _worker_pid = os.getppid()


class _RedisLock:
    # Renewed only by its holder: a beat whose lock expired (it hung) and was taken cannot
    # take it back by renewing.
    RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"  # noqa: E501
    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"  # noqa: E501

    def __init__(self, url: str) -> None:
        import redis

        self.redis = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        self.token = uuid.uuid4().hex
        self.errors = (redis.RedisError,)

    def hold(self) -> bool:
        try:
            if self.redis.eval(self.RENEW, 1, LOCK_KEY, self.token, LOCK_SECONDS):
                return True
            return bool(self.redis.set(LOCK_KEY, self.token, nx=True, ex=LOCK_SECONDS))
        except self.errors as error:
            # Redis is the broker too: nothing could be sent now anyway.
            log.warning("beat: cannot reach Redis for its lock (%s)", error)
            return False

    def release(self) -> None:
        try:
            self.redis.eval(self.RELEASE, 1, LOCK_KEY, self.token)
        except self.errors:
            pass  # it expires by itself


class _FileLock:
    """An exclusive ``flock``: the kernel lets it go when its process ends, however."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: TextIO | None = None

    def hold(self) -> bool:
        if self.file is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        file = open(self.path, "a")  # noqa: SIM115 (held open as long as the lock)
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            file.close()
            return False
        self.file = file
        return True

    def release(self) -> None:
        if self.file is not None:
            self.file.close()  # and with it the lock
            self.file = None


def beat_lock() -> _RedisLock | _FileLock:
    if settings.REDIS_URL:
        return _RedisLock(settings.REDIS_URL)
    return _FileLock(Path(settings.FILESYSTEM_BROKER_DIR) / "beat.lock")


class Scheduler(PersistentScheduler):
    """The schedule in a file, as Celery's own; sent only by the beat holding the lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock = beat_lock()
        self.holding = False
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if _worker_pid is not None and os.getppid() != _worker_pid:
            log.warning("beat: the worker that started it is gone: stopping")
            raise SystemExit(0)
        holding = self.lock.hold()
        # Alive (the standby too), and ticking the schedule (the holder): ops/heartbeat.py.
        heartbeat.beat("beat", *(["beat_tick"] if holding else []))
        if holding != self.holding:
            log.info("beat: %s", "sending the schedule" if holding else "another beat sends it")
            self.holding = holding
        # Often enough to beat every HEARTBEAT_SECONDS too.
        most = min(TICK_SECONDS, settings.HEARTBEAT_SECONDS)
        if not holding:
            return most
        return min(super().tick(*args, **kwargs), most)

    def close(self) -> None:
        super().close()
        self.lock.release()
