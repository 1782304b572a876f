"""Messages between two players (Yucata's and BGA's private messages): one conversation per
pair, read by its two participants alone.

A message is plain text: up to ``Message.MAX_LENGTH`` characters, with line breaks and tabs
but no other control character, and not white space only (``check_text``); shown escaped,
with links made links, never as HTML. Line breaks are stored as ``\\n``.

Who may write to whom (``check_recipient``): people only (not oneself, not a computer
player, not an account that can no longer log in), not a guest (who saves the account
first), and not to a player who blocked the writer: that refusal says no more than for an
account that cannot be written to, so nobody learns they were blocked. A player who blocked
another does not write to them either (their answer would be refused). Messages from a
player one blocked are not counted as unread and call for no notice; any that arrive after
the block (a race with it) are not shown at all.

Limits: the messages per minute are the pages' and the API's throttles (scopes "messages"
and "messages_address"); here, the conversations a player may start in a day
(``CONVERSATIONS_PER_DAY``, and ``NEW_ACCOUNT_CONVERSATIONS_PER_DAY`` while the account is
younger than ``NEW_ACCOUNT_DAYS``): ``Limited`` with the seconds to wait.

Reading: each participant's ``*_read_at`` is when they last had the conversation open
(``do_mark_read``); it says which messages they have not read, and that they are reading
now (no notice goes to them then). The count of a player's unread messages is kept on their
row (``User.unread_messages``, ``recount_unread``), so that the header shows it without a
query of its own.

A new message queues its notice task by name after the commit
(``games.notifications.message_events``: email and push as the recipient chose, batched);
this module knows nothing of the games or the notifications beyond that name.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.community.messages import reads
from games.community.models import Block, Conversation, Message
from guildhall_site.text import has_control_characters

log = logging.getLogger(__name__)

MAX_LENGTH = Message.MAX_LENGTH
# The conversation's page polls for new messages; each poll marks them read, and the read
# time is written again at most this often when there is nothing new (it also says the
# player is reading: their notices wait).
SEEN_PRECISION = timedelta(seconds=20)
DAY = timedelta(days=1)
# The task that tells the recipient (games.notifications.message_events), by name.
NOTICE_TASK = "games.tasks.notify_message"


class Limited(ValidationError):
    """Too many conversations started today: ``retry_after`` seconds until the next."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, code="limited")
        self.retry_after = retry_after


# Checks -------------------------------------------------------------------------------------


def check_text(text: str) -> str:
    """The message ``text`` will be stored as (line breaks as ``\\n``, white space around it
    dropped), or ``ValidationError`` saying what is wrong with it."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ValidationError(_("A message needs some text."), code="empty")
    if len(text) > MAX_LENGTH:
        raise ValidationError(
            _("A message holds at most %(most)d characters (this one has %(n)d).")
            % {"most": MAX_LENGTH, "n": len(text)},
            code="too_long",
        )
    if has_control_characters(text):
        raise ValidationError(_("A message may not hold control characters."), code="control")
    return text


def cannot_write(sender: User, recipient: User) -> str | None:
    """Why ``sender`` may not write to ``recipient`` (None: they may). Blocked by the
    recipient reads as any account that cannot be written to."""
    if sender.is_guest:
        return _("Save your account first: then you can write to other players.")
    if recipient.pk == sender.pk:
        return _("You cannot write to yourself.")
    if recipient.is_computer:
        return _("Computer players do not read messages.")
    if Block.objects.filter(user=sender, blocked=recipient).exists():
        return _("You blocked %(name)s: unblock them to write to them.") % {"name": recipient.name}
    if not recipient.is_active or Block.objects.filter(user=recipient, blocked=sender).exists():
        return _("You cannot write to %(name)s.") % {"name": recipient.name}
    return None


def check_recipient(sender: User, recipient: User) -> None:
    reason = cannot_write(sender, recipient)
    if reason is not None:
        raise ValidationError(reason, code="recipient")


def _check_start(sender: User, now: datetime) -> None:
    """``Limited`` if ``sender`` has started as many conversations in the last day as they
    may (fewer for a new account)."""
    new = sender.date_joined > now - timedelta(days=settings.NEW_ACCOUNT_DAYS)
    most = settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY if new else settings.CONVERSATIONS_PER_DAY
    started = list(
        Conversation.objects.filter(started_by=sender, created__gt=now - DAY)
        .order_by("created")
        .values_list("created", flat=True)
    )
    if len(started) < most:
        return
    wait = max(1, int((started[-most] + DAY - now).total_seconds()) + 1)
    if new:
        message = ngettext(
            "A new account may start %(most)d conversation a day: answer one you have, or "
            "write again later.",
            "A new account may start %(most)d conversations a day: answer one you have, or "
            "write again later.",
            most,
        )
    else:
        message = ngettext(
            "You may start %(most)d conversation a day: answer one you have, or write again later.",
            "You may start %(most)d conversations a day: answer one you have, or write again "
            "later.",
            most,
        )
    raise Limited(message % {"most": most}, wait)


# Writing ------------------------------------------------------------------------------------


def do_send(sender: User, recipient: User, text: str) -> Message:
    """``sender`` writes ``text`` to ``recipient``, in their conversation (started now if
    they have none). ``ValidationError`` for text or a recipient refused, ``Limited`` when
    the sender may start no more conversations today; nothing is stored then."""
    text = check_text(text)
    check_recipient(sender, recipient)
    a, b = reads.pair(sender.pk, recipient.pk)
    with transaction.atomic():
        # Both rows locked, in the same order by every writer: two messages between the same
        # players (either way) are written one after the other, so that the conversation is
        # made once, the day's count of new ones holds, and each unread count sees the other.
        list(User.objects.select_for_update().filter(pk__in=[a, b]).order_by("pk").values("pk"))
        # Asked again under the lock: a block made a moment ago counts.
        check_recipient(sender, recipient)
        now = timezone.now()
        conversation = Conversation.objects.filter(user_a_id=a, user_b_id=b).first()
        if conversation is None:
            _check_start(sender, now)
            conversation = Conversation.objects.create(
                user_a_id=a, user_b_id=b, started_by=sender, last_message_at=now
            )
        message = Message.objects.create(conversation=conversation, sender=sender, text=text)
        # The writer has read what they answer, and is here now.
        read_field = "a_read_at" if sender.pk == a else "b_read_at"
        Conversation.objects.filter(pk=conversation.pk).update(
            last_message_at=message.created, **{read_field: message.created}
        )
        conversation.last_message_at = message.created
        setattr(conversation, read_field, message.created)
        _store_unread(recipient.pk)
        _store_unread(sender.pk)
        _queue_notice(conversation.pk)
    return message


def _queue_notice(conversation_id: int) -> None:
    """Queue the notice task once the message is committed (a rolled-back message tells
    nobody); a broker that is down is logged, and its sweep finds the message later."""

    def queue() -> None:
        from celery import current_app

        if NOTICE_TASK not in current_app.tasks:
            current_app.loader.import_default_modules()
        current_app.tasks[NOTICE_TASK].delay(conversation_id)

    queue.__qualname__ = f"queue {NOTICE_TASK}"
    transaction.on_commit(queue, robust=True)


def _store_unread(user_id: int) -> int:
    """Count ``user_id``'s unread messages again and keep the count on their row (the caller
    holds the row's lock, or accepts a count a moment old)."""
    count = reads.unread(user_id).count()
    User.objects.filter(pk=user_id).exclude(unread_messages=count).update(unread_messages=count)
    return count


