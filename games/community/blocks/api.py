"""/api/v1/me/blocks/: the players I blocked (``games.community.blocks``), changed within
the friends' limits, as on the profile page."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from games.community.blocks import actions, reads
from games.community.friends.api import PLAYER, FriendSerializer, PlayerListView, people
from games.community.http import user_of
from guildhall_site.rest import ApiView


@extend_schema_view(
    get=extend_schema(
        tags=["account"], operation_id="blocks_list", responses=FriendSerializer(many=True)
    )
)
class BlockListView(ApiView):
    """The players I blocked, by name: they cannot invite, message or sit with me, and their
    chat lines are left out of what I read. They are not told."""

    serializer_class = FriendSerializer

    def get(self, request: Request) -> Response:
        rows = people(reads.blocked_users(user_of(request)))
        return Response(FriendSerializer(rows, many=True).data)


@extend_schema_view(
    put=extend_schema(
        tags=["account"],
        operation_id="block_add",
        parameters=[PLAYER],
        request=None,
        responses={200: FriendSerializer},
    ),
    delete=extend_schema(
        tags=["account"], operation_id="block_remove", parameters=[PLAYER], responses={204: None}
    ),
)
class BlockView(PlayerListView):
    """Block a player (PUT: done, or blocked already; a friend is a friend no more) or
    unblock them (DELETE: 404 if they were not blocked); limited like the friends' changes,
    one limit for both, as on the profile page."""

    not_on_it = gettext_lazy("That player is not blocked")

    def add(self, user: User, other: User) -> None:
        actions.do_block(user, other)

    def remove(self, user: User, other: User) -> bool:
        return actions.do_unblock(user, other)
