import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from guildhall_site.settings import envbool, envint, envlist


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh process with the given environment variables on top."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        # The browser tests allow Django's ORM next to Playwright's event loop in this process;
        # a production check must not inherit that.
        env={k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "example.com",
}


class TestDeployCheck:
    def test_production_settings_pass_it(self):
        result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

        assert result.returncode == 0, result.stdout + result.stderr
        assert "System check identified no issues" in result.stdout
        assert "WARNING" not in result.stderr

    def test_production_needs_a_secret_key(self):
        result = manage("check", **(PRODUCTION | {"SECRET_KEY": ""}))

        assert result.returncode != 0
        assert "SECRET_KEY must be set when DEBUG is false" in result.stderr

    def test_a_bad_boolean_stops_the_start(self):
        result = manage("check", DEBUG="maybe")

        assert result.returncode != 0
        assert "DEBUG='maybe' is not a boolean" in result.stderr

    @pytest.mark.parametrize(
        ("env", "said"),
        [
            ({"NOTIFICATION_SWEEP_SECONDS": "0"}, "NOTIFICATION_SWEEP_SECONDS must be at least 1"),
            (
                {"NOTIFICATION_STALLED_SECONDS": "0"},
                "NOTIFICATION_STALLED_SECONDS must be at least 1",
            ),
            (
                {"NOTIFICATION_LEASE_SECONDS": "300"},
                "NOTIFICATION_LEASE_SECONDS must exceed CELERY_TASK_TIME_LIMIT",
            ),
        ],
    )
    def test_notification_timings_that_cannot_work_stop_the_start(self, env, said):
        result = manage("check", **env)

        assert result.returncode != 0
        assert said in result.stderr


class TestEnvHelpers:
    @pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on"])
    def test_envbool_reads_true(self, monkeypatch, value):
        monkeypatch.setenv("GH_TEST_FLAG", value)
        assert envbool("GH_TEST_FLAG", False) is True

    @pytest.mark.parametrize("value", ["0", "false", "No", "off"])
    def test_envbool_reads_false(self, monkeypatch, value):
        monkeypatch.setenv("GH_TEST_FLAG", value)
        assert envbool("GH_TEST_FLAG", True) is False

    def test_envbool_takes_blank_as_unset(self, monkeypatch):
        monkeypatch.setenv("GH_TEST_FLAG", " ")
        assert envbool("GH_TEST_FLAG", True) is True

    def test_envbool_rejects_anything_else(self, monkeypatch):
        monkeypatch.setenv("GH_TEST_FLAG", "yes please")
        with pytest.raises(ImproperlyConfigured):
            envbool("GH_TEST_FLAG", True)

    def test_envint_rejects_a_non_number(self, monkeypatch):
        monkeypatch.setenv("GH_TEST_NUMBER", "12h")
        with pytest.raises(ImproperlyConfigured):
            envint("GH_TEST_NUMBER", 1)

    def test_envint_reads_a_number(self, monkeypatch):
        monkeypatch.setenv("GH_TEST_NUMBER", "3600")
        assert envint("GH_TEST_NUMBER", 1) == 3600

    def test_envlist_splits_on_commas(self, monkeypatch):
        monkeypatch.setenv("GH_TEST_LIST", "example.com, www.example.com,")
        assert envlist("GH_TEST_LIST", []) == ["example.com", "www.example.com"]


class TestProxies:
    def test_api_num_proxies_counts_for_the_api_and_for_logins(self):
        code = (
            "from django.conf import settings; "
            "print(settings.REST_FRAMEWORK['NUM_PROXIES'], settings.ALLAUTH_TRUSTED_PROXY_COUNT)"
        )

        behind_two = manage("shell", "-v", "0", "-c", code, API_NUM_PROXIES="2")
        assert behind_two.stdout.split() == ["2", "2"]
        assert manage("shell", "-v", "0", "-c", code).stdout.split() == ["0", "0"]
