from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from accounts import block_views, friend_views, language_views, message_views, token_views, views

app_name = "accounts"

urlpatterns = [
    path("accounts/profile/", views.edit_profile, name="edit_profile"),
    path("language/", language_views.set_language, name="set_language"),
    path("accounts/guest/", views.play_as_guest, name="play_as_guest"),
    path("accounts/guest/save/", views.convert_guest, name="guest_convert"),
    path("accounts/tokens/", token_views.api_tokens, name="api_tokens"),
    path("friends/<str:username>/add/", friend_views.add_friend, name="friend_add"),
    path("friends/<str:username>/remove/", friend_views.remove_friend, name="friend_remove"),
    path("messages/", message_views.inbox, name="inbox"),
    path("messages/<id:pk>/", message_views.conversation, name="conversation"),
    path("messages/to/<str:username>/", message_views.write, name="message_write"),
    path("blocks/<str:username>/add/", block_views.block, name="block"),
    path("blocks/<str:username>/remove/", block_views.unblock, name="unblock"),
    path(
        "accounts/tokens/<str:key>/revoke/",
        token_views.revoke_api_token,
        name="revoke_api_token",
    ),
]
