"""The request of a logged-in user, for type checking."""

from __future__ import annotations

from accounts.models import User
from guildhall_site.http import HtmxHttpRequest


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind ``login_required`` (or ``board_login_required``): its user
    is logged in, a ``User`` and never the anonymous one. For type checking only."""

    user: User
