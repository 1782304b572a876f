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
    path("<id:tournament_id>/edit/", views.edit, name="edit"),
    path("<id:tournament_id>/cancel/", views.cancel, name="cancel"),
    path("<id:tournament_id>/remove/", views.remove, name="remove"),
    path("<id:tournament_id>/result/", views.result, name="result"),
    path("<id:tournament_id>/extend/", views.extend, name="extend"),
    path("<id:tournament_id>/message/", views.message, name="message"),
    path("<id:tournament_id>/seed/", views.seed, name="seed"),
]
