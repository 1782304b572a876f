"""The messages between players (``accounts.messages``) as reports and moderators see them."""

from __future__ import annotations

from accounts.models import User


def received(user: User, message_id: str) -> tuple[int, User, str] | None:
    """The message ``message_id`` if ``user`` received it: its id, its author, its text."""
    from accounts import messages  # the messages' own module, read when a report needs it

    return messages.reportable(user, message_id)


def hide(message_id: int) -> int:
    """The message hidden for everyone: 1, or 0 if it was hidden already."""
    from accounts import messages

    return messages.hide(message_id)
