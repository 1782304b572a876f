from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from games import views as games_views

urlpatterns = [
    # The home page keeps its plain name "home"; the games app's own pages are "games:...".
    path("", games_views.home, name="home"),
    path("", include("games.urls")),
    # Our own account pages first: they share the accounts/ prefix with allauth's.
    path("", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
]
