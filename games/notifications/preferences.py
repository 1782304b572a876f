"""Who wants which email, and the signed one-click unsubscribe links.

Emails come in five categories, each with its own preference on ``accounts.User`` and its own
unsubscribe link: a link says "stop this category for this user", signed with
``django.core.signing`` so that it works without logging in and cannot be made for anyone
else or any other category.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from accounts.models import User
from games.notifications.models import Notification

Kind = Notification.Kind

TURN, REMINDERS, DEADLINES, GAMES, INVITATIONS = (
    "turn",
    "reminders",
    "deadlines",
    "games",
    "invitations",
)

CATEGORY = {
    Kind.TURN: TURN,
    Kind.DIGEST: TURN,
    Kind.REMINDER: REMINDERS,
    Kind.WEEKLY: REMINDERS,
    Kind.DEADLINE_24H: DEADLINES,
    Kind.DEADLINE_1H: DEADLINES,
    Kind.STARTED: GAMES,
    Kind.FINISHED: GAMES,
    Kind.ABANDONED: GAMES,
    Kind.INVITATION: INVITATIONS,
}

# What the confirmation page says is stopped.
DESCRIPTION = {
    TURN: "emails telling you it is your turn (each turn, or the daily digest)",
    REMINDERS: "reminders about games waiting for you",
    DEADLINES: "warnings before your time to move runs out",
    GAMES: "emails when a game starts or ends, or a player drops out",
    INVITATIONS: "emails about invitations to games",
}

_SALT = "notifications.unsubscribe"


def wants(user: User, kind: str) -> bool:
    """Does ``user`` want emails of this kind at all (whatever the game's state)?"""
    if not user.can_receive_email or not user.is_active:
        return False
    if kind == Kind.TURN:
        return user.turn_emails == User.TurnEmails.EACH_TURN
    if kind == Kind.DIGEST:
        return user.turn_emails == User.TurnEmails.DAILY_DIGEST
    if kind == Kind.REMINDER:
        return user.reminder_after_hours is not None
    if kind == Kind.WEEKLY:
        return user.weekly_reminders
    if CATEGORY[kind] == DEADLINES:
        return user.deadline_emails
    if CATEGORY[kind] == GAMES:
        return user.game_emails
    if kind == Kind.INVITATION:
        return user.invitation_emails
    raise ValueError(f"unknown kind {kind!r}")


def unsubscribe(user: User, category: str) -> None:
    """Stop every email of ``category`` for ``user``."""
    fields = {
        TURN: {"turn_emails": User.TurnEmails.NEVER},
        REMINDERS: {"reminder_after_hours": None, "weekly_reminders": False},
        DEADLINES: {"deadline_emails": False},
        GAMES: {"game_emails": False},
        INVITATIONS: {"invitation_emails": False},
    }[category]
    for name, value in fields.items():
        setattr(user, name, value)
    user.save(update_fields=list(fields))


def unsubscribe_token(user: User, category: str) -> str:
    return signing.dumps([user.pk, category], salt=_SALT)


def read_unsubscribe_token(token: str) -> tuple[User, str] | None:
    """The user and category a token names, or None if it was not made by us."""
    try:
        user_id, category = signing.loads(token, salt=_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if category not in DESCRIPTION:
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    return None if user is None else (user, category)


def unsubscribe_url(user: User, category: str) -> str:
    path = reverse("notifications:unsubscribe", args=[unsubscribe_token(user, category)])
    return settings.SITE_URL + path
