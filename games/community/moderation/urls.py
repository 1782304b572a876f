from django.urls import path

from games.community.moderation import views

app_name = "moderation"

urlpatterns = [
    path("report/", views.report, name="report"),
    path("moderation/notices/", views.notices, name="notices"),
]
