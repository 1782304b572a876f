"""/tournaments/: the pages (guildhall_site.urls mounts them)."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.new, name="new"),
    path("<id:tournament_id>/", views.detail, name="detail"),
    path("<id:tournament_id>/join/", views.join, name="join"),
    path("<id:tournament_id>/leave/", views.leave, name="leave"),
]
