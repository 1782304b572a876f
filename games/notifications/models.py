"""The record of every email the site decided to send, one row per notification.

A row is keyed by kind, player, game (or invitation) and turn, under a unique constraint, so
that deciding twice to send the same notification (a task run twice, two sweeps) finds the
same row. A push notification has a row of its own for each device (``PushSubscription``)
it goes to, keyed by that device instead of the player. The row is claimed before the email
(or push) is sent and marked sent after (``games.notifications.delivery``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Notification(models.Model):
    class Kind(models.TextChoices):
        STARTED = "started", "Game started"
        TURN = "turn", "Your turn"
        DIGEST = "digest", "Daily digest"
        REMINDER = "reminder", "Reminder"
        WEEKLY = "weekly", "Weekly reminder"
        DEADLINE_24H = "deadline_24h", "24 hours left"
        DEADLINE_1H = "deadline_1h", "1 hour left"
        FINISHED = "finished", "Game over"
        ABANDONED = "abandoned", "Player dropped out"
        INVITATION = "invitation", "Invitation"
        CHAT = "chat", "Game chat"
        MESSAGE = "message", "Message"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"  # to send; nobody holds it
        SENDING = "sending", "Sending"  # a worker holds it until lease_until
        DEFERRED = "deferred", "Deferred"  # the player was on the game: look again later
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"  # no longer due when its turn came (see note)
        FAILED = "failed", "Failed"  # the mail server refused it too many times

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        PUSH = "push", "Push"  # to one device: ``subscription``

    DONE = (Status.SENT, Status.SKIPPED, Status.FAILED)

    kind = models.CharField(max_length=16, choices=Kind.choices)
    channel = models.CharField(max_length=5, choices=Channel.choices, default=Channel.EMAIL)
    # The device of a push (one row per device, each claimed and sent on its own); null for an
    # email, and for a push whose device has gone since (the row stays as a record).
    subscription = models.ForeignKey(
        "PushSubscription",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="notifications",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    invitation = models.ForeignKey(
        "games.Invitation", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Which one: for a game, the turn (Game.turn_version of the wait it is about, 0 for the
    # whole game); for a daily digest, the day (date.toordinal() in the user's zone).
    turn = models.PositiveIntegerField(default=0)
    # Which one within that turn: the week of waiting (weekly reminders), the seat that
    # dropped out (abandoned); 0 otherwise.
    number = models.PositiveIntegerField(default=0)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Set while a worker holds the row: only that worker may mark it sent.
    token = models.UUIDField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # When the sweep should look at a queued or deferred row again.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # A push's answer button was used (games.notifications.push_answers): its token is spent.
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user", "game", "turn", "number"],
                condition=Q(game__isnull=False, channel="email"),
                name="one_notification_per_game_turn",
            ),
            models.UniqueConstraint(
                fields=["kind", "user", "invitation"],
                condition=Q(invitation__isnull=False, channel="email"),
                name="one_notification_per_invitation",
            ),
            models.UniqueConstraint(
                fields=["kind", "user", "turn", "number"],
                condition=Q(game__isnull=True, invitation__isnull=True, channel="email"),
                name="one_notification_per_user_day",
            ),
            # A push: once per device.
            models.UniqueConstraint(
                fields=["kind", "subscription", "game", "turn", "number"],
                condition=Q(game__isnull=False, subscription__isnull=False),
                name="one_push_per_game_turn",
            ),
            models.UniqueConstraint(
                fields=["kind", "subscription", "invitation"],
                condition=Q(invitation__isnull=False, subscription__isnull=False),
                name="one_push_per_invitation",
            ),
        ]

    def __str__(self) -> str:
        about = f"game {self.game_id} turn {self.turn}" if self.game_id else f"#{self.turn}"
        return f"{self.kind} {self.channel} to {self.user_id} ({about}): {self.status}"


class PushSubscription(models.Model):
    """One browser (a device) that receives Web Push notifications for its user.

    What the browser's ``PushManager.subscribe()`` gave: the push service's ``endpoint`` (a
    URL that only the push service and we know) and the keys that encrypt each message for
    that browser alone (RFC 8291). Made and removed from the settings page
    (``games.notifications.push_views``); deleted when the push service says it is gone
    (404 or 410).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's public key (P-256, uncompressed point) and its auth secret, base64url.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    # What the player sees in the list: browser and system, from the User-Agent.
    label = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.label or 'device'} of {self.user_id}"

    @property
    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush (and the browser's toJSON()) writes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
