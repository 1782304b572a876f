"""Blocking a player (``Block``): kept away from the one who blocked them, who may unblock
them at any time.

A blocked player cannot invite the blocker, message them, join their open invitations or be
seated with them by an open invitation (either way round: neither joins an invitation the
other is in), and their chat lines in shared games are hidden from the blocker, with a count.
Nothing tells the blocked player: refusals name no reason, and the blocker's open invitations
are not listed for them at all.

Only people block and are blocked (not oneself, not a computer player's account). A player
blocks at most ``MAX_BLOCKS``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import Block, User

MAX_BLOCKS = 1000


def blocked_ids(user: User) -> set[int]:
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


def is_blocked(user: User, other: User) -> bool:
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


def do_block(user: User, other: User) -> bool:
    """``user`` blocks ``other``; False if they already had. ``ValidationError`` for oneself,
    a computer player or too many blocks. A blocked friend is a friend no more."""
    if other.pk == user.pk:
        raise ValidationError(_("You cannot block yourself."))
    if other.is_computer:
        raise ValidationError(_("Computer players cannot be blocked; play with others instead."))
    if Block.objects.filter(user=user).count() >= MAX_BLOCKS:
        raise ValidationError(
            _("You have blocked %(most)d players already, the most there can be.")
            % {"most": MAX_BLOCKS}
        )
    try:
        with transaction.atomic():
            Block.objects.create(user=user, blocked=other)
            user.friendships.filter(friend=other).delete()
    except IntegrityError:
        return False  # blocked already (two taps at once)
    return True


def do_unblock(user: User, other: User) -> bool:
    """``user`` no longer blocks ``other``; False if they did not."""
    deleted, _rows = Block.objects.filter(user=user, blocked=other).delete()
    return bool(deleted)
