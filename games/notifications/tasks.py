"""Celery tasks that send notifications already recorded, and the sweep that finds the ones
whose task never came: deferred ones now due, retries that were lost, rows whose worker died.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Literal, TypedDict

from celery import Task, shared_task
from django import db
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.notifications import delivery
from games.notifications.models import Notification

log = logging.getLogger(__name__)

Status = Notification.Status

SWEEP_BATCH = 2000


# The options of every task that sends emails. No limit on retries (Celery's default is 3, and
# ``retry(max_retries=None)`` means that default): a task retries after the backoff for as long
# as one of its rows is to be tried again, which delivery.deliver decides (MAX_ATTEMPTS).
class NotifyTaskOptions(TypedDict):
    bind: Literal[True]
    max_retries: None


NOTIFY_TASK: NotifyTaskOptions = {"bind": True, "max_retries": None}


def deliver_all(task: Task[Any, Any], pks: list[int]) -> list[str]:
    """Deliver these rows; if the mail server failed for any, or sending one raised, retry
    the task after the backoff (in a worker; run inline, the sweep retries them later instead,
    so that a request never waits for a mail server)."""
    retries = not task.request.is_eager and not task.request.called_directly
    try:
        outcomes = [delivery.deliver(pk) for pk in pks]
    except Exception as error:
        if not retries:
            raise
        # A database hiccup, a bug, or the soft time limit (the hard one follows in seconds):
        # the row being sent went back to queued with its next attempt, or keeps its lease,
        # and those after it were not tried. Without a retry they would wait for the sweep's
        # stalled rows, minutes later. An interrupted query can leave the connection
        # unusable, so the countdown is read on a new one.
        log.exception("Sending notifications %s raised: the task retries", pks)
        db.connection.close()
        raise task.retry(countdown=delivery.retry_delay(pks), exc=error) from error
    failed = [pk for pk, o in zip(pks, outcomes, strict=True) if o is delivery.Outcome.RETRY]
    if failed and retries:
        raise task.retry(countdown=delivery.retry_delay(failed))
    return [str(o) for o in outcomes]


@shared_task(**NOTIFY_TASK)
def send_notification(self: Task[Any, Any], notification_id: int) -> list[str]:
    return deliver_all(self, [notification_id])


@shared_task
def sweep_notifications() -> int:
    now = timezone.now()
    # A queued row this long past its time had its task lost (a broker restart, eager mode
    # without a worker, a task killed at its time limit): the sweep sends it again.
    stalled = now - timedelta(seconds=settings.NOTIFICATION_STALLED_SECONDS)
    due = Notification.objects.filter(
        Q(status=Status.DEFERRED, next_attempt_at__lte=now)
        | Q(status=Status.QUEUED, next_attempt_at__lte=stalled)
        | Q(status=Status.QUEUED, next_attempt_at__isnull=True, created__lte=stalled)
        | Q(status=Status.SENDING, lease_until__lte=now)
    ).values_list("pk", flat=True)[:SWEEP_BATCH]
    pks = list(due)
    for pk in pks:
        send_notification.delay(pk)
    if pks:
        log.info("Notification sweep: %s emails to look at again", len(pks))
    return len(pks)
