"""Sending each notification exactly once: claim the row, send, mark it sent.

``rows.record`` creates the row of a notification (or finds it: the unique constraint
makes deciding twice harmless). ``deliver`` then:

1. claims the row with a conditional update (status queued or deferred, or a sending row
   whose lease ran out), writing a fresh token and a lease: of two workers, only the one
   whose update changed the row goes on, the other leaves it alone;
2. reads the game again and decides whether the email is still due (``emails.prepare``):
   the turn may have passed, the player may be looking at the game (deferred), or may have
   unsubscribed (skipped);
3. sends it through Django's email backend;
4. marks it sent, with a conditional update on its own token.

If the mail server is down or answers with a temporary error, the row goes back to
queued with the next attempt after an exponential backoff, and the task retries (the move
that caused the email was committed long before: it is never touched). A permanent refusal,
or too many attempts, marks it failed.

The remaining window, honestly: a worker that dies after the mail server accepted the email
and before step 4 committed leaves a sending row, which is sent again once its lease has run
out, with the same Message-ID (mail systems that deduplicate by Message-ID then show it
once). That window is the few milliseconds between the server's "250 OK" and our UPDATE. A
worker that dies anywhere else either had not sent the email (it is sent once, after the
lease) or had marked it. A worker that is merely slow cannot lose its lease while it still
sends: Celery kills tasks after CELERY_TASK_TIME_LIMIT, which is shorter than LEASE.

A push notification (``Notification.Channel.PUSH``) goes the same way, one row per device:
``push.prepare`` decides in step 2 and step 3 posts it to the device's push service
(``games.notifications.push``). A push service that is down or answers 429 or 5xx is a
temporary failure (retried after the backoff); one that answers 404 or 410 says the device
has gone: its subscription is deleted and the row failed. A push sent again after a worker
died in the window above has the same tag and topic, so the device shows it once.
"""

from __future__ import annotations

import enum
import logging
import random
import smtplib
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.db.models import F, Q
from django.utils import timezone

from games.notifications import due, emails, push
from games.notifications.models import Notification
from guildhall_site.ops import metrics

log = logging.getLogger(__name__)

Status = Notification.Status

# How long a worker holds a row it is sending (NOTIFICATION_LEASE_SECONDS, 600). Longer than
# the task time limit (settings checks it): after it, a row whose worker died is sent again.
LEASE = timedelta(seconds=settings.NOTIFICATION_LEASE_SECONDS)
# How early a retry may come before its row's next attempt is due (clocks, countdowns).
EARLY = timedelta(seconds=5)
# After this many failed attempts an email is given up (about four hours of backoff).
MAX_ATTEMPTS = 10
MAX_DELAY = 3600  # at most an hour between tries (below Redis's visibility timeout)


class Outcome(enum.StrEnum):
    SENT = "sent"
    SKIPPED = "skipped"
    DEFERRED = "deferred"
    RETRY = "retry"  # the mail server failed: queued again for later
    FAILED = "failed"
    GONE = "gone"  # the push service no longer knows the device: failed, subscription deleted
    DONE = "done"  # already sent, skipped or failed before
    BUSY = "busy"  # another worker holds it now


def backoff(attempts: int) -> int:
    """Seconds to wait before attempt ``attempts + 1``: 1, 2, 4 ... 60 minutes (with the
    default NOTIFICATION_RETRY_SECONDS of 60), +-10%."""
    base = settings.NOTIFICATION_RETRY_SECONDS
    delay = min(MAX_DELAY, base * 2 ** max(0, attempts - 1))
    return max(1, round(float(delay) * random.uniform(0.9, 1.1)))


def _permanent(error: Exception) -> bool:
    """A 5xx answer: the server will never take this email (unknown address...); or a
    push service's refusal that trying again would not change."""
    if isinstance(error, push.PushError):
        return error.permanent
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def _finish(pk: int, token: uuid.UUID, **fields: object) -> bool:
    """Leave a row we hold (only if we still hold it)."""
    fields.setdefault("token", None)
    fields.setdefault("lease_until", None)
    return bool(Notification.objects.filter(pk=pk, token=token).update(**fields))


