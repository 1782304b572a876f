"""accounts.backends: a session's user read in plain SQL is the ORM's; sessions stored with
the libraries' own backend names stay logged in (migration 0014)."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.test import Client

from accounts import backends
from accounts.models import User
from tests.conftest import PASSWORD
from tests.guildhall_site.test_rows import assert_same

MIGRATION = import_module("accounts.migrations.0014_session_backends")
OLD_MODEL = "django.contrib.auth.backends.ModelBackend"
OLD_ALLAUTH = "allauth.account.auth_backends.AuthenticationBackend"


@pytest.mark.parametrize("backend", [backends.ModelBackend(), backends.AuthenticationBackend()])
class TestGetUser:
    def test_the_user_is_the_orms(self, backend, alice, django_assert_num_queries):
        with django_assert_num_queries(1):
            user = backend.get_user(alice.pk)
        assert_same(user, DjangoModelBackend().get_user(alice.pk))
        assert user.username == "alice" and user.is_authenticated

    def test_nobody_for_an_inactive_or_unknown_user(self, backend, alice):
        User.objects.filter(pk=alice.pk).update(is_active=False)
        assert backend.get_user(alice.pk) is None
        assert backend.get_user(alice.pk + 1000) is None


def session_of(user: User, backend: str) -> str:
    """A stored session of ``user`` logged in by ``backend``: its key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return store.session_key


def who(session_key: str) -> str | None:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    response = client.get("/api/v1/me/")
    return response.json()["username"] if response.status_code == 200 else None


def stored_backend(session_key: str) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return store[BACKEND_SESSION_KEY]


class TestSessionsOfBefore:
    def test_the_migration_keeps_them_logged_in(self, alice, bob, charlie):
        by_model, by_allauth = session_of(alice, OLD_MODEL), session_of(bob, OLD_ALLAUTH)
        current = session_of(charlie, backends.MODEL)
        # Not configured any more: Django would log them out.
        assert (who(by_model), who(by_allauth), who(current)) == (None, None, "charlie")
        MIGRATION.forward(apps, None)
        assert (who(by_model), who(by_allauth), who(current)) == ("alice", "bob", "charlie")
        assert stored_backend(by_model) == backends.MODEL
        assert stored_backend(by_allauth) == backends.ALLAUTH
        MIGRATION.backward(apps, None)
        assert (stored_backend(by_model), stored_backend(by_allauth)) == (OLD_MODEL, OLD_ALLAUTH)
        assert stored_backend(current) == OLD_MODEL  # back as it would have been stored


class TestLogins:
    def test_a_password_login_names_a_configured_backend(self, alice):
        client = Client()
        response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
        assert response.status_code == 302
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        assert stored_backend(key) in settings.AUTHENTICATION_BACKENDS
        assert who(key) == "alice"

    def test_a_guest_is_logged_in_by_the_sites_backend(self, db):
        client = Client()
        assert client.post("/accounts/guest/").status_code == 302
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        assert stored_backend(key) == backends.MODEL
        assert who(key) is not None
