"""/api/v1/webhooks/ (mounted by guildhall_site.urls in the API's namespace "api")."""

from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games.webhooks import views

urlpatterns = [
    path("webhooks/", views.WebhookListView.as_view(), name="webhooks"),
    path("webhooks/<id:webhook_id>/", views.WebhookView.as_view(), name="webhook"),
    path(
        "webhooks/<id:webhook_id>/deliveries/",
        views.DeliveriesView.as_view(),
        name="webhook_deliveries",
    ),
    path("webhooks/<id:webhook_id>/ping/", views.PingView.as_view(), name="webhook_ping"),
]