def deliver(
    pk: int, now: datetime | None = None, connection: BaseEmailBackend | None = None
) -> Outcome:
    """Send notification ``pk`` if it is still due and nobody else holds it."""
    now = now or timezone.now()
    token = uuid.uuid4()
    # A queued or deferred row waits for its time (a duplicate task must not hammer a mail
    # server that is down); the slack lets a Celery retry that runs a moment early through.
    waited = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now + EARLY)
    claimable = Q(waited, status__in=[Status.QUEUED, Status.DEFERRED]) | Q(
        status=Status.SENDING, lease_until__lte=now
    )
    claimed = (
        Notification.objects.filter(pk=pk)
        .filter(claimable)
        .update(
            status=Status.SENDING,
            token=token,
            lease_until=now + LEASE,
            attempts=F("attempts") + 1,
        )
    )
    if not claimed:
        status = Notification.objects.filter(pk=pk).values_list("status", flat=True).first()
        return Outcome.DONE if status in Notification.DONE else Outcome.BUSY
    row = Notification.objects.select_related("user", "game", "invitation", "subscription").get(
        pk=pk
    )
    try:
        outcome = _send(row, token, now, connection)
    except Exception:
        metrics.notification(row.channel, "error")
        raise
    metrics.notification(row.channel, outcome)
    return outcome


def _send(
    row: Notification, token: uuid.UUID, now: datetime, connection: BaseEmailBackend | None
) -> Outcome:
    """Steps 2 to 4 for a row we hold."""
    pk = row.pk
    is_push = row.channel == Notification.Channel.PUSH
    try:
        decision = due.asleep(row, now) or (
            push.prepare(row, now) if is_push else emails.prepare(row, now)
        )
    except Exception:
        # A bug or a database hiccup: try again later rather than hold the row for nothing.
        _finish(
            pk,
            token,
            status=Status.QUEUED,
            next_attempt_at=now + timedelta(seconds=backoff(row.attempts)),
        )
        raise
    if isinstance(decision, due.Skip):
        _finish(pk, token, status=Status.SKIPPED, note=decision.reason[:200])
        return Outcome.SKIPPED
    if isinstance(decision, due.Defer):
        # Looking again is not an attempt at sending.
        _finish(
            pk,
            token,
            status=Status.DEFERRED,
            next_attempt_at=decision.until,
            attempts=F("attempts") - 1,
            note=decision.reason[:200],
        )
        return Outcome.DEFERRED
    message = decision
    try:
        if isinstance(message, push.PushMessage):  # is_push: push.prepare's message
            push.send(message)
        else:
            message.connection = connection
            message.send()
    except (smtplib.SMTPException, OSError, push.PushError) as error:
        if isinstance(error, push.Gone):
            log.info("Notification %s: the push service no longer knows the device", pk)
            _finish(pk, token, status=Status.FAILED, note=str(error)[:200])
            assert isinstance(message, push.PushMessage)  # only push.send raises Gone
            push.forget(message.subscription)
            return Outcome.GONE
        if _permanent(error) or row.attempts >= MAX_ATTEMPTS:
            log.error("Giving up on notification %s after %s attempts: %s", pk, row.attempts, error)
            _finish(pk, token, status=Status.FAILED, note=str(error)[:200])
            return Outcome.FAILED
        log.warning("Notification %s: sending failed (%s), retrying later", pk, error)
        delay = timedelta(seconds=backoff(row.attempts))
        _finish(pk, token, status=Status.QUEUED, next_attempt_at=now + delay, note=str(error)[:200])
        return Outcome.RETRY
    # The mail server (or push service) has it: from here to the commit of this update is the
    # window described at the top of this module.
    if not _finish(pk, token, status=Status.SENT, sent_at=timezone.now(), note=""):
        log.error("Notification %s was sent but its lease had been taken over", pk)
    return Outcome.SENT


def retry_delay(pks: list[int], now: datetime | None = None) -> int:
    """Seconds until the earliest next attempt of these rows (a task's retry countdown)."""
    now = now or timezone.now()
    times = Notification.objects.filter(pk__in=pks, status=Status.QUEUED).values_list(
        "next_attempt_at", flat=True
    )
    earliest = min((t for t in times if t is not None), default=None)
    if earliest is None:
        return settings.NOTIFICATION_RETRY_SECONDS
    return max(1, int((earliest - now).total_seconds()))
