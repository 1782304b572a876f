"""The webhooks in the admin: who registered which address, whether it works, and its
deliveries; a hook can be turned off there (the secret is never shown)."""

from django.contrib import admin
from django.db import models

from games.webhooks.models import Delivery, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin[Webhook]):
    list_display = ("id", "user", "url", "active", "failing_since", "created")
    list_filter = ("active",)
    search_fields = ("user__username", "url")
    exclude = ("secret",)
    readonly_fields = ("user", "token", "failing_since", "disabled_at", "created")
    # An address typed without its scheme is an https one: hooks are delivered over https
    # (and Django 6 makes this the default).
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin[Delivery]):
    list_display = ("id", "webhook", "event", "status", "attempts", "response_status", "created")
    list_filter = ("status", "event")
    readonly_fields = [f.name for f in Delivery._meta.fields]
