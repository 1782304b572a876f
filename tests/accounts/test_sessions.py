"""accounts.sessions: Django's database sessions read in plain SQL, on SQLite and PostgreSQL
alike: the data of a live session, nothing of an expired or unknown one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.urls import reverse

from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def saved(**data) -> SessionStore:
    store = SessionStore()
    store.update(data)
    store.create()
    return store


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_a_live_session_reads_as_django_wrote_it():
    store = saved(colour="red", n=3)

    read = SessionStore(store.session_key)

    assert read.load() == {"colour": "red", "n": 3}
    assert read.session_key == store.session_key


def test_an_expired_session_reads_empty_and_loses_its_key():
    store = saved(colour="red")
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=Session.objects.get(session_key=store.session_key).expire_date
        - timedelta(days=10 * 365)
    )

    read = SessionStore(store.session_key)

    assert read.load() == {}
    assert read.session_key is None


def test_an_unknown_session_reads_empty():
    read = SessionStore("x" * 32)

    assert read.load() == {}
    assert read.session_key is None


def test_a_tampered_session_reads_empty():
    store = saved(colour="red")
    Session.objects.filter(session_key=store.session_key).update(session_data="not signed")

    assert SessionStore(store.session_key).load() == {}


def test_logging_in_and_out(client, alice):
    client.force_login(alice)
    assert client.get(reverse("accounts:edit_profile")).status_code == 200

    client.logout()

    assert client.get(reverse("accounts:edit_profile")).status_code == 302
