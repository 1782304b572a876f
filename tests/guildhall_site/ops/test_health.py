"""/healthz and /readyz (guildhall_site/ops/health.py).

Real parts: the tests' PostgreSQL and Redis, and a Redis server of the test's own
(redis-server, started and stopped here; the machine's shared Redis is never stopped). A
PostgreSQL that is down is one at a port where nothing listens.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
import redis
from django.db import connections
from django.test import Client

from tests import system_packages
from tests.live import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def production(settings, redis_url: str) -> None:
    """Production's Redis settings, at ``redis_url``: both caches and the broker."""
    options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    backend = "guildhall_site.cache.RedisWithLocalFallback"
    settings.CACHES = {
        "default": {"BACKEND": backend, "LOCATION": redis_url, "OPTIONS": options},
        "pages": {
            "BACKEND": backend,
            "LOCATION": redis_url,
            "KEY_PREFIX": "pages",
            "OPTIONS": options,
        },
    }
    settings.CELERY_BROKER_URL = redis_url
    settings.CELERY_TASK_ALWAYS_EAGER = False


@pytest.fixture
def client() -> Client:
    # As a load balancer probes: by address, over plain HTTP, with no cookie.
    return Client(HTTP_HOST="10.1.2.3:8000")


class OwnRedis:
    """A redis-server of this test only, on a free port, without persistence."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
            + ["--save", "", "--appendonly", "no", "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.2).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def own_redis():
    problem = system_packages.install("redis-server", "/usr/bin/redis-server")
    if problem:
        pytest.fail(problem)
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def migrations_table():
    """Changes to django_migrations, put back after the test (flushing the tables after a
    test leaves that one as it is, and the next tests' migrate would stumble)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT app, name, applied FROM django_migrations")
        saved = cursor.fetchall()

    def change(sql: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql)

    yield change
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_migrations")
        cursor.executemany(
            "INSERT INTO django_migrations (app, name, applied) VALUES (%s, %s, %s)", saved
        )


def timed_get(client: Client, path: str):
    start = time.monotonic()
    response = client.get(path)
    return response, time.monotonic() - start


class TestHealthz:
    def test_it_answers_without_touching_anything(self, client, settings):
        settings.ALLOWED_HOSTS = ["guildhall.example.com"]
        settings.SECURE_SSL_REDIRECT = True  # as in production: no redirect for a probe

        response = client.get("/healthz")

        assert response.status_code == 200
        assert response.content == b"ok\n"
        assert "no-store" in response["Cache-Control"]
        assert "Set-Cookie" not in response


class TestReadyz:
    def test_it_is_ready_when_every_part_answers(self, client, settings, own_redis):
        production(settings, own_redis.url)
        settings.ALLOWED_HOSTS = ["guildhall.example.com"]
        settings.SECURE_SSL_REDIRECT = True

        response = client.get("/readyz")

        assert response.status_code == 200, response.content
        assert response.json() == {
            "status": "ready",
            "checks": {
                "database": "ok",
                "cache": "ok",
                "cache_pages": "ok",
                "broker": "ok",
            },
        }
        assert "no-store" in response["Cache-Control"]

    def test_it_turns_503_within_seconds_when_redis_stops_and_200_when_it_is_back(
        self, client, settings, own_redis
    ):
        production(settings, own_redis.url)
        assert client.get("/readyz").status_code == 200

        own_redis.stop()
        response, took = timed_get(client, "/readyz")

        assert response.status_code == 503
        assert response.json()["checks"] == {
            "database": "ok",
            "cache": "down",
            "cache_pages": "down",
            "broker": "down",
        }
        assert took < 5
        assert own_redis.url not in response.content.decode()

        own_redis.start()
        response, took = timed_get(client, "/readyz")
        assert response.status_code == 200 and took < 5

    def test_it_names_a_broker_of_its_own_that_is_down(self, client, settings, own_redis):
        production(settings, own_redis.url)
        settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"

        response = client.get("/readyz")

        assert response.status_code == 503
        assert response.json()["checks"]["broker"] == "down"
        assert response.json()["checks"]["cache"] == "ok"

    def test_it_turns_503_when_postgresql_is_unreachable_and_200_when_back(
        self, client, settings, own_redis, monkeypatch
    ):
        production(settings, own_redis.url)
        database = connections.settings["default"]
        if database["ENGINE"] != "django.db.backends.postgresql":
            pytest.skip("needs PostgreSQL: set DATABASE_URL (CI does)")
        # New connections (the check makes its own, in its thread) go to a dead port.
        monkeypatch.setitem(database, "PORT", str(free_port()))

        response, took = timed_get(client, "/readyz")

        assert response.status_code == 503
        assert response.json()["checks"]["database"] == "down"
        assert response.json()["checks"]["cache"] == "ok"
        assert took < 5

        monkeypatch.undo()
        assert client.get("/readyz").status_code == 200

    def test_it_is_not_ready_before_the_migrations_of_its_code_ran(
        self, client, settings, own_redis, migrations_table
    ):
        production(settings, own_redis.url)
        # A migration in the database that the code lacks is fine (an old version still
        # serving while the new one migrated); the reverse is not:
        migrations_table(
            "INSERT INTO django_migrations (app, name, applied) VALUES "
            "('games', '9999_not_yet', now())"
        )
        assert client.get("/readyz").status_code == 200
        migrations_table(
            "DELETE FROM django_migrations WHERE app = 'games' AND name = ("
            "SELECT max(name) FROM django_migrations WHERE app = 'games' "
            "AND name != '9999_not_yet')"
        )

        response = client.get("/readyz")

        assert response.status_code == 503
        assert response.json()["checks"]["database"] == "unapplied"

    def test_a_post_is_not_a_probe(self, client, settings):
        settings.ALLOWED_HOSTS = ["10.1.2.3"]
        client = Client(HTTP_HOST="10.1.2.3", enforce_csrf_checks=True)

        assert client.post("/healthz").status_code == 403  # no CSRF token
        assert Client(HTTP_HOST="10.1.2.3").post("/readyz").status_code == 405
