from typing import Any

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import api_urls as accounts_api_urls
from accounts import urls as accounts_urls
from games.api import urls as games_api_urls
from games.api.common import not_found as api_not_found
from games.community import api_urls as community_api_urls
from games.community import urls as community_urls
from games.notifications.urls import push_urlpatterns
from games.privacy import api_urls as privacy_api_urls
from games.tournaments import api_urls as tournaments_api_urls
from games.web import lobby as games_views
from games.webhooks import urls as webhooks_urls
from guildhall_site import webapp
from guildhall_site.ops import health
from guildhall_site.upkeep import api_urls as upkeep_api_urls


class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico by themselves: send them to the site's icon.

    Resolved at each request, not at import: in production the static file's hashed name
    comes from collectstatic's manifest, which need not exist when the URLs are loaded."""

    def get_redirect_url(self, *args: Any, **kwargs: Any) -> str:
        return static("site/favicon.svg")


urlpatterns = [
    # The home page keeps its plain name "home"; the games app's own pages are "games:...".
    path("", games_views.home, name="home"),
    path("", include("games.urls")),
    # Our own account pages first: they share the accounts/ prefix with allauth's. The
    # community's pages of friends, blocks and messages keep the accounts' namespace, whose
    # they were (games/community/urls.py).
    path(
        "",
        include(
            ([*accounts_urls.urlpatterns, *community_urls.urlpatterns], accounts_urls.app_name)
        ),
    ),
    # The settings page's panel of the player's data (games/privacy, docs/privacy.md).
    path("", include("games.privacy.urls")),
    path("accounts/", include("allauth.urls")),
    # Tournaments and leagues (games/tournaments, docs/tournaments.md).
    path("tournaments/", include("games.tournaments.urls")),
    # One-click unsubscribe links of the emails (no login needed).
    path("emails/", include("games.notifications.urls")),
    # Reports to the moderators (games/community/moderation).
    path("", include("games.community.moderation.urls")),
    # Announcements dismissed, bounced addresses (guildhall_site/upkeep).
    path("", include("guildhall_site.upkeep.urls")),
    # Web Push: the devices of the settings page (games/notifications/push_views.py). The web
    # app's manifest and service worker at the root, so that the worker covers every page.
    path("push/", include((push_urlpatterns, "push"))),
    path("manifest.webmanifest", webapp.manifest, name="manifest"),
    path("sw.js", webapp.service_worker, name="service_worker"),
    # The JSON API (docs/api.md), its OpenAPI schema and its documentation page (Swagger UI from
    # our static files: drf-spectacular's Redoc page loads fonts from Google, so it is left out).
    # The split view serves the page's start-up script from ?script (the CSP allows no inline
    # script); templates/api_docs.html leaves out the page's inline style.
    path(
        "api/v1/",
        include(
            (
                [
                    *accounts_api_urls.urlpatterns,
                    *community_api_urls.urlpatterns,
                    *privacy_api_urls.urlpatterns,
                    *games_api_urls.urlpatterns,
                    *tournaments_api_urls.urlpatterns,
                    *webhooks_urls.urlpatterns,
                    *upkeep_api_urls.urlpatterns,
                ],
                "api",
            )
        ),
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    # Anything else under api/ answers JSON too, never the site's HTML 404 page.
    re_path(r"^api/", api_not_found),
    path("admin/", admin.site.urls),
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    # Probes and metrics (docs/deploy.md). guildhall_site.ops.health.ProbesMiddleware answers
    # these paths before the other middleware; here they have their names.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", health.PROBES["/metrics"], name="metrics"),
]

# The site's 500 page, or JSON under /api/.
handler500 = "games.api.common.server_error"
