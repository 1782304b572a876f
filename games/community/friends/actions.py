"""A player's friends (``Friendship``): added from a profile in one direction, with nothing
to accept and nothing told to the friend (read through ``games.community.friends.reads``).

Only people have friends and are friends: not oneself, not a computer player's account, not
an account that can no longer log in. A player has at most ``MAX_FRIENDS``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.community.models import Friendship

MAX_FRIENDS = 500


def do_add_friend(user: User, other: User) -> bool:
    """Make ``other`` a friend of ``user``; False if they already were. ``ValidationError``
    for oneself, a computer player, an account that cannot log in, or too many friends."""
    if other.pk == user.pk:
        raise ValidationError(_("You cannot be your own friend here."))
    if other.is_computer or not other.is_active:
        raise ValidationError(_("Only people can be friends."))
    if Friendship.objects.filter(user=user).count() >= MAX_FRIENDS:
        raise ValidationError(
            _("You have %(most)d friends already, the most there can be.") % {"most": MAX_FRIENDS}
        )
    try:
        with transaction.atomic():
            Friendship.objects.create(user=user, friend=other)
    except IntegrityError:
        return False  # already a friend (two taps at once)
    return True


def do_remove_friend(user: User, other: User) -> bool:
    """``other`` no longer a friend of ``user``; False if they were not one."""
    deleted, _rows = Friendship.objects.filter(user=user, friend=other).delete()
    return bool(deleted)
