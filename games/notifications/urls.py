from django.urls import path

import games.converters  # noqa: F401 (registers the "id" converter)
from games.notifications import push_views, views

app_name = "notifications"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]

# The devices that receive push notifications (the settings page), under push/ with the
# namespace "push" (guildhall_site/urls.py).
push_urlpatterns = [
    path("subscribe/", push_views.subscribe, name="subscribe"),
    path("renew/", push_views.renew, name="renew"),
    # A push's answer button (games.notifications.push_answers), from the service worker.
    path("answer/", push_views.answer, name="answer"),
    path("preferences/", push_views.preferences, name="preferences"),
    path("devices/", push_views.devices, name="devices"),
    path("devices/<id:device_id>/remove/", push_views.remove, name="remove"),
]
