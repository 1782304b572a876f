"""A player's friends, read (``Friendship``; added and removed by
``games.community.friends.actions``): friends come first when naming invitees, the lobby can
show their open invitations alone, and the dashboard shows their games to watch."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.community.models import Friendship


def friends(user: User) -> list[User]:
    """``user``'s friends, by name."""
    if not user.is_authenticated:
        return []
    mine = Friendship.objects.filter(user=user).values("friend_id")
    found = User.objects.filter(pk__in=mine, is_active=True)
    return sorted(found, key=lambda u: u.name.casefold())


def friend_ids(user: User) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Friendship.objects.filter(user=user).values_list("friend_id", flat=True))


def is_friend(user: User | AnonymousUser, other: User) -> bool:
    return user.is_authenticated and Friendship.objects.filter(user=user, friend=other).exists()
