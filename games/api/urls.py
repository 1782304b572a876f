"""/api/v1/: every endpoint of the JSON API (the accounts part lives in ``accounts.api``)."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from accounts import api as accounts_api
from games.api import views

app_name = "api"

urlpatterns = [
    path("me/", accounts_api.MeView.as_view(), name="me"),
    path("me/preferences/", accounts_api.PreferencesView.as_view(), name="preferences"),
    path("auth/token/", accounts_api.TokenLoginView.as_view(), name="token_login"),
    path("auth/tokens/", accounts_api.TokenListView.as_view(), name="tokens"),
    path("auth/tokens/<str:key>/", accounts_api.TokenRevokeView.as_view(), name="token"),
    path("catalog/", views.CatalogView.as_view(), name="catalog"),
    path("leaderboard/<str:game>/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<id:game_id>/", views.GameView.as_view(), name="game"),
    path("games/<id:game_id>/actions/", views.ActionsView.as_view(), name="actions"),
    path("games/<id:game_id>/moves/", views.MovesView.as_view(), name="moves"),
    path("invitations/", views.InvitationListView.as_view(), name="invitations"),
    path("invitations/<id:invitation_id>/", views.InvitationView.as_view(), name="invitation"),
    path(
        "invitations/<id:invitation_id>/accept/",
        views.AcceptInvitationView.as_view(),
        name="invitation_accept",
    ),
    path(
        "invitations/<id:invitation_id>/decline/",
        views.DeclineInvitationView.as_view(),
        name="invitation_decline",
    ),
    path(
        "invitations/<id:invitation_id>/withdraw/",
        views.WithdrawInvitationView.as_view(),
        name="invitation_withdraw",
    ),
]
