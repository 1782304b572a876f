"""What the webhooks' API takes and gives. A hook's secret leaves only in the answer that
made it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.webhooks.models import Delivery, Event, Webhook
from games.webhooks.services import EVENTS, SECRET_MAX
from guildhall_site.rest import OneOrMany, StrictBooleanField, StrictCharField, StrictChoiceField

EVENT_CHOICES = [(e.value, e.label) for e in Event if e.value in EVENTS]


class WebhookSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField(
        help_text="false: turned off (by you, or after a day of failed deliveries)."
    )
    failing_since = serializers.DateTimeField(
        allow_null=True, help_text="Every delivery has failed since then (null: none fails)."
    )
    disabled_at = serializers.DateTimeField(allow_null=True)
    token = serializers.CharField(help_text="The first characters of its API token.")
    created = serializers.DateTimeField()


class NewWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="Signs each delivery (the Guildhall-Signature header). Shown this once."
    )


class WebhookCreateSerializer(serializers.Serializer[dict[str, Any]]):
    url = StrictCharField(max_length=500, help_text="https:// only, on the public internet.")
    events = serializers.ListField(
        child=StrictChoiceField(choices=EVENT_CHOICES),
        required=False,
        help_text="What to hear of; all of them when left out.",
    )
    secret = StrictCharField(
        max_length=SECRET_MAX,
        required=False,
        trim_whitespace=False,
        help_text="Your own secret (24 to 128 characters); one is made when left out.",
    )


class WebhookUpdateSerializer(serializers.Serializer[dict[str, Any]]):
    url = StrictCharField(max_length=500, required=False)
    events = serializers.ListField(child=StrictChoiceField(choices=EVENT_CHOICES), required=False)
    active = StrictBooleanField(required=False)


class DeliverySerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField(help_text="Also the Guildhall-Delivery header.")
    event = serializers.ChoiceField(choices=Event.choices)
    payload = serializers.JSONField(help_text="The body that was posted.")
    status = serializers.ChoiceField(choices=Delivery.Status.choices)
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField(
        allow_null=True, help_text="When it is tried again (null once delivered or failed)."
    )
    response_status = serializers.IntegerField(
        allow_null=True, help_text="The HTTP status of the last answer (null: none came)."
    )
    response_body = serializers.CharField(help_text="The start of the last answer's body.")
    error = serializers.CharField(help_text="Why no answer came, if none did.")
    duration_ms = serializers.IntegerField(allow_null=True)
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)


def hook_data(hook: Webhook, secret: bool = False) -> dict[str, Any]:
    data = {
        "id": hook.pk,
        "url": hook.url,
        "events": hook.events,
        "active": hook.active,
        "failing_since": hook.failing_since,
        "disabled_at": hook.disabled_at,
        "token": hook.token.token_key,
        "created": hook.created,
    }
    if secret:
        data["secret"] = hook.secret
    return data


def delivery_data(row: Delivery) -> dict[str, Any]:
    waiting = row.status in (Delivery.Status.QUEUED, Delivery.Status.SENDING)
    return {
        "id": row.pk,
        "event": row.event,
        "payload": row.payload,
        "status": row.status,
        "attempts": row.attempts,
        "next_attempt_at": row.next_attempt_at if waiting else None,
        "response_status": row.response_status,
        "response_body": row.response_body,
        # One reason for every failure (rows from before kept the raw error: never shown).
        "error": _("No answer: the receiver could not be reached.") if row.error else "",
        "duration_ms": row.duration_ms if row.response_status is not None else None,
        "created": row.created,
        "finished": row.finished,
    }
