"""Who wants which email, and the signed one-click unsubscribe links.

Emails come in five categories, each with its own preference on ``accounts.User`` and its own
unsubscribe link: a link says "stop this category for this user", signed with
``django.core.signing`` so that it works without logging in and cannot be made for anyone
else or any other category.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts import reach
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
CHAT = "chat"
MESSAGES = "messages"

CATEGORY: dict[str, str] = {
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
    Kind.CHAT: CHAT,
    Kind.MESSAGE: MESSAGES,
}

# What the confirmation page (and each email's unsubscribe link) says is stopped; translated
# where shown, in the reader's language.
DESCRIPTION = {
    TURN: gettext_lazy("emails telling you it is your turn (each turn, or the daily digest)"),
    REMINDERS: gettext_lazy("reminders about games waiting for you"),
    DEADLINES: gettext_lazy("warnings before your time to move runs out"),
    GAMES: gettext_lazy("emails when a game starts or ends, or a player drops out"),
    INVITATIONS: gettext_lazy("emails about invitations to games"),
    CHAT: gettext_lazy("emails about new lines in your games' chats"),
    MESSAGES: gettext_lazy("emails about messages other players send you"),
}

_SALT = "notifications.unsubscribe"


# The preference that decides each kind: the field of ``accounts.User`` and the value that
# says yes (SET: any value but None). ``wants`` reads it for one user, ``wanting`` in a query.
SET = object()
_WANTS: dict[str, tuple[str, object]] = {
    Kind.TURN: ("turn_emails", User.TurnEmails.EACH_TURN),
    Kind.DIGEST: ("turn_emails", User.TurnEmails.DAILY_DIGEST),
    Kind.REMINDER: ("reminder_after_hours", SET),
    Kind.WEEKLY: ("weekly_reminders", True),
    Kind.DEADLINE_24H: ("deadline_emails", True),
    Kind.DEADLINE_1H: ("deadline_emails", True),
    Kind.STARTED: ("game_emails", True),
    Kind.FINISHED: ("game_emails", True),
    Kind.ABANDONED: ("game_emails", True),
    Kind.INVITATION: ("invitation_emails", True),
    Kind.CHAT: ("chat_emails", True),
    Kind.MESSAGE: ("message_emails", True),
}


def _preference(kind: str) -> tuple[str, object]:
    try:
        return _WANTS[kind]
    except KeyError:
        raise ValueError(f"unknown kind {kind!r}") from None


def wants(user: User, kind: str) -> bool:
    """Does ``user`` want emails of this kind at all (whatever the game's state)?"""
    field, yes = _preference(kind)
    if not user.can_receive_email or not reach.reachable(user):
        return False
    value = getattr(user, field)
    return value is not None if yes is SET else value == yes


def wanting(kind: str, prefix: str = "") -> Q:
    """``wants`` as a condition on users; ``prefix`` reaches them from another model
    ("user__" from a seat)."""
    field, yes = _preference(kind)
    lookup = {f"{prefix}{field}__isnull": False} if yes is SET else {prefix + field: yes}
    # can_receive_email and reachable, as in wants()
    able = Q(**{f"{prefix}is_guest": False}) & reach.reachable_q(prefix)
    return able & Q(**lookup) & ~Q(**{f"{prefix}email": ""})


def unsubscribe(user: User, category: str) -> None:
    """Stop every email of ``category`` for ``user``."""
    by_category: dict[str, dict[str, object]] = {
        TURN: {"turn_emails": User.TurnEmails.NEVER},
        REMINDERS: {"reminder_after_hours": None, "weekly_reminders": False},
        DEADLINES: {"deadline_emails": False},
        GAMES: {"game_emails": False},
        INVITATIONS: {"invitation_emails": False},
        CHAT: {"chat_emails": False},
        MESSAGES: {"message_emails": False},
    }
    fields = by_category[category]
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
