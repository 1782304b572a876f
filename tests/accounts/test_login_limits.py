"""Failed logins are limited per account as well as per address, on the login page and the
API's token endpoint alike (issue 45: 12 wrong passwords on the token endpoint from rotating
X-Forwarded-For addresses were all answered 400, where one address gets 429 after 10)."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD, make_person

TOKENS = "/api/v1/auth/token/"
LIMITED = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def _trusting_forwarded_for(settings):
    # The worst case: the application server believes the X-Forwarded-For a client writes
    # (a proxy is configured, but the client reaches the server directly).
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.LOGIN_FAILURES_PER_ACCOUNT = 10


def spellings(user):
    """Ways to name ``user``'s account: its username in any case, its email address (allauth
    counts each name as typed, lower-cased: five failures each)."""
    cases = (user.username, user.username.upper(), user.username.title())
    return itertools.cycle([user.email, *cases])


def address(n: int) -> str:
    return f"203.0.{n // 250}.{n % 250 + 1}"


def token(client, n: int, login: str, password: str):
    return client.post(
        TOKENS,
        {"username": login, "password": password, "name": "bot"},
        content_type="application/json",
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR=address(n),
    )


def web_login(client, n: int, login: str, password: str):
    return client.post(
        reverse("account_login"),
        {"login": login, "password": password},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR=address(n),
    )


class TestTheTokenEndpoint:
    def test_rotating_addresses_and_spellings_stop_at_the_limit(self, client, alice, bob):
        names = spellings(alice)
        answers = [token(client, n, next(names), "wrong").status_code for n in range(12)]

        assert answers == [400] * 10 + [429] * 2
        # The right password too, from yet another address: the account waits.
        refused = token(client, 99, "alice", PASSWORD)
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        # Another account is not held up.
        assert token(client, 100, "bob", PASSWORD).status_code == 201

    def test_the_login_page_counts_against_it_too(self, client, alice):
        names = itertools.cycle([alice.email, alice.username])
        for n in range(10):
            assert LIMITED not in web_login(client, n, next(names), "wrong").content.decode()

        assert token(client, 50, "alice", PASSWORD).status_code == 429

    def test_an_unknown_name_is_answered_as_an_account_is(self, client, alice):
        for n in range(10):
            assert token(client, n, "nobody-here", "wrong").status_code == 400
        assert token(client, 10, "nobody-here", "wrong").status_code == 429


class TestTheLoginPage:
    def test_rotating_addresses_and_spellings_stop_at_the_limit(self, client, alice, settings):
        # Below allauth's own five per name as typed: the account's count stops them.
        settings.LOGIN_FAILURES_PER_ACCOUNT = 6
        names = itertools.cycle([alice.email, alice.username])
        pages = [web_login(client, n, next(names), "wrong").content.decode() for n in range(6)]
        assert not any(LIMITED in page for page in pages)

        refused = web_login(client, 10, "alice", PASSWORD)

        assert refused.status_code == 200 and LIMITED in refused.content.decode()
        other = make_person("olga")
        assert web_login(client, 11, other.username, PASSWORD).status_code == 302
