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
]
