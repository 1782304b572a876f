"""Stamps of what a user's game lists show, for the dashboard kept in the cache.

A dashboard shows the user's games (who is waited for, since when, until when; results) and
the open invitations they may answer or made. Its cache key (``games.web.lobby.home``) names two
stamps: the user's own, renewed after the commit of any change to one of their games, and
the open invitations', renewed after the commit of any change to an invitation. A renewed
stamp is a new random value, never an old one come back: a stamp lost from the cache
(evicted, Redis restarted) is replaced by a fresh one too, so the pages kept under the old
value are never read again.

Every change of a game or an invitation goes through ``games.services`` (and the deadlines
``games.reads.clocks`` moves for a vacation), which call ``games_changed``/``users_changed`` and
``invitations_changed``. What changes with time alone ("waiting 3 hours") is covered by the
minute in the dashboard's key. Renewed after the commit, never before: a request that read
the old stamp and then the old rows may store its page, but only under the old stamp.
(``robust``: a cache that fails then is logged, the change having committed.)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.cache import BaseCache, caches
from django.db import transaction

from games.models import Seat

INVITATIONS = "lists:invitations"
# Long enough to outlive any page kept under them (PAGE_CACHE_SECONDS).
TIMEOUT = 30 * 24 * 3600


def _cache() -> BaseCache:
    return caches["pages"]  # with the pages kept under these stamps


def _user(user_id: int) -> str:
    return f"lists:user:{user_id}"


def _fresh() -> str:
    return secrets.token_hex(8)


def stamps(user_id: int) -> tuple[str, str]:
    """The stamps of ``user_id``'s games and of the open invitations: one cache read."""
    keys = [_user(user_id), INVITATIONS]
    found = _cache().get_many(keys)
    missing = {k: _fresh() for k in keys if k not in found}
    for k, value in missing.items():
        # add: of two requests finding it missing, both use the one stored first.
        if not _cache().add(k, value, TIMEOUT):
            value = _cache().get(k) or value
        found[k] = value
    return found[keys[0]], found[keys[1]]


def users_changed(user_ids: Iterable[int]) -> None:
    """After the commit: the lists of these users changed."""
    ids = set(user_ids)
    transaction.on_commit(
        lambda: _cache().set_many({_user(i): _fresh() for i in ids}, TIMEOUT), robust=True
    )


def games_changed(game_ids: Iterable[int]) -> None:
    """After the commit: the lists of everyone seated at these games changed."""
    ids = list(game_ids)

    def renew() -> None:
        users = Seat.objects.filter(game_id__in=ids).values_list("user_id", flat=True)
        _cache().set_many({_user(i): _fresh() for i in set(users)}, TIMEOUT)

    transaction.on_commit(renew, robust=True)


def invitations_changed() -> None:
    """After the commit: an invitation was made, answered, started or withdrawn."""
    transaction.on_commit(lambda: _cache().set(INVITATIONS, _fresh(), TIMEOUT), robust=True)
