"""Who hears of a new message between players, and when: the task a message queues by name
after its commit (``games.community.messages``), and the sweep that finds messages whose task was
never queued (a broker down at the commit). What a notice says, and whether it is still due
when its time comes: ``games.notifications.messages``.

A recipient needs a new notice of a conversation when a message of the other player that
they have not read is newer than their newest notice of it, and no notice of theirs is still
waiting (queued or deferred: it tells of every unread message when it goes, since its words
are made then). That rule decides alike for the task and for the sweep, under the
conversation's row lock, so that deciding twice makes nothing twice. Then: an email if they
want messages' emails (``User.message_emails``), a push to each device if they want those
(``User.push_message``). Delivery, retries and the sweeps of deferred and stalled rows are
every notification's (``games.notifications.delivery``, ``tasks``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import Task, shared_task
from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.community.messages import reads as pm
from games.community.models import Conversation, Message
from games.notifications import preferences, push
from games.notifications.models import Notification
from games.notifications.rows import record
from games.notifications.tasks import NOTIFY_TASK, deliver_all, send_notification

log = logging.getLogger(__name__)

Kind = Notification.Kind
Status = Notification.Status

Recorded = list[tuple[Notification, bool]]

# The sweep looks at messages of this long ago (older ones are old news), from this long ago
# (so that a message's own task comes first).
SWEEP_SINCE = timedelta(days=2)
SWEEP_AFTER = timedelta(minutes=2)


def _needs_notice(conversation: Conversation, user: User) -> bool:
    """Whether a message ``user`` has not read is newer than their newest notice of the
    conversation, with no notice of theirs still waiting."""
    rows = Notification.objects.filter(kind=Kind.MESSAGE, user=user, turn=conversation.pk)
    if rows.filter(status__in=[Status.QUEUED, Status.DEFERRED]).exists():
        return False
    unread = pm.unread_in(conversation, user)
    last = rows.aggregate(last=Max("created"))["last"]
    if last is not None:
        unread = unread.filter(created__gt=last)
    return unread.exists()


def message_notifications(conversation_id: int) -> Recorded:
    """The notices the conversation calls for now: for each of its players with unread
    messages newer than their newest notice of it and no notice waiting, the next one."""
    recorded: Recorded = []
    with transaction.atomic():
        conversation = (
            Conversation.objects.select_for_update()
            .filter(pk=conversation_id)
            .select_related("user_a", "user_b")
            .first()
        )
        if conversation is None:
            return []
        for user in (conversation.user_a, conversation.user_b):
            wants_email = preferences.wants(user, Kind.MESSAGE)
            if not (wants_email or push.wants(user, Kind.MESSAGE)):
                continue
            if not _needs_notice(conversation, user):
                continue
            rows = Notification.objects.filter(kind=Kind.MESSAGE, user=user, turn=conversation.pk)
            number = (rows.aggregate(n=Max("number"))["n"] or 0) + 1
            key: dict[str, Any] = {"turn": conversation.pk, "number": number}
            if wants_email:
                recorded.append(record(Kind.MESSAGE, user, **key))
            recorded += push.record(Kind.MESSAGE, user, **key)
    return recorded


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_message")
def notify_message(self: Task[Any, Any], conversation_id: int) -> list[str]:
    recorded = message_notifications(conversation_id)
    return deliver_all(self, [row.pk for row, _ in recorded])


def unheard(now: datetime) -> list[int]:
    """Conversations with a message (of the last two days, older than two minutes) that its
    reader, who wants to hear of messages, has not read and has no notice of since."""
    wanting = preferences.wanting(Kind.MESSAGE) | push.wanting(Kind.MESSAGE)
    reader = Q(
        Q(conversation__user_a=F("sender"))
        & Exists(User.objects.filter(wanting, pk=OuterRef("conversation__user_b")))
        & (Q(conversation__b_read_at__isnull=True) | Q(conversation__b_read_at__lt=F("created")))
    ) | Q(
        Q(conversation__user_b=F("sender"))
        & Exists(User.objects.filter(wanting, pk=OuterRef("conversation__user_a")))
        & (Q(conversation__a_read_at__isnull=True) | Q(conversation__a_read_at__lt=F("created")))
    )
    told = Notification.objects.filter(
        kind=Kind.MESSAGE, turn=OuterRef("conversation_id"), created__gte=OuterRef("created")
    ).exclude(user=OuterRef("sender"))
    found = (
        Message.objects.filter(
            reader, created__range=(now - SWEEP_SINCE, now - SWEEP_AFTER), hidden=False
        )
        .exclude(Exists(told))
        .values_list("conversation_id", flat=True)
        .distinct()
    )
    return list(found)


@shared_task(name="games.tasks.sweep_unqueued_message_notices")
def sweep_unqueued_message_notices(now: datetime | None = None) -> int:
    """The notices of messages whose task was never queued (the broker was down at the
    commit): recorded as the task would have, and queued."""
    now = now or timezone.now()
    new = [
        row
        for conversation_id in unheard(now)
        for row, created in message_notifications(conversation_id)
        if created
    ]
    for row in new:
        send_notification.delay(row.pk)
    if new:
        log.info("Message notices never queued, found by the sweep: %s", len(new))
    return len(new)
