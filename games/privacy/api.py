"""/api/v1/me/data/ (everything the site holds about me, to download) and
/api/v1/me/deletion/ (ask for my account's deletion, see where it stands, cancel it)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.response import Response

from accounts import deletion
from accounts.http import AuthenticatedRequest
from accounts.models import User
from games.privacy import export
from games.privacy.serializers import AccountDeletionSerializer, PlayerDataSerializer
from games.privacy.throttles import DataExportThrottle, DeletionThrottle, attachment
from guildhall_site.rest import ApiThrottle, ApiView, StrictChoiceField


class DeletionRequestSerializer(serializers.Serializer[dict[str, Any]]):
    running_games = StrictChoiceField(
        choices=list(deletion.RunningGames.VALUES),
        help_text="What becomes of my games still going on when the account goes: concede "
        "them, or let the computer play them to the end (a tournament's games are conceded "
        "as I leave it).",
    )


def _status(user: User) -> dict[str, Any]:
    return {
        "requested_at": user.deletion_requested_at,
        "due_at": deletion.due_at(user),
        "running_games": user.deletion_games,
    }


@method_decorator(never_cache, name="dispatch")
class DataView(ApiView):
    """Everything the site holds about me, as a file to keep (docs/privacy.md)."""

    serializer_class = PlayerDataSerializer
    throttle_classes = [ApiThrottle, DataExportThrottle]

    @extend_schema(
        tags=["account"],
        operation_id="me_data",
        responses={200: OpenApiResponse(PlayerDataSerializer, description="A JSON file.")},
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        """My account, preferences, games and the moves I made in them, chat lines and
        messages I wrote, notes, friends, blocks, tokens, webhooks and devices: never a
        secret, nor another player's hidden information. Sent as an attachment
        (``Content-Disposition``). At most a few an hour."""
        data = PlayerDataSerializer(export.player_data(request.user)).data
        response = Response(data)
        response["Content-Disposition"] = attachment(request.user)
        return response


@method_decorator(never_cache, name="dispatch")
class DeletionView(ApiView):
    """My account's deletion: asked for, it happens once the grace period is over, unless
    I cancel it first (or log in on the site)."""

    serializer_class = AccountDeletionSerializer
    throttle_classes = [ApiThrottle, DeletionThrottle]

    @extend_schema(tags=["account"], operation_id="me_deletion_get")
    def get(self, request: AuthenticatedRequest) -> Response:
        """Whether a deletion is asked for, and when it will happen."""
        return Response(AccountDeletionSerializer(_status(request.user)).data)

    @extend_schema(
        tags=["account"],
        operation_id="me_deletion_request",
        request=DeletionRequestSerializer,
        responses={200: AccountDeletionSerializer},
        examples=[
            OpenApiExample(
                "Concede my running games", value={"running_games": "concede"}, request_only=True
            )
        ],
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        """Ask for my account to be deleted (asked again: the choice changes, not the
        date). 403 for a staff account."""
        serializer = DeletionRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            deletion.do_request_deletion(request.user, serializer.validated_data["running_games"])
        except DjangoValidationError as error:
            raise exceptions.ValidationError({"running_games": error.messages}) from None
        return Response(AccountDeletionSerializer(_status(request.user)).data)

    @extend_schema(
        tags=["account"],
        operation_id="me_deletion_cancel",
        responses={200: AccountDeletionSerializer},
    )
    def delete(self, request: AuthenticatedRequest) -> Response:
        """Keep my account: the deletion asked for is cancelled (nothing if none was)."""
        deletion.do_cancel_deletion(request.user)
        return Response(AccountDeletionSerializer(_status(request.user)).data)
