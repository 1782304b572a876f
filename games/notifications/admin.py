from django.contrib import admin

from games.notifications.models import Notification, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = [
        "kind",
        "channel",
        "user",
        "game",
        "turn",
        "number",
        "status",
        "attempts",
        "sent_at",
    ]
    list_filter = ["kind", "channel", "status"]
    raw_id_fields = ["user", "game", "invitation", "subscription"]
    readonly_fields = [f.name for f in Notification._meta.fields]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ["user", "label", "created", "last_success"]
    raw_id_fields = ["user"]
    search_fields = ["user__username", "label"]
    readonly_fields = ["endpoint", "p256dh", "auth", "created", "last_success"]
