"""/api/v1/me/data/ and /api/v1/me/deletion/ (games.privacy.api): guildhall_site.urls mounts
them with the other endpoints, in the namespace "api"."""

from django.urls import path

from games.privacy import api

urlpatterns = [
    path("me/data/", api.DataView.as_view(), name="me_data"),
    path("me/deletion/", api.DeletionView.as_view(), name="me_deletion"),
]
