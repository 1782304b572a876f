from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest
from knox.models import AuthToken as KnoxAuthToken

from accounts.models import ApiToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    list_display = ["username", "email", "display_name", "is_guest", "date_joined", "is_staff"]
    list_filter = ["is_guest", *BaseUserAdmin.list_filter]
    fieldsets = [
        # Django's UserAdmin has fieldsets (the stubs allow None, as for any ModelAdmin).
        *(BaseUserAdmin.fieldsets or ()),
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


# knox registers its own token model, which accounts.ApiToken replaces (it has no table here).
if admin.site.is_registered(KnoxAuthToken):
    admin.site.unregister(KnoxAuthToken)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    """API tokens can be seen and revoked (deleted) here; only their owners make them."""

    list_display = ["name", "token_key", "user", "created", "last_used"]
    search_fields = ["token_key", "name", "user__username"]
    # The digest (the primary key, so in the links) is a hash: not worth a column.
    # A tuple: a list of names is not the list of name-or-group that the stubs give fields.
    fields = ("name", "token_key", "user", "created", "last_used")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False
