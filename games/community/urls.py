"""The community's pages: friends, blocks and messages. guildhall_site.urls mounts them in
the namespace "accounts", where they were before this package took them over, so that every
name ("accounts:inbox", ...) and every address stays. The games' chat is the board's
(``games.urls``), reports are the moderation app's (``games.community.moderation.urls``)."""

from django.urls import URLPattern, path

import games.converters  # noqa: F401 (the "id" converter)
from games.community.blocks import views as block_views
from games.community.friends import views as friend_views
from games.community.messages import views as message_views

urlpatterns: list[URLPattern] = [
    path("friends/<str:username>/add/", friend_views.add_friend, name="friend_add"),
    path("friends/<str:username>/remove/", friend_views.remove_friend, name="friend_remove"),
    path("messages/", message_views.inbox, name="inbox"),
    path("messages/<id:pk>/", message_views.conversation, name="conversation"),
    path("messages/to/<str:username>/", message_views.write, name="message_write"),
    path("blocks/<str:username>/add/", block_views.block, name="block"),
    path("blocks/<str:username>/remove/", block_views.unblock, name="unblock"),
]
