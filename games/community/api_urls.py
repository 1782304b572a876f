"""/api/v1/: the community's endpoints of the JSON API (friends, blocks, messages, reports);
guildhall_site.urls mounts them with the others in the namespace "api". The games' chat is
the games' API's (``games.api.urls``)."""

from django.urls import URLPattern, path

import games.converters  # noqa: F401 (the "id" converter)
from games.community.blocks.api import BlockListView, BlockView
from games.community.friends.api import FriendListView, FriendView
from games.community.messages.api import (
    ConversationListView,
    ConversationReadView,
    ConversationView,
    MessageSendView,
)
from games.community.moderation.api import ReportView

urlpatterns: list[URLPattern] = [
    path("me/friends/", FriendListView.as_view(), name="friends"),
    path("me/friends/<str:username>/", FriendView.as_view(), name="friend"),
    path("me/blocks/", BlockListView.as_view(), name="blocks"),
    path("me/blocks/<str:username>/", BlockView.as_view(), name="block"),
    path("me/conversations/", ConversationListView.as_view(), name="conversations"),
    path(
        "me/conversations/<id:conversation_id>/",
        ConversationView.as_view(),
        name="conversation",
    ),
    path(
        "me/conversations/<id:conversation_id>/read/",
        ConversationReadView.as_view(),
        name="conversation_read",
    ),
    path("me/messages/", MessageSendView.as_view(), name="message_send"),
    path("reports/", ReportView.as_view(), name="reports"),
]
