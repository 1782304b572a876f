"""A webhook (an HTTPS address a token's owner registered, with the secret that signs what
is sent there) and its deliveries: one row per event it is told of, made once (unique per
hook and event key), claimed, sent, retried and kept as it went (the last ones per hook)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken


class Event(models.TextChoices):
    TURN = "turn", _("Your turn")
    GAME_STARTED = "game_started", _("A game started")
    GAME_OVER = "game_over", _("A game ended")
    INVITATION = "invitation", _("An invitation for you")
    CHAT = "chat", _("A line in a game's chat")
    PING = "ping", _("A test delivery")


class Webhook(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    # Revoking the token removes its hooks: whoever held it hears nothing more.
    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    # Signs every delivery (HMAC-SHA256); shown to its owner once, never in a payload.
    secret = models.CharField(max_length=128)
    events = models.JSONField()  # the Event values it is told of
    active = models.BooleanField(default=True)
    # The first failure since its last success: a day of them turns the hook off.
    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["token", "url"], name="one_webhook_per_token_url")
        ]

    def __str__(self) -> str:
        return f"Webhook {self.pk} of {self.user} to {self.url}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"  # to be sent at next_attempt_at
        SENDING = "sending"  # claimed by a worker until lease_until
        DELIVERED = "delivered"
        FAILED = "failed"  # a day of failures, or the hook was turned off

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20, choices=Event.choices)
    # What makes the event one: "turn:<game>:<wait version>", "chat:<game>:<line>"...
    key = models.CharField(max_length=80)
    payload = models.JSONField()  # what is posted: never a secret
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    lease_until = models.DateTimeField(null=True, blank=True)
    claim = models.UUIDField(default=uuid.uuid4)
    # The receiver's last answer (or why there was none).
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.CharField(max_length=500, blank=True, default="")
    error = models.CharField(max_length=200, blank=True, default="")
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "key"], name="one_delivery_per_event")
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"Delivery {self.pk} ({self.key}) to webhook {self.webhook_id}: {self.status}"
