"""Sending a delivery: claim it, sign it, post it, keep the answer, and decide what next.

1. A conditional update claims the row (queued and due, or sending with its lease run out)
   with a fresh claim and a lease: of two workers only one goes on.
2. The body (the payload as JSON) is signed (``signing``) at the moment it is sent, and
   posted to the address checked again (``addresses.resolve``, ``sending.post``).
3. A 2xx answer delivers it. Anything else (no answer, a timeout, 3xx, 4xx, 5xx) is a
   failure: tried again after 1, 2, 4 ... minutes, then every hour, for a day after the
   event (``RETRY_FOR``); then it fails. A hook whose deliveries have all failed for a day
   is turned off, its waiting deliveries failed, and its owner told by email.
4. Each answer (status, the start of its body, or why there was none) is kept on the row:
   the owner reads their hook's latest ``KEEP`` deliveries in the API.

A receiver may see a delivery twice (a worker that died after posting and before step 3
committed: the lease runs out and it is sent again, with the same ``Guildhall-Delivery``
id): receivers dedupe by that id, as with any webhook.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import reach
from games.webhooks import addresses, sending, signing
from games.webhooks.models import Delivery, Webhook

log = logging.getLogger(__name__)

Status = Delivery.Status
# Longer than a post can take (two timeouts) with room to spare.
LEASE = timedelta(minutes=2)
RETRY_FOR = timedelta(days=1)
MAX_BACKOFF = timedelta(hours=1)
# The deliveries of a hook its owner may read; older finished ones are removed (once older
# than the sweep's window, whose unique keys they still hold).
KEEP = 50
KEEP_WITHIN = timedelta(minutes=15)
USER_AGENT = "Guildhall-Webhooks/1"
# The task that runs ``deliver`` (``games.webhooks.tasks``, which imports this module): a retry
# queues it by name.
DELIVER = "games.webhooks.deliver"


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: 1, 2, 4 ... minutes, at most an hour."""
    return min(MAX_BACKOFF, timedelta(minutes=2 ** min(attempts - 1, 10)))


def body_of(delivery: Delivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()


def deliver(delivery_id: int) -> str:
    """Send the delivery if it is due and nobody else is sending it; what became of it."""
    now = timezone.now()
    claim = uuid.uuid4()
    due = Q(status=Status.QUEUED, next_attempt_at__lte=now) | Q(
        status=Status.SENDING, lease_until__lt=now
    )
    claimed = Delivery.objects.filter(due, pk=delivery_id, webhook__active=True).update(
        status=Status.SENDING, lease_until=now + LEASE, claim=claim
    )
    if not claimed:
        return "not due"
    delivery = Delivery.objects.select_related("webhook__user").get(pk=delivery_id)
    hook = delivery.webhook
    if not reach.reachable(hook.user):
        # Recorded before its owner was suspended: never sent (accounts.reach).
        Delivery.objects.filter(pk=delivery.pk, claim=claim).update(
            status=Status.FAILED, finished=now, lease_until=None
        )
        return "owner not reachable"
    body = body_of(delivery)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        signing.HEADER: signing.header(hook.secret, int(time.time()), body),
        "Guildhall-Event": delivery.event,
        "Guildhall-Delivery": str(delivery.pk),
    }
    try:
        outcome = sending.post(addresses.resolve(hook.url), body, headers)
    except ValidationError as refused:
        sending.logger.info("webhook %s refused: %s", hook.pk, " ".join(refused.messages))
        outcome = sending.unreachable()
    return _finish(delivery, claim, outcome)


def _finish(delivery: Delivery, claim: uuid.UUID, outcome: sending.Outcome) -> str:
    now = timezone.now()
    fields: dict[str, Any] = {
        "attempts": F("attempts") + 1,
        "response_status": outcome.status,
        "response_body": outcome.body,
        "error": outcome.error,
        "duration_ms": outcome.duration_ms,
        "lease_until": None,
    }
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().get(pk=delivery.webhook_id)
        if outcome.ok:
            fields.update(status=Status.DELIVERED, finished=now)
            if hook.failing_since is not None:
                hook.failing_since = None
                hook.save(update_fields=["failing_since"])
        elif now - (hook.failing_since or now) >= RETRY_FOR:
            fields.update(status=Status.FAILED, finished=now)
            _turn_off(hook, now)
        else:
            if hook.failing_since is None:
                hook.failing_since = now
                hook.save(update_fields=["failing_since"])
            if now - delivery.created >= RETRY_FOR:
                fields.update(status=Status.FAILED, finished=now)
            else:
                wait = backoff(delivery.attempts + 1)
                fields.update(status=Status.QUEUED, next_attempt_at=now + wait)
                _retry_later(delivery.pk, wait)
        Delivery.objects.filter(pk=delivery.pk, claim=claim).update(**fields)
        _prune(hook, now)
    return str(fields["status"])


def _retry_later(delivery_id: int, wait: timedelta) -> None:
    """Queue the next attempt (a worker's countdown; the sweep would find it too). Inline
    tasks never wait: they are left to the sweep."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    transaction.on_commit(
        lambda: current_app.send_task(DELIVER, (delivery_id,), countdown=wait.total_seconds()),
        robust=True,
    )


def _turn_off(hook: Webhook, now: datetime) -> None:
    hook.active = False
    hook.disabled_at = now
    hook.save(update_fields=["active", "disabled_at"])
    hook.deliveries.filter(status__in=[Status.QUEUED, Status.SENDING]).update(
        status=Status.FAILED, finished=now, lease_until=None
    )
    log.warning("webhook %s turned off after a day of failed deliveries", hook.pk)
    transaction.on_commit(lambda: _tell_owner(hook.pk), robust=True)


def _tell_owner(hook_id: int) -> None:
    hook = Webhook.objects.select_related("user", "token").get(pk=hook_id)
    user = hook.user
    if not user.email:
        return
    with translation.override(user.language or user.browser_language or settings.LANGUAGE_CODE):
        subject = _("Your webhook was turned off")
        body = _(
            "Hello %(name)s,\n\n"
            "For a day, every delivery to your webhook %(url)s (of the API token "
            '"%(token)s") failed, so we turned it off: nothing more is sent there.\n\n'
            "Its latest deliveries and the answers they got are in the API: "
            "GET %(deliveries)s\n"
            "Once the receiver answers again, turn the hook back on: "
            'PATCH %(hook)s with {"active": true}.\n'
        ) % {
            "name": user.name,
            "url": hook.url,
            "token": hook.token.name,
            "deliveries": f"{settings.SITE_URL}/api/v1/webhooks/{hook.pk}/deliveries/",
            "hook": f"{settings.SITE_URL}/api/v1/webhooks/{hook.pk}/",
        }
    send_mail(subject, body, None, [user.email])


def _prune(hook: Webhook, now: datetime) -> None:
    finished = hook.deliveries.filter(status__in=[Status.DELIVERED, Status.FAILED])
    beyond = finished.order_by("-created", "-id").values_list("pk", flat=True)[KEEP:]
    Delivery.objects.filter(pk__in=list(beyond), created__lt=now - KEEP_WITHIN).delete()
