from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Invitation, Move, Seat


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = (
        "number",
        "user",
        "deciding",
        "deciding_since",
        "deadline",
        "resigned",
        "abandoned",
        "cancel_vote",
        "rank",
        "score",
    )
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("pk", "kind", "status", "version", "updated")
    list_filter = ("kind", "status")
    # The seed, the snapshot and the private records not yet public hold hidden
    # information: not even staff pages show them.
    exclude = ("seed", "snapshot", "drafts", "stamp")
    readonly_fields = ("kind", "options", "names", "status", "version", "move_days", "finished")
    inlines = [SeatInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ("pk", "kind", "creator", "players", "status", "created")
    list_filter = ("kind", "status")
    raw_id_fields = ("creator", "invitees", "game")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("game", "number", "seat", "automatic", "created")
    # Events hold drawn cards, and an action may be a choice not yet revealed; moves are
    # append-only.
    exclude = ("events", "action")
    readonly_fields = ("game", "number", "seat", "automatic")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False
