from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "email", "display_name", "is_guest", "date_joined", "is_staff"]
    list_filter = ["is_guest", *BaseUserAdmin.list_filter]
    fieldsets = [
        *BaseUserAdmin.fieldsets,
        (
            "Guildhall",
            {
                "fields": [
                    "display_name",
                    "time_zone",
                    "language",
                    "turn_emails",
                    "reminder_after_hours",
                    "is_guest",
                ]
            },
        ),
    ]
