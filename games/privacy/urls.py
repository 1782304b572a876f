"""The settings page's data panel (games.privacy.views); guildhall_site.urls mounts them."""

from django.urls import path

from games.privacy import views

app_name = "privacy"

urlpatterns = [
    path("accounts/data/", views.download, name="download"),
    path("accounts/deletion/", views.request_deletion, name="request_deletion"),
    path("accounts/deletion/cancel/", views.cancel_deletion, name="cancel_deletion"),
]
