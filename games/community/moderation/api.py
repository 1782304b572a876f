"""/api/v1/reports/: report a chat line, a message or a player's profile to the moderators,
as the report page does (``games.community.moderation.actions.do_report`` decides)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.community.http import user_of
from games.community.moderation import actions
from games.community.moderation.models import Report
from guildhall_site.rest import (
    ApiThrottle,
    ApiView,
    ReportAddressThrottle,
    ReportThrottle,
    StrictCharField,
    StrictChoiceField,
)


class ReportRequestSerializer(serializers.Serializer[Any]):
    kind = StrictChoiceField(
        choices=Report.Kind.values,
        help_text="What I report: a `chat` line of a game, a `message` I received, or a "
        "player's `profile`.",
    )
    target = StrictCharField(
        max_length=150,
        help_text="Which: the chat line's `id`, the message's `id`, or the player's username.",
    )
    reason = StrictChoiceField(choices=Report.Reason.values, help_text="What is wrong.")
    comment = StrictCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        default="",
        help_text=f"Anything the moderators should know: at most {Report.MAX_LENGTH} "
        "characters, no control characters.",
    )


class ReportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Report.Kind.values)
    reason = serializers.ChoiceField(choices=Report.Reason.values)
    status = serializers.ChoiceField(
        choices=Report.Status.values, help_text="open until a moderator acts on it."
    )
    created = serializers.DateTimeField()


class ReportView(ApiView):
    """Report something to the moderators. The author is not told who reported it;
    reporting the same thing again changes nothing (the same report). Limited per user and
    per address, like the report page."""

    serializer_class = ReportSerializer
    throttle_classes = [ApiThrottle, ReportThrottle, ReportAddressThrottle]

    @extend_schema(
        tags=["account"],
        operation_id="report_create",
        request=ReportRequestSerializer,
        responses={
            201: OpenApiResponse(ReportSerializer, description="Reported (or reported before)."),
            400: OpenApiResponse(
                description="A reason or kind not in the list, a comment too long, or "
                "something of my own."
            ),
            404: OpenApiResponse(
                description="No such line, message or player that I may see (a line of a "
                "chat I cannot read, a message not sent to me)."
            ),
        },
        examples=[
            OpenApiExample(
                "A chat line",
                value={"kind": "chat", "target": "1234", "reason": "abuse", "comment": ""},
                request_only=True,
            ),
            OpenApiExample(
                "A profile",
                value={"kind": "profile", "target": "mallory", "reason": "name"},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        body = ReportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        report = actions.do_report(
            user_of(request), data["kind"], data["target"], data["reason"], data["comment"]
        )
        answer = {
            "id": report.pk,
            "kind": report.kind,
            "reason": report.reason,
            "status": report.status,
            "created": report.created,
        }
        return Response(ReportSerializer(answer).data, status=status.HTTP_201_CREATED)
