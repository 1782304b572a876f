from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("u/<str:username>/", views.public_profile, name="profile"),
    path("accounts/profile/", views.edit_profile, name="edit_profile"),
    path("accounts/guest/", views.play_as_guest, name="play_as_guest"),
    path("accounts/guest/save/", views.convert_guest, name="guest_convert"),
]
