import os
import signal

import pytest
from allauth.account.models import EmailAddress
from django.core.management import CommandError, call_command

from accounts.management.commands import rundemo


@pytest.fixture
def runserver_calls(monkeypatch):
    """Run rundemo's other commands, but record runserver instead of serving forever."""
    calls = []
    real_call_command = rundemo.call_command

    def fake_call_command(name, *args, **options):
        if name == "runserver":
            calls.append((args, options))
        else:
            real_call_command(name, *args, **options)

    monkeypatch.setattr(rundemo, "call_command", fake_call_command)
    return calls


@pytest.fixture(autouse=True)
def worker_calls(monkeypatch):
    """Record the worker rundemo would start; put back what it changes in this process."""
    from guildhall_site.celery import app

    calls = []

    class FakeProcess:
        def __init__(self, command, **options):
            calls.append(command)

        def terminate(self):
            calls.append("terminated")

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(rundemo.subprocess, "Popen", FakeProcess)
    environ = dict(os.environ)
    eager = app.conf.task_always_eager
    sigterm = signal.getsignal(signal.SIGTERM)
    yield calls
    signal.signal(signal.SIGTERM, sigterm)
    os.environ.clear()
    os.environ.update(environ)
    app.conf.task_always_eager = eager


def queues(command: list[str]) -> list[str]:
    return command[command.index("--queues") + 1].split(",")


class TestRundemo:
    @pytest.fixture(autouse=True)
    def _debug(self, settings, monkeypatch):
        settings.DEBUG = True
        # rundemo sets it for its server and worker; the fixture puts it back afterwards.
        settings.SITE_URL = "http://127.0.0.1:8000"
        monkeypatch.delenv("SITE_URL", raising=False)

    def test_it_starts_a_worker_with_beat_on_the_filesystem_broker(
        self, db, runserver_calls, worker_calls, settings
    ):
        from guildhall_site.celery import app

        settings.REDIS_URL = None
        call_command("rundemo", verbosity=0)

        started = worker_calls[: len(settings.TASK_LANES)]
        stopped = worker_calls[len(settings.TASK_LANES) :]
        for command in started:
            assert command[1:6] == ["-m", "celery", "--app", "guildhall_site", "worker"]
        # A worker per lane, each serving its lane alone, so that an email never waits
        # behind a game against the strong computer or a slow webhook; beat in one of them.
        assert [queues(c) for c in started] == [[lane] for lane in settings.TASK_LANES]
        assert [c for c in started if "--beat" in c] == [started[0]]
        assert queues(started[0]) == ["celery"]
        routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
        assert routed | {"celery"} == set(settings.TASK_LANES)
        assert stopped == ["terminated"] * len(started)  # when the server stops
        assert os.environ["CELERY_BROKER_URL"] == "filesystem://"
        assert app.conf.task_always_eager is False

    def test_no_worker_on_request(self, db, runserver_calls, worker_calls):
        call_command("rundemo", "--no-worker", verbosity=0)

        assert worker_calls == []

    def test_it_creates_verified_demo_users_and_serves(self, db, runserver_calls, capsys):
        call_command("rundemo", verbosity=0)

        for username in ["alice", "bob"]:
            address = EmailAddress.objects.get(user__username=username)
            assert address.verified and address.primary
            assert address.user.check_password(rundemo.DEMO_PASSWORD)
        assert runserver_calls == [(("127.0.0.1:8000",), {"use_reloader": True})]
        assert rundemo.DEMO_PASSWORD in capsys.readouterr().out

    def test_it_keeps_existing_users(self, db, runserver_calls, alice):
        call_command("rundemo", "--noreload", verbosity=0)

        alice.refresh_from_db()
        assert not alice.check_password(rundemo.DEMO_PASSWORD)
        assert EmailAddress.objects.filter(user__username="bob").exists()
        assert runserver_calls[0][1] == {"use_reloader": False}

    def test_a_restart_with_nothing_to_migrate_skips_migrate(self, db, monkeypatch):
        # The tests' database has every migration: migrate (seconds) is not run again.
        called = []
        monkeypatch.setattr(rundemo, "call_command", lambda name, *a, **o: called.append(name))

        call_command("rundemo", "--no-worker", verbosity=0)
        assert rundemo.unapplied_migrations() == 0
        assert called == ["runserver"]

        monkeypatch.setattr(rundemo, "unapplied_migrations", lambda: 2)
        call_command("rundemo", "--no-worker", verbosity=0)
        assert called == ["runserver", "migrate", "runserver"]

    def test_it_refuses_to_run_in_production(self, db, runserver_calls, settings):
        settings.DEBUG = False

        with pytest.raises(CommandError):
            call_command("rundemo", verbosity=0)

        assert runserver_calls == []

    def test_the_reloaders_child_only_serves(self, db, runserver_calls, monkeypatch):
        monkeypatch.setenv("RUN_MAIN", "true")

        call_command("rundemo", verbosity=0)

        assert not EmailAddress.objects.exists()
        assert len(runserver_calls) == 1

    def test_emails_link_to_the_address_it_serves(self, db, runserver_calls, settings):
        call_command("rundemo", "0.0.0.0:8123", verbosity=0)

        assert os.environ["SITE_URL"] == settings.SITE_URL == "http://127.0.0.1:8123"
        assert runserver_calls[0][0] == ("0.0.0.0:8123",)

    def test_an_explicit_site_url_wins(self, db, runserver_calls, settings, monkeypatch):
        monkeypatch.setenv("SITE_URL", "https://games.example.org")
        settings.SITE_URL = "https://games.example.org"

        call_command("rundemo", "8123", verbosity=0)

        assert settings.SITE_URL == "https://games.example.org"

    def test_it_refuses_an_address_runserver_would_refuse(self, db, runserver_calls):
        with pytest.raises(CommandError):
            call_command("rundemo", "localhost:http", verbosity=0)

        assert runserver_calls == []


@pytest.mark.parametrize(
    ("addrport", "url"),
    [
        ("8001", "http://127.0.0.1:8001"),
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("0.0.0.0:80", "http://127.0.0.1:80"),
        ("[::]:8000", "http://[::1]:8000"),
        ("[::1]:9000", "http://[::1]:9000"),
        ("guildhall.local:8000", "http://guildhall.local:8000"),
    ],
)
def test_site_url(addrport, url):
    assert rundemo.site_url(addrport) == url
