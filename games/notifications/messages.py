"""Notices of messages between players (``games.community.messages``): what a notice says and
whether it is still due when its time comes. Recording them, their task and their sweep are
``games.notifications.message_events``.

A notice is a ``Notification`` of kind ``message`` with neither game nor invitation, whose
``turn`` is the conversation's id and ``number`` numbers the recipient's notices of that
conversation (1, 2, ...): an email is unique by that key (the constraint
``one_notification_per_user_day``), a push once per device and number (recorded under the
conversation's row lock).

When its time comes a notice tells of the messages its recipient has not read (from the
other player, not hidden, not from a player they blocked), and is skipped if there are none;
it waits while they have the conversation open (read a moment ago: ``ACTIVE_WINDOW``), and
until a quarter hour (``BATCH``) after their last notice of the conversation on the same
channel (email, or that device). Only the conversation's two players are ever told of it,
and only its messages.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import ngettext

from games.community.messages import reads as pm
from games.community.models import Conversation, Message
from games.notifications.due import ACTIVE_WINDOW, Defer, Skip
from games.notifications.models import Notification

Kind = Notification.Kind

# At most one notice of a conversation per recipient and channel in this time.
BATCH = timedelta(minutes=15)
# Messages a notice quotes (the newest); it counts the others.
QUOTED = 5
# Characters of a message a push shows.
PUSH_BODY = 140


def conversation_url(conversation_id: int) -> str:
    return settings.SITE_URL + reverse("accounts:conversation", args=[conversation_id])


def check(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    """Whether the notice of ``row`` is due now: the context its email or push needs."""
    conversation = (
        Conversation.objects.filter(pk=row.turn).select_related("user_a", "user_b").first()
    )
    user = row.user
    if conversation is None or user.pk not in (conversation.user_a_id, conversation.user_b_id):
        return Skip("not a player of this conversation")
    read_at = conversation.read_at(user.pk)
    if read_at is not None and read_at > now - ACTIVE_WINDOW:
        return Defer(read_at + ACTIVE_WINDOW, "the player has the conversation open")
    previous = (
        Notification.objects.filter(
            kind=Kind.MESSAGE,
            user=user,
            turn=row.turn,
            channel=row.channel,
            subscription_id=row.subscription_id,
            status=Notification.Status.SENT,
        )
        .exclude(pk=row.pk)
        .aggregate(last=Max("sent_at"))["last"]
    )
    if previous is not None and previous + BATCH > now:
        return Defer(previous + BATCH, "a notice of this conversation went out a moment ago")
    unread = pm.unread_in(conversation, user).order_by("-created", "-pk")
    newest: list[Message] = list(unread.select_related("sender")[:QUOTED])
    if not newest:
        return Skip("the player has read every message")
    count = unread.count() if len(newest) == QUOTED else len(newest)
    return {
        "conversation": conversation,
        "sender": pm.other_of(conversation, user),
        "messages": newest[::-1],
        "count": count,
    }


def email_context(found: dict[str, Any]) -> dict[str, Any]:
    """What the email templates (``notifications/email/message.*``) show."""
    conversation: Conversation = found["conversation"]
    return {
        "sender_name": found["sender"].name_with_username,
        "messages": found["messages"],
        "count": found["count"],
        "more": found["count"] - len(found["messages"]),
        "url": conversation_url(conversation.pk),
    }


def subject(c: dict[str, Any]) -> str:
    return ngettext(
        "%(name)s sent you a message",
        "%(name)s sent you %(count)d messages",
        c["count"],
    ) % {"name": c["sender_name"], "count": c["count"]}


def payload(found: dict[str, Any]) -> dict[str, str]:
    """A push: who wrote, the newest message's start, the conversation's link."""
    conversation: Conversation = found["conversation"]
    newest: Message = found["messages"][-1]
    return {
        "title": ngettext(
            "%(name)s sent you a message",
            "%(name)s sent you %(count)d messages",
            found["count"],
        )
        % {"name": found["sender"].name, "count": found["count"]},
        # Written by a player to this reader; cut to what a notice shows.
        "body": Truncator(newest.text).chars(PUSH_BODY),
        "url": conversation_url(conversation.pk),
        "tag": f"message-{conversation.pk}",
    }
