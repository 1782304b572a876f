"""The requests of a logged-in user, for type checking: a page's and an API view's."""

from __future__ import annotations

from rest_framework.request import Request

from accounts.models import User
from guildhall_site.http import HtmxHttpRequest


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind ``login_required`` (or ``board_login_required``): its user
    is logged in, a ``User`` and never the anonymous one. For type checking only."""

    user: User


class AuthenticatedRequest(Request):
    """An API request to a view that lets in only logged-in users (the default permission,
    settings.REST_FRAMEWORK): its user is a ``User``. For type checking only."""

    user: User
