"""A notification's row: made once per notification (``record``: deciding twice is
harmless, the unique constraint finds the row already there), and named the same at every
attempt (``message_id``). Email (``emails``), push (``push``) and their delivery
(``delivery``) all build on these; nothing here imports them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import User
from games.models import Game, Invitation
from games.notifications.models import Notification, PushSubscription


def record(
    kind: str,
    user: User,
    *,
    game: Game | None = None,
    invitation: Invitation | None = None,
    turn: int = 0,
    number: int = 0,
    subscription: PushSubscription | None = None,
) -> tuple[Notification, bool]:
    """The row of this notification, created queued if there is none yet; and whether it
    was created now. An email, or with ``subscription`` a push to that device."""
    key: dict[str, Any] = {"kind": kind, "user": user, "game": game, "invitation": invitation}
    key |= {"turn": turn, "number": number, "subscription": subscription}
    push_row = subscription is not None
    key["channel"] = Notification.Channel.PUSH if push_row else Notification.Channel.EMAIL
    try:
        with transaction.atomic():
            return Notification.objects.get_or_create(**key)
    except IntegrityError:
        # Another worker created it between our read and our insert.
        return Notification.objects.get(**key), False


def message_id(row: Notification) -> str:
    """The same for every attempt at one notification, so that a resend is recognisable."""
    domain = settings.SITE_URL.split("://", 1)[1].split("/")[0].split(":")[0] or "localhost"
    return f"<guildhall.{row.kind}.{row.pk}@{domain}>"
