"""allauth's limit on failed logins counts per client address: behind the proxies named by
API_NUM_PROXIES (ALLAUTH_TRUSTED_PROXY_COUNT), the address X-Forwarded-For gives; without
them, the connection's, whatever a client writes in X-Forwarded-For."""

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

PROXY = "10.0.0.1"  # every request comes through it
LIMITED = "Too many failed login attempts"


def log_in(client, client_address: str, login: str, password: str):
    return client.post(
        reverse("account_login"),
        {"login": login, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=client_address,
    )


def lock_out(client, client_address: str) -> None:
    """Failed logins (each for another name: the limit per name is not the one tested) until
    allauth refuses this address."""
    for n in range(10):
        assert LIMITED not in log_in(client, client_address, f"nobody{n}", "x").content.decode()
    assert LIMITED in log_in(client, client_address, "nobody", "x").content.decode()


class TestBehindOneProxy:
    @pytest.fixture(autouse=True)
    def _one_proxy(self, settings):
        settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1

    def test_one_client_locked_out_does_not_lock_out_the_others(self, client, alice):
        lock_out(client, "203.0.113.5")

        response = log_in(client, "203.0.113.6", "alice", PASSWORD)

        assert response.status_code == 302

    def test_the_address_is_the_one_the_proxy_appended(self, client, alice):
        lock_out(client, "203.0.113.5")

        # A client's own X-Forwarded-For comes first; the proxy appends the real address.
        response = log_in(client, "198.51.100.9, 203.0.113.5", "alice", PASSWORD)

        assert LIMITED in response.content.decode()


class TestWithoutProxies:
    def test_a_forged_forwarded_address_does_not_dodge_the_limit(self, client, alice):
        lock_out(client, "203.0.113.5")

        response = log_in(client, "203.0.113.6", "alice", PASSWORD)

        assert LIMITED in response.content.decode()
