"""A second beat is harmless, and an embedded beat ends with its worker (guildhall_site/beat.py).

Issue 31: a worker started with -B and killed with SIGKILL left its beat running; started again,
it brought a second one, and every sweep was sent twice. Real beats here: schedulers sending
to the real Redis (REDIS_URL) or holding the filesystem broker's file lock, and a real
`celery worker -B` process that is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from celery import Celery
from celery.beat import PersistentScheduler
from django.conf import settings as django_settings

from guildhall_site import beat

needs_redis = pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis")

EVERY = 0.2  # seconds: the test schedule's one sweep


def beat_app() -> Celery:
    """An app whose schedule is one sweep every EVERY seconds, sent to the tests' Redis."""
    app = Celery("beat-test", broker=django_settings.REDIS_URL, set_as_current=False)
    app.conf.beat_schedule = {"sweep": {"task": "tests.sweep", "schedule": EVERY}}
    app.conf.task_default_queue = "beat-test"
    return app


def sent() -> int:
    return redis.Redis.from_url(django_settings.REDIS_URL).llen("beat-test")


@pytest.fixture
def redis_clean():
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.delete("beat-test", beat.LOCK_KEY)
    yield
    client.delete("beat-test", beat.LOCK_KEY)


def two_beats(tmp_path, scheduler=beat.Scheduler):
    app = beat_app()
    return [
        scheduler(app=app, schedule_filename=str(tmp_path / name), lazy=False)
        for name in ("one", "two")
    ]


def due_tick(*schedulers) -> None:
    time.sleep(EVERY * 1.5)
    for scheduler in schedulers:
        scheduler.tick()


@needs_redis
class TestTwoBeats:
    def test_only_one_sends_the_schedule(self, tmp_path, redis_clean):
        one, two = two_beats(tmp_path)

        due_tick(one, two)
        due_tick(two, one)
        due_tick(one, two)

        assert sent() == 3
        assert (one.holding, two.holding) == (True, False)

    def test_without_the_lock_each_would_send_it(self, tmp_path, redis_clean):
        # What the lock prevents: Celery's own scheduler, twice.
        one, two = two_beats(tmp_path, PersistentScheduler)

        due_tick(one, two)

        assert sent() == 2

    def test_the_other_takes_over_when_the_first_stops(self, tmp_path, redis_clean):
        one, two = two_beats(tmp_path)
        due_tick(one, two)

        one.close()
        due_tick(two)

        assert sent() == 2 and two.holding

    def test_a_lock_whose_holder_died_expires(self, tmp_path, redis_clean):
        one, two = two_beats(tmp_path)
        due_tick(one)
        # One was killed: it renews nothing any more. Its lock lives LOCK_SECONDS at most.
        ttl = redis.Redis.from_url(django_settings.REDIS_URL).ttl(beat.LOCK_KEY)
        assert 0 < ttl <= beat.LOCK_SECONDS
        redis.Redis.from_url(django_settings.REDIS_URL).expire(beat.LOCK_KEY, 1)
        time.sleep(1.1)

        due_tick(two)

        assert two.holding and sent() == 2


class TestTheFileLock:
    """rundemo's beats, without Redis: the filesystem broker's folder holds the lock."""

    def test_only_one_sends_and_the_lock_dies_with_its_holder(self, tmp_path, settings):
        settings.REDIS_URL = None
        settings.FILESYSTEM_BROKER_DIR = tmp_path
        lock = tmp_path / "beat.lock"
        one, two = beat.beat_lock(), beat.beat_lock()

        assert one.hold() and not two.hold()
        assert one.hold()  # still
        # Another process cannot take it either, until the holder ends.
        other = [sys.executable, "-c", HOLD_FILE_LOCK, str(lock)]
        assert subprocess.run(other, capture_output=True, text=True).stdout == "refused\n"
        one.release()
        assert two.hold()


HOLD_FILE_LOCK = """
import fcntl, sys
with open(sys.argv[1], "a") as f:
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print("refused")
    else:
        print("held")
"""


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so read after its ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


@needs_redis
def test_an_embedded_beat_ends_with_its_killed_worker(tmp_path, redis_clean):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env |= {
        "REDIS_URL": django_settings.REDIS_URL,  # this test process's own database
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_SETTINGS_MODULE": "guildhall_site.settings",
    }
    command = [
        *(sys.executable, "-m", "celery", "--app", "guildhall_site", "worker"),
        *("--beat", "--schedule", str(tmp_path / "beat-schedule")),
        *("--pool", "solo", "--queues", "beat-test-none", "--loglevel", "INFO"),
    ]
    worker = subprocess.Popen(
        command,
        env=env,
        cwd=django_settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    beat_pid = None
    try:
        # The beat is up when it holds the lock; it is the worker's child.
        _wait(lambda: client.get(beat.LOCK_KEY) is not None, 60, "the beat's lock")
        [beat_pid] = _children(worker.pid)

        worker.send_signal(signal.SIGKILL)
        worker.wait(10)

        _wait(lambda: not _alive(beat_pid), 3 * beat.TICK_SECONDS, "the orphaned beat to end")
        # It ended cleanly: its lock is free for the next worker's beat at once.
        assert client.get(beat.LOCK_KEY) is None
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(10)
        if beat_pid is not None and _alive(beat_pid):
            os.kill(beat_pid, signal.SIGKILL)
