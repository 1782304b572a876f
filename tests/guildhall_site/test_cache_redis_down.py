"""Redis unreachable: the site degrades instead of failing.

The cache is pointed at an address where nothing listens. The API's throttles and allauth's
login rate limits then count in the process's own cache (guildhall_site.cache), with a
warning in the log; no request answers 500.
"""

import logging

import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from guildhall_site import cache as site_cache
from tests.conftest import PASSWORD
from tests.games.api_helpers import Api
from tests.games.helpers import start_game
from tests.live import free_port


def _caches(location: str) -> dict:
    """Both caches of production's settings, at ``location``."""
    options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    backend = "guildhall_site.cache.RedisWithLocalFallback"
    return {
        "default": {"BACKEND": backend, "LOCATION": location, "OPTIONS": options},
        "pages": {
            "BACKEND": backend,
            "LOCATION": location,
            "KEY_PREFIX": "pages",
            "OPTIONS": {**options, "FALLBACK_MAX_ENTRIES": 3},
        },
    }


@pytest.fixture
def redis_down(settings):
    """The cache's Redis at an address where nothing listens."""
    settings.CACHES = _caches(f"redis://127.0.0.1:{free_port()}/0")
    yield
    cache.clear()


@pytest.fixture
def redis_up(settings):
    """The real Redis of REDIS_URL (skipped without one; CI always has it)."""
    if not settings.REDIS_URL:
        pytest.skip("needs Redis: set REDIS_URL")
    settings.CACHES = _caches(settings.REDIS_URL)
    cache.clear()
    yield
    cache.clear()


class TestTheCache:
    def test_it_keeps_values_in_the_process_and_warns_once(self, redis_down, caplog):
        with caplog.at_level(logging.WARNING, logger="guildhall_site.cache"):
            cache.set("a", 1)
            assert cache.get("a") == 1
            assert cache.add("b", 2) is True
            assert cache.add("b", 3) is False
            assert cache.incr("b") == 3
            assert cache.get_many(["a", "b"]) == {"a": 1, "b": 3}

        warnings = [r for r in caplog.records if "unreachable" in r.getMessage()]
        assert len(warnings) == 1

    def test_it_goes_back_to_redis_when_it_answers_again(self, redis_up, monkeypatch, caplog):
        backend = caches["default"]
        backend._went_down(ConnectionError("test"))
        backend.set("kept-locally", 1)
        assert backend.get("kept-locally") == 1  # within RETRY_AFTER: the local cache
        monkeypatch.setattr(site_cache, "RETRY_AFTER", 0)
        backend._went_down(ConnectionError("test"))

        with caplog.at_level(logging.WARNING, logger="guildhall_site.cache"):
            backend.set("in-redis", 2)

        assert backend._down_until is None
        assert "reachable again" in caplog.text
        assert backend.get("in-redis") == 2
        assert backend.get("kept-locally") is None  # Redis never had it


class TestApi:
    def test_requests_are_answered_and_still_throttled(self, redis_down, settings, alice):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "api": "5/minute"}
        api = Api(alice)

        statuses = [api.get("/api/v1/me/").status_code for _ in range(6)]

        assert statuses == [200] * 5 + [429]

    def test_token_login_works(self, redis_down, alice):
        from rest_framework.test import APIClient

        response = APIClient().post(
            "/api/v1/auth/token/",
            {"username": "alice", "password": PASSWORD, "name": "bot"},
            format="json",
        )

        assert response.status_code == 201, response.content


class TestPages:
    def test_boards_and_dashboards_are_served_and_few_kept_in_the_process(
        self, redis_down, alice, bob, charlie
    ):
        games = [start_game(alice, bob), start_game(alice, charlie), start_game(bob, charlie)]
        client = Client()
        client.force_login(alice)

        for game in games[:2]:
            for _ in range(2):
                response = client.get(reverse("games:board", args=[game.pk]))
                assert response.status_code == 200
                assert f'data-version="{game.version}"' in response.content.decode()
        assert client.get(reverse("home")).status_code == 200
        assert client.get(reverse("games:board", args=[games[2].pk])).status_code == 200

        assert len(caches["pages"]._local._cache) <= 3


class TestLogin:
    def test_a_player_logs_in(self, redis_down, client, alice):
        response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})

        assert response.status_code == 302
        assert client.get(reverse("home")).context["user"] == alice

    def test_failed_logins_are_still_limited(self, redis_down, client, alice):
        answers = [
            client.post(reverse("account_login"), {"login": "alice", "password": "wrong"})
            for _ in range(12)
        ]

        assert {a.status_code for a in answers} == {200}  # the form again, with the error
        limited = "Too many failed login attempts"
        assert limited not in answers[0].content.decode()
        assert limited in answers[-1].content.decode()  # counted in the process
