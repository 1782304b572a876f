"""/api/v1/: the upkeep's endpoint (guildhall_site.urls mounts it with the others under the
namespace "api")."""

from django.urls import path

from guildhall_site.upkeep import api

urlpatterns = [
    path("announcements/", api.AnnouncementListView.as_view(), name="announcements"),
]
