"""Failed logins per account, wherever the password is tried: the login page (allauth, via
``accounts.adapter``) and the API's token endpoint (``accounts.api.TokenLoginView``).

The per-address limits (allauth's ``login_failed``, the API's ``LoginThrottle``) count per
client address, which a client reaching the application server directly can forge with
X-Forwarded-For (issue 45: 12 wrong passwords from rotating addresses were all answered).
This limit counts per *account*, however it is named (its username in any case, or its email
address: one count), so that rotating addresses or spellings does not help:
``LOGIN_FAILURES_PER_ACCOUNT`` failures in ``LOGIN_FAILURES_WINDOW`` seconds, then every
attempt is refused until the window ends, the right password included. A name no account has
is counted by itself, so that the answers do not tell which accounts exist.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q

from accounts.models import User


def _ident(login: str) -> str:
    """The account ``login`` names (a username, any case, or an email address), else the
    login itself, folded."""
    login = login.strip()
    found = (
        User.objects.filter(Q(username__iexact=login) | Q(email__iexact=login))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if found is not None:
        return f"user:{found}"
    return "name:" + hashlib.blake2b(login.casefold().encode(), digest_size=16).hexdigest()


def _key(login: str) -> str:
    return f"login-failures:{_ident(login)}"


def _window() -> int:
    return settings.LOGIN_FAILURES_WINDOW


def wait(login: str) -> int | None:
    """Seconds until ``login`` may be tried again, or None if it may be now."""
    found = cache.get(_key(login))
    if not found:
        return None
    count, since = found
    if count < settings.LOGIN_FAILURES_PER_ACCOUNT:
        return None
    return max(1, int(since + _window() - time.time()))


def failed(login: str) -> None:
    """One more failed attempt at ``login``'s account. (A fixed window from the first
    failure; a read and a write: two attempts at once may count as one, which a limit of
    ten does not mind.)"""
    key = _key(login)
    count, since = cache.get(key) or (0, time.time())
    remaining = int(since + _window() - time.time())
    if remaining <= 0:
        count, since, remaining = 0, time.time(), _window()
    cache.set(key, (count + 1, since), remaining)
