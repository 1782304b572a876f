"""Who blocked whom (``Block``; made and undone by ``games.community.blocks.actions``): the
invitations, the messages and the chat keep blocked players apart with these."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q

from accounts.models import User
from games.community.models import Block


def blocked_ids(user: User | AnonymousUser) -> set[int]:
    """The players ``user`` blocked."""
    if not user.is_authenticated:
        return set()
    return set(Block.objects.filter(user=user).values_list("blocked_id", flat=True))


def blocked_users(user: User) -> list[User]:
    """The players ``user`` blocked, by name (their own settings page lists them)."""
    if not user.is_authenticated:
        return []
    found = User.objects.filter(pk__in=Block.objects.filter(user=user).values("blocked_id"))
    return sorted(found, key=lambda u: u.name.casefold())


def is_blocked(user: User | AnonymousUser, other: User) -> bool:
    """Whether ``user`` blocked ``other``."""
    return user.is_authenticated and Block.objects.filter(user=user, blocked_id=other.pk).exists()


def apart_ids(user_id: int) -> set[int]:
    """Everyone kept apart from ``user_id``: whom they blocked and who blocked them (an open
    invitation seats neither with the other)."""
    rows = Block.objects.filter(Q(user_id=user_id) | Q(blocked_id=user_id)).values_list(
        "user_id", "blocked_id"
    )
    return {a if b == user_id else b for a, b in rows}


def kept_apart(user_id: int, others: Iterable[int]) -> bool:
    """Whether ``user_id`` and any of ``others`` blocked one another."""
    others = [o for o in others if o != user_id]
    if not others:
        return False
    return Block.objects.filter(
        Q(user_id=user_id, blocked_id__in=others) | Q(user_id__in=others, blocked_id=user_id)
    ).exists()


def blockers_of(user_id: int, among: Iterable[int]) -> set[int]:
    """Those of ``among`` who blocked ``user_id``."""
    return set(
        Block.objects.filter(blocked_id=user_id, user_id__in=list(among)).values_list(
            "user_id", flat=True
        )
    )
