"""Logs as JSON with fields (guildhall_site/ops/access_log.py, celery_logging.py): one line per
request from gunicorn and from uvicorn (method, path without query values, status,
duration_ms, client, request_id), one per task from a worker (task, task_id, queue,
duration_ms, state), and Celery's banners and lines as JSON too.

Real parts: gunicorn, uvicorn, a Celery worker and beat started with docs/Procfile's commands
(from this checkout's environment), the tests' Redis and database; the lines read from their
output and parsed.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from guildhall_site.celery import app as celery_app
from guildhall_site.ops import client_address
from tests.guildhall_site.ops.site_processes import (
    REPOSITORY,
    Site,
    database_url,
    free_port,
    wait_until,
)

SECRET = "t0k3n-s3cret"
FORWARDED = "203.0.113.9"


def env_for(tmp_path: Path, **more: str) -> dict[str, str]:
    (tmp_path / "static").mkdir(exist_ok=True)
    return {
        "DEBUG": "false",
        "SECRET_KEY": "log-fields-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "http://127.0.0.1:1",
        "STATIC_ROOT": str(tmp_path / "static"),
        "LOG_FORMAT": "json",
        "WEB_CONCURRENCY": "1",
        **more,
    }


def records(text: str) -> list[dict]:
    """Every line of a process's output, each a JSON object (else the test fails)."""
    lines = [line for line in text.splitlines() if line.strip()]
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}\n{text}") from None
    return out


def get(port: int, path: str, **headers: str) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()
    except OSError:
        pass


class TestClientAddress:
    PROXIES = client_address.networks(client_address.DEFAULT)

    def test_a_trusted_proxys_header_names_the_client(self):
        assert client_address.client("127.0.0.1", FORWARDED, self.PROXIES) == FORWARDED
        assert client_address.client("::1", f"{FORWARDED}, 127.0.0.1", self.PROXIES) == FORWARDED

    def test_anyone_elses_header_is_ignored(self):
        assert client_address.client("198.51.100.7", FORWARDED, self.PROXIES) == "198.51.100.7"

    def test_what_the_client_wrote_left_of_it_is_not_believed(self):
        forged = f"10.9.9.9, nonsense, {FORWARDED}"
        assert client_address.client("127.0.0.1", forged, self.PROXIES) == FORWARDED
        assert client_address.client("127.0.0.1", "garbage", self.PROXIES) == "127.0.0.1"


@pytest.mark.django_db
def test_gunicorn_and_uvicorn_write_one_json_line_per_request_with_its_fields(tmp_path):
    web, events = free_port(), free_port()
    env = env_for(
        tmp_path,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",  # /healthz touches none
        WEB_BIND=f"127.0.0.1:{web}",
        EVENTS_PORT=str(events),
    )
    site = Site(tmp_path, REPOSITORY / ".venv", env)
    site.start("web", "web")
    site.start("events", "events")
    lines: dict[str, list[dict]] = {}
    try:
        for label, port in (("web", web), ("events", events)):
            wait_until(lambda port=port: _answers(port), 60, f"{label} to answer\n{site.logs()}")
            get(port, f"/healthz?token={SECRET}&page=2", **{"X-Forwarded-For": FORWARDED})
            get(port, "/healthz", **{"X-Request-ID": "proxy-id-0123456789"})

            def both(label: str = label) -> list[dict]:
                found = [r for r in records(site.log(label)) if "path" in r]
                ids = {r["request_id"] for r in found}
                seen = "proxy-id-0123456789" in ids and any("token" in r["path"] for r in found)
                return found if seen else []

            lines[label] = wait_until(both, 10, f"{label}'s access lines\n{site.logs()}")
    finally:
        site.stop_all()
    for label, logger in (("web", "gunicorn.access"), ("events", "guildhall_site.access")):
        text = site.log(label)
        assert SECRET not in text, text
        mine = [r for r in lines[label] if r["logger"] == logger]
        forwarded = next(r for r in mine if "token" in r["path"])
        assert forwarded["path"] == "/healthz?token=[Filtered]&page=[Filtered]"
        assert forwarded["method"] == "GET" and forwarded["status"] == 200
        # From loopback (a trusted proxy by default): the client is the one it names.
        assert forwarded["client"] == FORWARDED, forwarded
        assert isinstance(forwarded["duration_ms"], int | float) and forwarded["duration_ms"] >= 0
        assert len(forwarded["request_id"]) == 32  # the site's own, as it answered
        plain = next(r for r in mine if r["request_id"] == "proxy-id-0123456789")
        assert plain["client"] == "127.0.0.1"
        assert plain["request_id"] == "proxy-id-0123456789"
        assert plain["path"] == "/healthz"
        assert {"time", "level", "message"} <= plain.keys()


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
            return True
    except OSError:
        return False


@pytest.fixture
def broker():
    if not django_settings.REDIS_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is needed under CI")
        pytest.skip("needs Redis: set REDIS_URL")
    import redis

    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.delete("celery")
    yield client
    # What beat sent and its lock: no other test's worker or beat finds them.
    client.delete("guildhall:beat-lock", "guildhall:heartbeats", "celery", "notices", "webhooks")


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_a_worker_and_beat_write_only_json_with_a_line_per_task(tmp_path, broker):
    env = env_for(
        tmp_path,
        DATABASE_URL=database_url(),
        REDIS_URL=django_settings.REDIS_URL,
        BEAT_SCHEDULE=str(tmp_path / "celerybeat-schedule"),
    )
    site = Site(tmp_path, REPOSITORY / ".venv", env)
    site.start("worker", "worker")
    site.start("beat", "beat")
    try:
        wait_until(lambda: " ready." in site.log("worker"), 60, f"the worker\n{site.logs()}")
        with celery_app.connection_for_write(django_settings.REDIS_URL) as connection:
            sent = celery_app.send_task(
                "games.moderation.lift_expired", queue="celery", connection=connection
            )

        def done() -> dict | None:
            return next(
                (r for r in records(site.log("worker")) if r.get("task_id") == sent.id), None
            )

        line = wait_until(done, 30, f"the task's line\n{site.logs()}")
        wait_until(lambda: "beat: " in site.log("beat"), 30, f"beat to tick\n{site.logs()}")
    finally:
        site.stop_all()
    assert line["task"] == "games.moderation.lift_expired"
    assert line["queue"] == "celery" and line["state"] == "SUCCESS"
    assert line["duration_ms"] >= 0 and line["logger"] == "guildhall_site.tasks"
    assert line["request_id"] == sent.id
    worker = records(site.log("worker"))
    banner = next(r for r in worker if r["message"].startswith("celery worker"))
    assert banner["queues"] == ["celery"] and banner["concurrency"] == 2
    # Celery's own line with the task's return value is left out.
    assert not any("succeeded in" in r["message"] for r in worker)
    beat = records(site.log("beat"))
    assert any(r["message"] == "celery beat starting" for r in beat)
