"""Nothing dies unseen (guildhall_site/ops/heartbeat.py): each kind of background process,
started with docs/Procfile's very command and then killed, is named by ``/readyz?deep=1`` and
``/metrics``; the age of each queue's oldest message; compose's healthcheck command.

Real parts: the tests' Redis (the processes' heartbeats and the broker), and the processes
themselves (Celery's workers, beat, uvicorn) from this checkout's environment.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from guildhall_site.celery import app as celery_app
from guildhall_site.ops import heartbeat
from tests.guildhall_site.ops.site_processes import (
    REPOSITORY,
    Site,
    free_port,
    production_env,
    wait_until,
)

pytestmark = pytest.mark.django_db

TOKEN = "heartbeat-scrape-token"


@pytest.fixture
def watched(settings):
    if not django_settings.REDIS_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is needed under CI")
        pytest.skip("needs Redis: set REDIS_URL")
    settings.HEARTBEAT_STALE_SECONDS = 3
    # As in production: a broker, no task run inline.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = django_settings.REDIS_URL
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_NETWORKS = []
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.delete(heartbeat.KEY)
    yield client
    # What beat sent and its lock: no other test's worker or beat finds them.
    client.delete(heartbeat.KEY, "guildhall:beat-lock", *heartbeat.lanes())


def deep() -> dict[str, str]:
    response = Client().get("/readyz?deep=1")
    return response.json()["checks"]


def scrape() -> dict[tuple[str, frozenset], float]:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def up(kind: str) -> float | None:
    return scrape().get(("guildhall_process_up", frozenset({("process", kind)})))


# Each process of the Procfile and the kinds it beats for.
KINDS = {
    "worker": ["worker:celery"],
    "notices": ["worker:notices"],
    "webhooks": ["worker:webhooks"],
    "computer": ["worker:computer"],
    "beat": ["beat", "beat_tick"],
    "events": ["events"],
}


def test_each_kind_of_process_killed_in_turn_is_named_by_the_deep_check_and_metrics(
    watched, tmp_path: Path
):
    env = production_env(tmp_path, "http://127.0.0.1:1", free_port(), 0)
    env |= {
        "REDIS_URL": django_settings.REDIS_URL,
        "HEARTBEAT_SECONDS": "1",
        "HEARTBEAT_STALE_SECONDS": "3",
        "METRICS_ENABLED": "false",
        "EVENTS_PORT": str(free_port()),
    }
    del env["PROMETHEUS_MULTIPROC_DIR"]
    site = Site(tmp_path, REPOSITORY / ".venv", env)
    # Never started: every kind is missing, and the deep check is not ready.
    response = Client().get("/readyz?deep=1")
    assert response.status_code == 503
    assert all(response.json()["checks"][k] == "missing" for ks in KINDS.values() for k in ks)
    assert Client().get("/readyz").json()["checks"].keys().isdisjoint({"beat", "events"})
    try:
        for name, kinds in KINDS.items():
            site.start(name, name)
            wait_until(
                lambda kinds=kinds: all(deep()[k] == "ok" for k in kinds),
                120,
                f"{name} to beat\n{site.logs()}",
                step=0.5,
            )
            assert all(up(k) == 1 for k in kinds)
            site.kill(name, signal.SIGKILL)
            started = time.monotonic()
            wait_until(
                lambda kinds=kinds: all(deep()[k] == "stale" for k in kinds),
                120,
                f"{name} to be named stale",
                step=0.5,
            )
            assert all(up(k) == 0 for k in kinds), name
            assert time.monotonic() - started < 120
            ages = scrape()
            for kind in kinds:
                age = ages[
                    ("guildhall_process_heartbeat_age_seconds", frozenset({("process", kind)}))
                ]
                assert age > 3, (kind, age)
        # Heartbeats about no process: the site's processes beat only for what they are.
        assert set(watched.hkeys(heartbeat.KEY)) == {
            k.encode() for ks in KINDS.values() for k in ks
        }
    finally:
        site.stop_all()


# send_task ignores the tests' inline tasks, as it should: here it must reach the broker.
@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_the_oldest_queued_message_has_its_age_in_metrics(watched):
    queue = "webhooks"
    watched.delete(queue)
    with celery_app.connection_for_write(django_settings.REDIS_URL) as connection:
        celery_app.send_task("no.such.task", queue=queue, connection=connection)
        time.sleep(1.2)
        celery_app.send_task("no.such.task", queue=queue, connection=connection)
    try:
        samples = scrape()
        oldest = ("guildhall_celery_queue_oldest_age_seconds", frozenset({("queue", queue)}))
        assert samples[oldest] >= 1.2
        assert samples[("guildhall_celery_queue_length", frozenset({("queue", queue)}))] == 2
        # An empty queue has waited for nothing.
        watched.delete(queue)
        assert scrape()[oldest] == 0
    finally:
        watched.delete(queue)


def test_the_healthcheck_command_names_what_has_not_beat(watched, capsys):
    assert heartbeat.main(["worker:computer", "beat"]) == 1
    assert "worker:computer: missing" in capsys.readouterr().out

    heartbeat.beat("worker:computer", "beat")
    assert heartbeat.main(["worker:computer", "beat"]) == 0
    watched.hset(heartbeat.KEY, "beat", time.time() - 10)
    assert heartbeat.main(["worker:computer", "beat"]) == 1
    assert "beat: stale" in capsys.readouterr().out
