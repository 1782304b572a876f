from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from accounts import language_views, token_views, views

app_name = "accounts"

urlpatterns = [
    path("accounts/profile/", views.edit_profile, name="edit_profile"),
    path("language/", language_views.set_language, name="set_language"),
    path("accounts/guest/", views.play_as_guest, name="play_as_guest"),
    path("accounts/guest/save/", views.convert_guest, name="guest_convert"),
    path("accounts/tokens/", token_views.api_tokens, name="api_tokens"),
    path(
        "accounts/tokens/<str:key>/revoke/",
        token_views.revoke_api_token,
        name="revoke_api_token",
    ),
]
