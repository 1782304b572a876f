"""/api/v1/: the games' endpoints of the JSON API (guildhall_site.urls mounts them with the
accounts' ones, ``accounts.api_urls``, under one namespace "api")."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games.api import players, stream, views

urlpatterns = [
    path("catalog/", views.CatalogView.as_view(), name="catalog"),
    # Server-Sent Events: an async view, for the ASGI server (games/api/stream.py).
    path("events/", stream.events, name="events"),
    path("leaderboard/<str:game>/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<id:game_id>/", views.GameView.as_view(), name="game"),
    path("games/<id:game_id>/actions/", views.ActionsView.as_view(), name="actions"),
    path("games/<id:game_id>/moves/", views.MovesView.as_view(), name="moves"),
    path("games/<id:game_id>/note/", views.NoteView.as_view(), name="note"),
    path("games/<id:game_id>/chat/", views.ChatView.as_view(), name="chat"),
    # What a player does beside moves (games/api/players.py).
    path("games/<id:game_id>/cancel-vote/", players.CancelVoteView.as_view(), name="cancel_vote"),
    path("games/<id:game_id>/rematch/", players.RematchView.as_view(), name="rematch"),
    path("games/<id:game_id>/stand-in/", players.StandInView.as_view(), name="stand_in"),
    path("me/stand-in/", players.StandInEverywhereView.as_view(), name="stand_in_everywhere"),
    path("me/vacation/", players.VacationView.as_view(), name="vacation"),
    path("me/quiet-hours/", players.QuietHoursView.as_view(), name="quiet_hours"),
    path("games/<id:game_id>/analysis/", views.AnalysisView.as_view(), name="analysis"),
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
