"""Messages between two players, read (``Conversation``, ``Message``; written by
``games.community.messages.actions``): a conversation for one of its two players, the
messages they see, what they have not read, their inbox, and a message they may report.
Messages from a player one blocked are not counted as unread; any that arrive after the block
(a race with it) are not shown at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery

from accounts.models import User
from games.community.models import Block, Conversation, Message
from guildhall_site import parsing

# Messages a page of a conversation shows (the newest; older ones a page further).
PAGE = 50


def pair(one: int, two: int) -> tuple[int, int]:
    """The two players of a conversation in its order (``user_a`` the lower id)."""
    return (one, two) if one < two else (two, one)


def conversation_with(user: User, other: User) -> Conversation | None:
    """The conversation of ``user`` and ``other``, if they have one."""
    if not user.is_authenticated or user.pk == other.pk:
        return None
    a, b = pair(user.pk, other.pk)
    return Conversation.objects.filter(user_a_id=a, user_b_id=b).first()


def conversation_of(user: User, pk: int) -> Conversation | None:
    """Conversation ``pk`` if ``user`` is one of its two players, else None (for anyone
    else it does not exist)."""
    if not user.is_authenticated:
        return None
    return (
        Conversation.objects.filter(Q(user_a=user) | Q(user_b=user), pk=pk)
        .select_related("user_a", "user_b")
        .first()
    )


def other_of(conversation: Conversation, user: User) -> User:
    return conversation.user_b if user.pk == conversation.user_a_id else conversation.user_a


def blocked_after(reader_id: int) -> Exists:
    """A message its reader blocked the sender before it came (not shown at all)."""
    return Exists(
        Block.objects.filter(
            user_id=reader_id, blocked=OuterRef("sender"), created__lt=OuterRef("created")
        )
    )


def visible(conversation: Conversation, user: User) -> QuerySet[Message]:
    """The messages of ``conversation`` that ``user`` (one of its players) sees, oldest
    first: a hidden one is listed (its place shows it was hidden), its text never shown."""
    return (
        Message.objects.filter(conversation=conversation)
        .exclude(blocked_after(user.pk))
        .select_related("sender")
        .order_by("created", "pk")
    )


def newest(
    conversation: Conversation, user: User, *, before: int | None = None, limit: int | None = None
) -> tuple[list[Message], bool]:
    """The newest ``limit`` messages ``user`` sees (before message id ``before``), oldest
    first, and whether there are earlier ones."""
    limit = limit or PAGE
    rows = visible(conversation, user).order_by("-created", "-pk")
    if before is not None:
        rows = rows.filter(pk__lt=before)
    found = list(rows[: limit + 1])
    return found[:limit][::-1], len(found) > limit


def unread(user_id: int) -> QuerySet[Message]:
    """The messages ``user_id`` has not read: from the other player, not hidden, newer than
    the reader last had the conversation open, and not from a player they blocked."""
    as_a = Q(conversation__user_a_id=user_id) & (
        Q(conversation__a_read_at__isnull=True) | Q(created__gt=F("conversation__a_read_at"))
    )
    as_b = Q(conversation__user_b_id=user_id) & (
        Q(conversation__b_read_at__isnull=True) | Q(created__gt=F("conversation__b_read_at"))
    )
    blocked = Block.objects.filter(user_id=user_id, blocked=OuterRef("sender"))
    return (
        Message.objects.filter(as_a | as_b, hidden=False)
        .exclude(sender_id=user_id)
        .exclude(Exists(blocked))
    )


def unread_in(conversation: Conversation, user: User) -> QuerySet[Message]:
    """``user``'s unread messages of ``conversation``."""
    return unread(user.pk).filter(conversation=conversation)


# The inbox ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class InboxRow:
    conversation: Conversation
    other: User
    unread: int
    last_at: datetime
    # The newest message's start (empty when it was hidden), and whether the reader wrote it.
    last_text: str
    last_hidden: bool
    last_mine: bool


def inbox(user: User) -> QuerySet[Conversation]:
    """``user``'s conversations, the newest first, each with the id of its newest message
    they see (``last_id``; ``inbox_rows`` makes a page of them into rows)."""
    newest_first = (
        Message.objects.filter(conversation=OuterRef("pk"))
        .exclude(blocked_after(user.pk))
        .order_by("-created", "-pk")
        .values("pk")[:1]
    )
    return (
        Conversation.objects.filter(Q(user_a=user) | Q(user_b=user))
        .select_related("user_a", "user_b")
        .annotate(last_id=Subquery(newest_first))
        .order_by("-last_message_at", "-pk")
    )


# Characters of the newest message an inbox row shows.
PREVIEW = 120


def inbox_rows(user: User, conversations: list[Conversation]) -> list[InboxRow]:
    """A page of ``inbox`` as its rows: the other player, the unread count, the newest
    message (two queries, whatever the page's length)."""
    ids = [c.pk for c in conversations]
    counts = dict(
        unread(user.pk)
        .filter(conversation_id__in=ids)
        .values_list("conversation_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    last_ids = [getattr(c, "last_id", None) for c in conversations]
    last = Message.objects.in_bulk([i for i in last_ids if i is not None])
    rows = []
    for c, last_id in zip(conversations, last_ids, strict=True):
        m = last.get(last_id) if last_id is not None else None
        rows.append(
            InboxRow(
                conversation=c,
                other=other_of(c, user),
                unread=counts.get(c.pk, 0),
                last_at=c.last_message_at,
                last_text="" if m is None or m.hidden else m.text[:PREVIEW],
                last_hidden=m is not None and m.hidden,
                last_mine=m is not None and m.sender_id == user.pk,
            )
        )
    return rows


# Moderation (games.community.moderation reports messages through this) -------------------------


def reportable(user: User, message_id: str) -> tuple[int, User, str] | None:
    """Message ``message_id`` if ``user`` received it and it is shown (not hidden): its id,
    its author and its text. None for any other (a message of others does not exist)."""
    pk = parsing.whole_number(message_id, minimum=1)
    if pk is None or not user.is_authenticated:
        return None
    message = (
        Message.objects.filter(pk=pk, hidden=False)
        .filter(Q(conversation__user_a=user) | Q(conversation__user_b=user))
        .exclude(sender=user)
        .select_related("sender")
        .first()
    )
    return None if message is None else (message.pk, message.sender, message.text)
