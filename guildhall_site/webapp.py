"""The installable web app: its manifest and its service worker, both served from the root.

``/manifest.webmanifest`` names the app, its icons and colours, and asks for a window of its
own (``display: standalone``): Android offers "Install app", iOS 16.4+ "Add to Home Screen",
where a web app may receive push notifications.

``/sw.js`` is the service worker. At the root, so that its scope is the whole site. It
caches static files only: pages and their data always come from the server. It is built
from the template ``webapp/sw.js`` with the addresses of the static files it stores first
and a version (a digest of those files): a new version makes browsers install the new worker,
which drops the old cache. In production the static files have hashed names (WhiteNoise's
manifest storage), so a stored file never changes: the worker answers from its cache first.
Otherwise (development) it asks the server first and uses the cache only offline. It also
shows the push notifications (``games.notifications.push``) and opens their link on a tap,
and tells the site when the browser replaces a subscription (``push_views.renew``).
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# The colours of the site (site/site.css): the header's ink, the page's paper.
THEME_COLOR = "#2b2118"
BACKGROUND_COLOR = "#fbf7ef"

ICONS = [
    ("site/icons/icon-192.png", "192x192", "any"),
    ("site/icons/icon-512.png", "512x512", "any"),
    ("site/icons/icon-maskable-512.png", "512x512", "maskable"),
]

# What the service worker stores when it is installed: what every page needs, and the icon
# of the notifications. Other static files are stored as they are first loaded.
PRECACHE = [
    "site/site.css",
    "site/site.js",
    "site/app.js",
    "site/htmx.min.js",
    "site/favicon.svg",
    "site/board.css",
    "site/board.js",
    "site/icons/icon-192.png",
]


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    data = {
        "id": "/",
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME,
        "description": _("Card games by web that run for days: play your turn when you like."),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    patch_cache_control(response, public=True, max_age=3600)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def _hashed() -> bool:
    """Do the static files have names that change with their content?"""
    return isinstance(staticfiles_storage, ManifestFilesMixin)


def _precache() -> tuple[list[str], str]:
    """The addresses of PRECACHE's files and a version: a digest of those files."""
    digest = hashlib.sha256()
    urls = []
    for path in PRECACHE:
        try:
            url = staticfiles_storage.url(path)
        except ValueError:  # not collected (manifest storage): leave it out
            continue
        urls.append(url)
        digest.update(url.encode())
        found = finders.find(path)
        if found:
            with open(found, "rb") as file:
                digest.update(hashlib.sha256(file.read()).digest())
    return urls, digest.hexdigest()[:16]


_cached: tuple[list[str], str] | None = None


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    global _cached
    hashed = _hashed()
    if hashed and _cached is not None:
        urls, version = _cached
    else:
        urls, version = _precache()
        if hashed:
            _cached = (urls, version)
    context = {
        "version": version,
        "precache": json.dumps(urls),
        "static_prefix": json.dumps(settings.STATIC_URL),
        "cache_first": json.dumps(hashed),
        "icon": json.dumps(static("site/icons/icon-192.png")),
        "renew_url": json.dumps(reverse("push:renew")),
    }
    response = HttpResponse(
        render_to_string("webapp/sw.js", context), content_type="text/javascript; charset=utf-8"
    )
    # Browsers look for a new worker at each visit (at most daily); no cache may hold it.
    patch_cache_control(response, no_cache=True, max_age=0)
    return response
