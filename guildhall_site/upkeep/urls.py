"""The upkeep's pages: the banners' buttons and the mail provider's webhook of bounces."""

from django.urls import path

from guildhall_site.upkeep import views

app_name = "upkeep"

urlpatterns = [
    path("announcements/<int:pk>/dismiss/", views.dismiss, name="dismiss"),
    path("emails/reconfirm/", views.reconfirm, name="reconfirm"),
    path("emails/confirm/<str:token>/", views.confirm_address, name="confirm_address"),
    path("emails/bounces/", views.bounce_webhook, name="bounce_webhook"),
]
