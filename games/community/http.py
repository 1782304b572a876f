"""The community's API views are behind ``IsAuthenticated`` (the site's default permission):
their request's user is a ``User``."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.request import Request

from accounts.models import User


def user_of(request: Request) -> User:
    """The logged-in user of an API request (401 for anyone else, which the permission has
    already refused)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user
