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


def alive(kind: str) -> float | None:
    return scrape().get(("guildhall_processes_alive", frozenset({("process", kind)})))


# Each process started (a label, docs/Procfile's name) and the kinds it beats for: two
# workers of the default lane, each beating in a field of its own.
PROCESSES = {
    "worker": ("worker", ["worker:celery"]),
    "worker2": ("worker", ["worker:celery"]),
    "notices": ("notices", ["worker:notices"]),
    "webhooks": ("webhooks", ["worker:webhooks"]),
    "computer": ("computer", ["worker:computer"]),
    "beat": ("beat", ["beat", "beat_tick"]),
    "events": ("events", ["events"]),
}
KINDS = sorted({k for _, kinds in PROCESSES.values() for k in kinds})


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
    assert all(response.json()["checks"][k] == "missing" for k in KINDS)
    assert Client().get("/readyz").json()["checks"].keys().isdisjoint({"beat", "events"})
    try:
        for label, (name, _) in PROCESSES.items():
            site.start(label, name)
        wait_until(
            lambda: all(state == "ok" for state in deep().values()) and alive("worker:celery") == 2,
            60,
            f"every process to beat\n{site.logs()}",
            step=0.5,
        )
        assert Client().get("/readyz?deep=1").status_code == 200
        assert all(up(k) == 1 for k in KINDS)

        # One of the lane's two workers gone: the lane lives on, one process fewer.
        site.kill("worker", signal.SIGKILL)
        wait_until(lambda: alive("worker:celery") == 1, 120, "worker's field to go stale")
        assert deep()["worker:celery"] == "ok"
        assert up("worker:celery") == 1

        killed: list[str] = []
        for label in ["worker2", "notices", "webhooks", "computer", "beat", "events"]:
            kinds = PROCESSES[label][1]
            site.kill(label, signal.SIGKILL)
            killed += kinds
            started = time.monotonic()
            wait_until(
                lambda kinds=kinds: all(deep()[k] == "stale" for k in kinds),
                120,
                f"{label} to be named stale",
                step=0.5,
            )
            assert time.monotonic() - started < 120
            checks, samples = deep(), scrape()
            for kind in KINDS:
                # What was killed is down; what still runs is up.
                assert checks[kind] == ("stale" if kind in killed else "ok"), (label, kind)
                up_ = samples[("guildhall_process_up", frozenset({("process", kind)}))]
                assert up_ == (0 if kind in killed else 1), (label, kind)
            for kind in kinds:
                age = samples[
                    ("guildhall_process_heartbeat_age_seconds", frozenset({("process", kind)}))
                ]
                assert age > 3, (kind, age)
        # Heartbeats about no process: the site's processes beat only for what they are,
        # each in a field of its own (the two workers of the default lane: two fields).
        fields = [heartbeat.split(f.decode()) for f in watched.hkeys(heartbeat.KEY)]
        assert sorted(kind for kind, _ in fields) == sorted(
            k for _, kinds in PROCESSES.values() for k in kinds
        )
        assert all(process for _, process in fields)
    finally:
        site.stop_all()


def test_a_process_long_gone_is_forgotten_but_its_kinds_newest_beat_is_kept(watched):
    now = time.time()
    forget = django_settings.HEARTBEAT_STALE_SECONDS * heartbeat.FORGET_AFTER_STALE
    watched.hset(
        heartbeat.KEY,
        mapping={
            "worker:computer|old-host:7": now - forget - 5,
            "worker:computer|old-host:8": now - forget - 50,
            "worker:notices|host:9": now - forget - 5,
        },
    )
    heartbeat.beat("worker:notices")

    found = heartbeat.process_ages()

    assert set(found["worker:computer"]) == {"old-host:7"}  # the newest, though long gone
    assert set(found["worker:notices"]) == {heartbeat.this_process()}
    assert set(watched.hkeys(heartbeat.KEY)) == {
        b"worker:computer|old-host:7",
        heartbeat.field("worker:notices").encode(),
    }
    assert heartbeat.states(heartbeat.ages(found))["worker:computer"] == "stale"


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
    watched.hset(heartbeat.KEY, heartbeat.field("beat"), time.time() - 10)
    assert heartbeat.main(["worker:computer", "beat"]) == 1
    assert "beat: stale" in capsys.readouterr().out
