"""/api/v1/: the accounts' endpoints of the JSON API (you, your preferences, your tokens;
friends, blocks and messages are the community's, ``games.community.api_urls``);
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
]
