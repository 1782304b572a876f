"""The site's authentication backends: Django's and allauth's, with the user of a session
read in plain SQL (``guildhall_site.rows``).

Every logged-in request reads its user. Built by the ORM that read cost about four times
what it took to run (1.8 ms of CPU against 0.4 ms on PostgreSQL, on a slow machine), a
third of what every logged-in request pays before its view, a poll's or a cached board's
included. Logging in and everything else is the libraries' own.

A session names the backend that logged it in (``BACKEND_SESSION_KEY``), and Django logs out
a session whose backend is no longer configured: migration ``0014_session_backends`` renamed
the names stored before, so nobody was logged out by the change.
"""

from __future__ import annotations

from allauth.account import auth_backends as allauth_backends
from django.contrib.auth import backends as django_backends

from accounts.models import User
from guildhall_site import rows

MODEL = "accounts.backends.ModelBackend"
ALLAUTH = "accounts.backends.AuthenticationBackend"


def _session_user(backend: django_backends.ModelBackend, user_id: object) -> User | None:
    """As ``ModelBackend.get_user``: the user, while they may log in; else None."""
    user = rows.get(User, user_id)
    return user if user is not None and backend.user_can_authenticate(user) else None


class ModelBackend(django_backends.ModelBackend):
    def get_user(self, user_id: object) -> User | None:
        return _session_user(self, user_id)


class AuthenticationBackend(allauth_backends.AuthenticationBackend):
    def get_user(self, user_id: object) -> User | None:
        return _session_user(self, user_id)
