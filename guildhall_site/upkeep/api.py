"""GET /api/v1/announcements/: the announcements shown on the site now (docs/api.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from guildhall_site.rest import ApiView, OneOrMany
from guildhall_site.upkeep import announcements
from guildhall_site.upkeep.models import ANNOUNCEMENT_MAX_CHARS


class AnnouncementSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField()
    text = serializers.CharField(
        max_length=ANNOUNCEMENT_MAX_CHARS, help_text="Plain text: show it escaped."
    )
    link = serializers.CharField(
        allow_blank=True, help_text="An https:// address or a path of this site; may be empty."
    )
    level = serializers.ChoiceField(choices=["info", "warning"])
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="null: until removed.")
    dismissed = serializers.BooleanField(
        help_text="Whether you dismissed it on the site (always false without a login)."
    )


@extend_schema_view(
    get=extend_schema(
        tags=["site"],
        operation_id="announcements_list",
        responses=AnnouncementSerializer(many=True),
    )
)
class AnnouncementListView(ApiView):
    """The announcements the site shows now, oldest first: what its administrators want
    every player to know (a maintenance planned, a new game). The site shows each until the
    player dismisses it; `dismissed` says whether you did. A short list, not paginated."""

    permission_classes = [AllowAny]
    serializer_class = AnnouncementSerializer

    def get(self, request: Request) -> Response:
        gone = announcements.dismissed_by(request) if request.user.is_authenticated else set()
        rows = [vars(a) | {"dismissed": a.id in gone} for a in announcements.current()]
        return Response(AnnouncementSerializer(rows, many=True).data)
