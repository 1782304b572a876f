"""Blocking a player (``Block``): kept away from the one who blocked them, who may unblock
them at any time.

A blocked player cannot invite the blocker, message them, join their open invitations or be
seated with them by an open invitation (either way round: neither joins an invitation the
other is in), and their chat lines in shared games are hidden from the blocker, with a count.
Nothing tells the blocked player: refusals name no reason, and the blocker's open invitations
are not listed for them at all.

Only people block and are blocked (not oneself, not a computer player's account). A player
blocks at most ``MAX_BLOCKS``. Who blocked whom is read through ``games.community.blocks.reads``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.community.models import Block, Friendship

MAX_BLOCKS = 1000


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
            Friendship.objects.filter(user=user, friend=other).delete()
    except IntegrityError:
        return False  # blocked already (two taps at once)
    return True


def do_unblock(user: User, other: User) -> bool:
    """``user`` no longer blocks ``other``; False if they did not."""
    deleted, _rows = Block.objects.filter(user=user, blocked=other).delete()
    return bool(deleted)
