"""/api/v1/: the accounts' endpoints of the JSON API (you, your preferences, your tokens,
friends, blocks and messages);
guildhall_site.urls mounts them with the games' ones (``games.api.urls``)."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from accounts import api

urlpatterns = [
    path("me/", api.MeView.as_view(), name="me"),
    path("me/preferences/", api.PreferencesView.as_view(), name="preferences"),
    path("auth/token/", api.TokenLoginView.as_view(), name="token_login"),
    path("auth/tokens/", api.TokenListView.as_view(), name="tokens"),
    path("auth/tokens/<str:key>/", api.TokenRevokeView.as_view(), name="token"),
    path("me/friends/", api.FriendListView.as_view(), name="friends"),
    path("me/friends/<str:username>/", api.FriendView.as_view(), name="friend"),
    path("me/blocks/", api.BlockListView.as_view(), name="blocks"),
    path("me/blocks/<str:username>/", api.BlockView.as_view(), name="block"),
    path("me/conversations/", api.ConversationListView.as_view(), name="conversations"),
    path(
        "me/conversations/<id:conversation_id>/",
        api.ConversationView.as_view(),
        name="conversation",
    ),
    path(
        "me/conversations/<id:conversation_id>/read/",
        api.ConversationReadView.as_view(),
        name="conversation_read",
    ),
    path("me/messages/", api.MessageSendView.as_view(), name="message_send"),
]
