from django.contrib import admin
from django.http import HttpRequest

from guildhall_site.upkeep.models import Announcement, BouncedAddress, MaintenanceWindow


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin[Announcement]):
    list_display = ["text", "level", "starts_at", "ends_at"]
    list_filter = ["level"]
    search_fields = ["text"]


@admin.register(BouncedAddress)
class BouncedAddressAdmin(admin.ModelAdmin[BouncedAddress]):
    """Deleting a row sends emails to the address again (the player's notice goes too)."""

    list_display = ["email", "bounced_at", "reason", "retrying"]
    search_fields = ["email"]
    readonly_fields = ["bounced_at"]


@admin.register(MaintenanceWindow)
class MaintenanceWindowAdmin(admin.ModelAdmin[MaintenanceWindow]):
    """Read-only: ``manage.py maintenance on|off`` switches it, and extends the games' clocks
    when it ends."""

    list_display = ["start", "end", "until", "message"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: MaintenanceWindow | None = None
    ) -> bool:
        return False

    def has_delete_permission(
        self, request: HttpRequest, obj: MaintenanceWindow | None = None
    ) -> bool:
        return False
