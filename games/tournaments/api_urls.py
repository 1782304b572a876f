"""/api/v1/tournaments/: the tournaments' endpoints of the JSON API (guildhall_site.urls mounts
them with the games' and the accounts' ones, in the namespace "api")."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games.tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:tournament_id>/", api.TournamentView.as_view(), name="tournament"),
    path(
        "tournaments/<id:tournament_id>/standings/",
        api.StandingsView.as_view(),
        name="tournament_standings",
    ),
    path("tournaments/<id:tournament_id>/join/", api.JoinView.as_view(), name="tournament_join"),
    path("tournaments/<id:tournament_id>/leave/", api.LeaveView.as_view(), name="tournament_leave"),
    path("tournaments/<id:tournament_id>/edit/", api.EditView.as_view(), name="tournament_edit"),
    path(
        "tournaments/<id:tournament_id>/cancel/", api.CancelView.as_view(), name="tournament_cancel"
    ),
    path(
        "tournaments/<id:tournament_id>/remove/", api.RemoveView.as_view(), name="tournament_remove"
    ),
    path(
        "tournaments/<id:tournament_id>/result/", api.ResultView.as_view(), name="tournament_result"
    ),
    path(
        "tournaments/<id:tournament_id>/extend/", api.ExtendView.as_view(), name="tournament_extend"
    ),
    path("tournaments/<id:tournament_id>/seed/", api.SeedView.as_view(), name="tournament_seed"),
    path(
        "tournaments/<id:tournament_id>/message/",
        api.MessageView.as_view(),
        name="tournament_message",
    ),
]
