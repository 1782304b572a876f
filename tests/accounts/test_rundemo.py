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


class TestRundemo:
    @pytest.fixture(autouse=True)
    def _debug(self, settings):
        settings.DEBUG = True

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
