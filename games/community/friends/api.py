"""/api/v1/me/friends/: my friends (``games.community.friends``); and the view of a list of
mine a player is put on or taken off, which the blocks' API shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from games.community.friends import actions, reads
from games.community.http import user_of
from guildhall_site.rest import ApiThrottle, ApiView, FriendAddressThrottle, FriendThrottle

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class FriendSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name other players see.")


def person(username: str) -> User:
    user = User.objects.filter(username=username).first()
    if user is None:
        raise exceptions.NotFound(_("No player of that name"))
    return user


def people(users: list[User]) -> list[dict[str, str]]:
    return [{"username": u.username, "name": u.name} for u in users]


@extend_schema_view(
    get=extend_schema(
        tags=["account"], operation_id="friends_list", responses=FriendSerializer(many=True)
    )
)
class FriendListView(ApiView):
    """My friends, by name: added in one direction, nothing to accept,
    and the friend is not told."""

    serializer_class = FriendSerializer

    def get(self, request: Request) -> Response:
        rows = people(reads.friends(user_of(request)))
        return Response(FriendSerializer(rows, many=True).data)


PLAYER = OpenApiParameter(
    "username", str, OpenApiParameter.PATH, description="The player's username."
)


class PlayerListView(ApiView):
    """A list of mine that a player is put on (PUT) or taken off (DELETE: 404 if they were
    not on it), limited like the profile page's buttons; a removal that changed nothing does
    not count against the limit."""

    serializer_class = FriendSerializer
    throttle_classes = [ApiThrottle, FriendThrottle, FriendAddressThrottle]
    not_on_it: StrOrPromise = ""  # the 404's message

    def add(self, user: User, other: User) -> None:
        raise NotImplementedError

    def remove(self, user: User, other: User) -> bool:
        raise NotImplementedError

    def put(self, request: Request, username: str) -> Response:
        other = person(username)
        try:
            self.add(user_of(request), other)
        except DjangoValidationError as error:
            raise exceptions.ValidationError({"username": error.messages}) from None
        return Response(FriendSerializer({"username": other.username, "name": other.name}).data)

    def delete(self, request: Request, username: str) -> Response:
        try:
            if not self.remove(user_of(request), person(username)):
                raise exceptions.NotFound(self.not_on_it)
        except exceptions.NotFound:
            for throttle in getattr(self, "counted_throttles", ()):
                if isinstance(throttle, FriendThrottle | FriendAddressThrottle):
                    throttle.refund()
            raise
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    put=extend_schema(
        tags=["account"],
        operation_id="friend_add",
        parameters=[PLAYER],
        request=None,
        responses={200: FriendSerializer},
    ),
    delete=extend_schema(
        tags=["account"], operation_id="friend_remove", parameters=[PLAYER], responses={204: None}
    ),
)
class FriendView(PlayerListView):
    """Add a player to my friends (PUT: done, or already one) or remove them (DELETE: 404 if
    they were not one); limited like the profile page's buttons."""

    not_on_it = gettext_lazy("That player is not your friend")

    def add(self, user: User, other: User) -> None:
        actions.do_add_friend(user, other)

    def remove(self, user: User, other: User) -> bool:
        return actions.do_remove_friend(user, other)