def recount_unread(user_id: int) -> int:
    """Count ``user_id``'s unread messages again, under their row's lock (after anything
    that changes which messages count: a block, a message hidden by a moderator)."""
    with transaction.atomic():
        list(User.objects.select_for_update().filter(pk=user_id).values("pk"))
        return _store_unread(user_id)


def do_mark_read(conversation: Conversation, user: User, now: datetime | None = None) -> int:
    """``user`` has conversation open now: every message in it read, and they are reading
    (their notices wait). Written when something was unread, or the stamp is older than
    ``SEEN_PRECISION``. Their unread count, afterwards."""
    now = now or timezone.now()
    field = "a_read_at" if user.pk == conversation.user_a_id else "b_read_at"
    if user.pk not in (conversation.user_a_id, conversation.user_b_id):
        raise ValueError("not a player of this conversation")
    read_at = getattr(conversation, field)
    has_unread = reads.unread_in(conversation, user).exists()
    if not has_unread and read_at is not None and read_at > now - SEEN_PRECISION:
        return user.unread_messages
    with transaction.atomic():
        list(User.objects.select_for_update().filter(pk=user.pk).values("pk"))
        # Never back in time (a message written this instant stays unread until seen).
        Conversation.objects.filter(pk=conversation.pk).filter(
            Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__lt": now})
        ).update(**{field: now})
        setattr(conversation, field, now)
        count = _store_unread(user.pk)
    user.unread_messages = count
    return count


# Counts kept right -----------------------------------------------------------------------------
# A block (or its end) changes which messages count as unread for the blocker, and a message
# hidden by a moderator counts no more: the stored counts follow (games.community.apps
# connects these). An UPDATE of many rows at once sends no signal: call recount_unread after it.


def block_changed(sender: type[Block], instance: Block, **kwargs: Any) -> None:
    recount_unread(instance.user_id)


def message_saved(sender: type[Message], instance: Message, created: bool, **kwargs: Any) -> None:
    if created:
        return  # do_send counted it
    conversation = instance.conversation
    recount_unread(conversation.other_id(instance.sender_id))


# Moderation (games.community.moderation hides messages through this) ----- ------------------------


def hide(message_id: int) -> int:
    """Message ``message_id`` hidden for everyone (its text shown to nobody): 1, or 0 if it
    was hidden already (or does not exist). Its reader's unread count follows."""
    message = Message.objects.filter(pk=message_id).select_related("conversation").first()
    if message is None:
        return 0
    changed = Message.objects.filter(pk=message_id, hidden=False).update(hidden=True)
    if changed:
        recount_unread(message.conversation.other_id(message.sender_id))
    return changed
