"""The webhooks' tasks: an event's deliveries (queued by the actions after their commit, by
name: ``games.play.events``), one delivery's attempt, and the sweep (beat, every minute)."""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Invitation
from games.webhooks import delivery, events
from games.webhooks.models import Delivery, Webhook

# The sweep looks for events this recent that have no delivery yet: their own task had its
# chance first (older than a minute), and an event older than that is stale news.
LOST_AFTER = timedelta(minutes=1)
LOST_WITHIN = timedelta(minutes=15)
GAME_EVENTS = tuple(events.GAME_EVENTS)


def _send(deliveries: list[Delivery]) -> int:
    for row in deliveries:
        deliver_webhook.delay(row.pk)
    return len(deliveries)


@shared_task(name="games.webhooks.game_event")
def game_event(name: str, game_id: int) -> int:
    """Record and queue the deliveries of the game's event ``name`` (turn, game_started,
    game_over, chat)."""
    return _send(events.game_events(game_id, [name]))


@shared_task(name="games.webhooks.invitation_event")
def invitation_event(invitation_id: int) -> int:
    found = Invitation.objects.filter(pk=invitation_id).first()
    return _send([] if found is None else events.invitation(found))


@shared_task(name=delivery.DELIVER)
def deliver_webhook(delivery_id: int) -> str:
    return delivery.deliver(delivery_id)


@shared_task(name="games.webhooks.sweep")
def sweep(now: datetime | None = None) -> int:
    """Queue the deliveries due (retries; those of a worker that died, once their lease ran
    out), and record those of recent events whose task was lost."""
    now = now or timezone.now()
    due = Delivery.objects.filter(
        Q(status=Delivery.Status.QUEUED, next_attempt_at__lte=now)
        | Q(status=Delivery.Status.SENDING, lease_until__lt=now),
        webhook__active=True,
    )
    queued = _send(list(due.only("pk")))
    return queued + _send(_lost(now))


def _lost(now: datetime) -> list[Delivery]:
    """The deliveries of the recent events of users with hooks that have none yet."""
    window = (now - LOST_WITHIN, now - LOST_AFTER)
    users = Webhook.objects.filter(active=True).values("user_id")
    # A line of chat leaves the game's row as it was.
    changed = Q(updated__range=window) | Q(chat_lines__created__range=window)
    games = Game.objects.filter(changed, seats__user__in=users).distinct()
    found = [
        d for pk in games.values_list("pk", flat=True) for d in events.game_events(pk, GAME_EVENTS)
    ]
    invitations = Invitation.objects.filter(
        invitees__in=users, status=Invitation.Status.OPEN, created__range=window
    ).distinct()
    return found + [d for i in invitations for d in events.invitation(i)]
