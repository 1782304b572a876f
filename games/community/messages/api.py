"""/api/v1/me/conversations/ and /api/v1/me/messages/: my conversations with other players
and the messages I send them (``games.community.messages``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from games.community.http import user_of
from games.community.messages import actions, reads
from games.community.models import Conversation, Message
from guildhall_site.rest import (
    ApiThrottle,
    ApiView,
    MessageAddressThrottle,
    MessageThrottle,
    Pagination,
    StrictCharField,
)


class ConversationSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField(help_text="The other player's username.")
    name = serializers.CharField(help_text="The name the other player shows.")
    unread = serializers.IntegerField(help_text="Their messages I have not read.")
    last_message_at = serializers.DateTimeField()


class MessageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    conversation = serializers.IntegerField(help_text="The conversation's `id`.")
    sender = serializers.CharField(help_text="The writer's username.")
    mine = serializers.BooleanField(help_text="Whether I wrote it.")
    text = serializers.CharField(
        allow_blank=True, help_text="Plain text (never HTML); empty when `hidden`."
    )
    hidden = serializers.BooleanField(help_text="Hidden by the moderators: its text is gone.")
    created = serializers.DateTimeField()


class SendMessageSerializer(serializers.Serializer[Any]):
    to = StrictCharField(max_length=150, help_text="The recipient's username.")
    text = StrictCharField(
        max_length=Message.MAX_LENGTH,
        trim_whitespace=False,
        allow_blank=True,
        help_text=(
            "Plain text up to 2000 characters, line breaks and tabs but no other control "
            "character, not white space only."
        ),
    )


class UnreadSerializer(serializers.Serializer[Any]):
    unread_messages = serializers.IntegerField(help_text="All my unread messages, after this.")


def message_payload(message: Message, user: User) -> dict[str, Any]:
    return {
        "id": message.pk,
        "conversation": message.conversation_id,
        "sender": message.sender.username,
        "mine": message.sender_id == user.pk,
        "text": "" if message.hidden else message.text,
        "hidden": message.hidden,
        "created": message.created,
    }


CONVERSATION = OpenApiParameter(
    "conversation_id", int, OpenApiParameter.PATH, description="The conversation's `id`."
)


def _conversation(request: Request, conversation_id: int) -> Conversation:
    found = reads.conversation_of(user_of(request), conversation_id)
    if found is None:
        raise exceptions.NotFound(_("No such conversation"))
    return found


@extend_schema_view(
    get=extend_schema(
        tags=["messages"],
        operation_id="conversations_list",
        responses=ConversationSerializer(many=True),
    )
)
class ConversationListView(ApiView):
    """My conversations with other players, the newest first, with how many of their
    messages I have not read (one conversation per pair of players)."""

    serializer_class = ConversationSerializer
    pagination_class = Pagination

    def get(self, request: Request) -> Response:
        user = user_of(request)
        page = self.paginate_queryset(reads.inbox(user))
        rows = [
            {
                "id": row.conversation.pk,
                "username": row.other.username,
                "name": row.other.name,
                "unread": row.unread,
                "last_message_at": row.last_at,
            }
            for row in reads.inbox_rows(user, list(page or []))
        ]
        return self.get_paginated_response(ConversationSerializer(rows, many=True).data)


@extend_schema_view(
    get=extend_schema(
        tags=["messages"],
        operation_id="conversation_messages",
        parameters=[CONVERSATION],
        responses=MessageSerializer(many=True),
    )
)
class ConversationView(ApiView):
    """The messages of one of my conversations, the newest first (page 1 holds the
    newest). Reading them here marks nothing read: POST .../read/ does. 404 for a
    conversation that is not mine."""

    serializer_class = MessageSerializer
    pagination_class = Pagination

    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = _conversation(request, conversation_id)
        user = user_of(request)
        rows = reads.visible(conversation, user).order_by("-created", "-pk")
        page = self.paginate_queryset(rows)
        data = [message_payload(m, user) for m in page or []]
        return self.get_paginated_response(MessageSerializer(data, many=True).data)


@extend_schema_view(
    post=extend_schema(
        tags=["messages"],
        operation_id="conversation_read",
        parameters=[CONVERSATION],
        request=None,
        responses={200: UnreadSerializer},
    )
)
class ConversationReadView(ApiView):
    """Every message of one of my conversations read, as when its page is opened."""

    serializer_class = UnreadSerializer

    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = _conversation(request, conversation_id)
        user = User.objects.get(pk=user_of(request).pk)
        count = actions.do_mark_read(conversation, user)
        return Response(UnreadSerializer({"unread_messages": count}).data)


@extend_schema_view(
    post=extend_schema(
        tags=["messages"],
        operation_id="message_send",
        request=SendMessageSerializer,
        responses={201: MessageSerializer},
        examples=[
            OpenApiExample(
                "A word to another player",
                value={"to": "bob", "text": "Good game! Another one tomorrow?"},
                request_only=True,
            )
        ],
    )
)
class MessageSendView(ApiView):
    """Send a message to a player (by username), in our conversation (started if we have
    none). 400 for text or a recipient refused, 429 when too many are sent, or when I may
    start no more conversations today; nothing is stored then."""

    serializer_class = MessageSerializer
    throttle_classes = [ApiThrottle, MessageThrottle, MessageAddressThrottle]

    def post(self, request: Request) -> Response:
        serializer = SendMessageSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        recipient = User.objects.filter(username=data["to"]).first()
        if recipient is None:
            raise exceptions.ValidationError({"to": [_("No player of that name")]})
        try:
            message = actions.do_send(user_of(request), recipient, data["text"])
        except actions.Limited as error:
            wait = error.retry_after
            return Response(
                {"code": "throttled", "message": " ".join(error.messages), "retry_after": wait},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(wait)},
            )
        except DjangoValidationError as error:
            field = "to" if error.code == "recipient" else "text"
            raise exceptions.ValidationError({field: error.messages}) from None
        return Response(
            MessageSerializer(message_payload(message, user_of(request))).data,
            status=status.HTTP_201_CREATED,
        )
