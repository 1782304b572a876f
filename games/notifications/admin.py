from django.contrib import admin

from games.notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["kind", "user", "game", "turn", "number", "status", "attempts", "sent_at"]
    list_filter = ["kind", "status"]
    raw_id_fields = ["user", "game", "invitation"]
    readonly_fields = [f.name for f in Notification._meta.fields]
