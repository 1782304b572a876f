"""Maintenance mode at the door, and the banners on the way out.

While maintenance is on, a request that would change something (any method but GET, HEAD,
OPTIONS and TRACE) is answered 503 with Retry-After before it reaches its view: the API with
its error format (``{"code": "maintenance", ...}``, docs/api.md), an htmx request with a
short notice (and ``X-Maintenance``, which site.js reads), a page with a page that says so.
Reads go on as usual.

Let through (``EXEMPT``): logging in and out (on the pages and the API's token), so that
people can still reach their games; the footer's choice of language and an announcement
dismissed; and the admin, where the operator writes the announcement about the maintenance.
They write little (a session, a token, a preference): a database that cannot take even
that is better served by stopping the site than by this mode.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from guildhall_site.upkeep import banners, maintenance

log = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

# Named, so that a change of the URLs cannot silently drop one (they are resolved once).
EXEMPT_NAMES = ("account_login", "account_logout", "api:token_login", "accounts:set_language")
EXEMPT_PREFIXES = ("/admin/", "/announcements/")
EXEMPT = SimpleLazyObject(lambda: frozenset(reverse(name) for name in EXEMPT_NAMES))


def exempt(request: HttpRequest) -> bool:
    return request.path in EXEMPT or request.path.startswith(EXEMPT_PREFIXES)


def refusal(request: HttpRequest, state: maintenance.Maintenance) -> HttpResponse:
    """The answer to a change asked for during maintenance: 503 and Retry-After."""
    seconds = state.retry_after()
    if request.path.startswith("/api/"):
        message = _(
            "The site is read-only for maintenance: nothing was changed. "
            "Try again in %(seconds)d seconds."
        ) % {"seconds": seconds}
        response: HttpResponse = JsonResponse(
            {"code": "maintenance", "message": message, "retry_after": seconds}, status=503
        )
    else:
        context = {"maintenance": state, "minutes": max(1, round(seconds / 60))}
        if getattr(request, "htmx", False):
            response = HttpResponse(
                render_to_string("upkeep/maintenance_partial.html", context), status=503
            )
        else:
            response = render(request, "upkeep/maintenance.html", context, status=503)
        # The page says it already; and site.js reads the header to say why an htmx
        # request failed.
        response.upkeep_banners_done = True  # type: ignore[attr-defined]
        response["X-Maintenance"] = "on"
    response["Retry-After"] = str(seconds)
    return response


def _state() -> maintenance.Maintenance | None:
    try:
        return maintenance.current()
    except Exception:
        # Not known (the database away): the view answers as it would without this mode.
        log.warning("Whether maintenance is on could not be read", exc_info=True)
        return None


class UpkeepMiddleware:
    """After the session, the user, CSRF and htmx's middleware (settings.MIDDLEWARE): the
    answer to a refused change is in the visitor's language, and a page's banners get the
    CSRF token before Django's middleware sets its cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in SAFE_METHODS and not exempt(request):
            state = _state()
            if state is not None:
                return refusal(request, state)
        return banners.add_to(request, self.get_response(request))
