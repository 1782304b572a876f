"""A broker that is away (games.play.events.BrokerOutage): one ERROR per outage, then a count;
no move waits for it; queueing again once it is back, with the count logged.

Real parts: Celery queueing for real to a Redis at a port where nothing listens, then to the
tests' Redis.
"""

from __future__ import annotations

import logging
import os
import time

import pytest
import redis
from django.conf import settings as django_settings

from games.play import events
from guildhall_site.celery import app
from guildhall_site.ops import metrics
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn
from tests.live import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


def _forget_connections() -> None:
    # As tests/games/notifications/test_events_unqueued.py: the next publish connects anew.
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker(monkeypatch):
    if not django_settings.REDIS_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is needed under CI")
        pytest.skip("needs Redis: set REDIS_URL")
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url", "broker_transport")}
    events.broker.reset()

    def point(url: str) -> None:
        _forget_connections()
        app.conf.update(task_always_eager=False, broker_transport=None, broker_url=url)

    yield point
    _forget_connections()
    app.conf.update(saved)
    events.broker.reset()
    redis.Redis.from_url(django_settings.REDIS_URL).delete(*events_lanes())


def events_lanes() -> list[str]:
    routed = {r["queue"] for r in django_settings.CELERY_TASK_ROUTES.values()}
    return ["celery", *routed]


def queued() -> int:
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    return sum(client.llen(lane) for lane in events_lanes())


def unqueued_turns() -> float:
    return metrics.UNQUEUED.labels(events.TURN)._value.get()


def test_an_outage_logs_once_then_counts_and_queues_again_once_back(
    broker, alice, bob, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    # Django's loggers keep to their own handler: let the test see what they log.
    monkeypatch.setattr(logging.getLogger("django"), "propagate", True)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, move_days=3)
    broker(f"redis://127.0.0.1:{free_port()}/0")
    before = unqueued_turns()

    # Four turns while the broker is away: each began a wait and would queue its notice.
    with caplog.at_level(logging.INFO):
        for _ in range(4):
            with django_capture_on_commit_callbacks(execute=True):
                game = play_turn(game)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert "games.tasks.notify_turn not queued" in errors[0].getMessage()
    assert events.broker.unqueued == 4
    assert unqueued_turns() - before == 4

    # The broker is back, but this process does not ask it again before RETRY_AFTER: the
    # commit does not reach it (no move waits for its time-out meanwhile).
    broker(django_settings.REDIS_URL)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turn(game)
    assert queued() == 0
    assert events.broker.unqueued == 5

    # Once RETRY_AFTER has passed, the next commit queues, and the count is told once.
    events.broker.down_until = time.monotonic() - 1
    caplog.clear()
    with caplog.at_level(logging.INFO), django_capture_on_commit_callbacks(execute=True):
        game = play_turn(game)
    assert queued() == 1
    assert events.broker.unqueued == 0
    assert "5 tasks were not queued while it was away" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
