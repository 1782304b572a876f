"""Who the site may reach outside a page they asked for: the one check every channel makes
before it tells a player anything (emails, pushes, webhooks, the event stream).

A suspended account (games.community.moderation: its ``is_active`` turned off, and on again when the
suspension is lifted) hears of nothing by any channel, nor does any other inactive account
(computer players never log in). The moderators' own notice of the suspension is the one
exception: it is sent by games.community.moderation.notices, not through these channels.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from accounts.models import User


def reachable(user: User) -> bool:
    """Whether ``user`` may be told anything now (by email, push, webhook or stream)."""
    return user.is_active


def reachable_q(prefix: str = "") -> Q:
    """``reachable`` as a condition on users; ``prefix`` reaches them from another model
    ("user__" from a seat, a hook or a subscription)."""
    return Q(**{f"{prefix}is_active": True})


def reachable_ids(user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` who may be told anything now (one query): for the event
    stream, before it sends a listener an entry."""
    ids = set(user_ids)
    if not ids:
        return set()
    return set(User.objects.filter(reachable_q(), pk__in=ids).values_list("pk", flat=True))


async def still_reachable(user_id: int) -> bool:
    """``reachable`` for a listener of the event stream, read again now (one query, no
    thread): a stream opened before the suspension ends at its next entry."""
    return await User.objects.filter(reachable_q(), pk=user_id).aexists()
