"""The messages between players (``games.community.messages``) as reports and moderators see
them."""

from __future__ import annotations

from accounts.models import User
from games.community.messages import actions, reads


def received(user: User, message_id: str) -> tuple[int, User, str] | None:
    """The message ``message_id`` if ``user`` received it: its id, its author, its text."""
    return reads.reportable(user, message_id)


def hide(message_id: int) -> int:
    """The message hidden for everyone: 1, or 0 if it was hidden already."""
    return actions.hide(message_id)
