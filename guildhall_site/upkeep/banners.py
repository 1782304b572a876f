"""The banners at the top of every page: maintenance going on, the announcements the visitor
has not dismissed, and a player's bounced address.

They are put into each answer on its way out (``UpkeepMiddleware``), where base.html left
``MARKER``, rather than rendered with the page: pages kept in the page cache
(games.web.page_cache) are shared between requests and would keep one request's banners. A
page with nothing to show costs no query (each part is read through the cache) and is left
as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

from guildhall_site.upkeep import announcements, bounces, maintenance

log = logging.getLogger(__name__)

# An HTML comment: no escaped text a user typed can contain "<!--".
MARKER = b"<!--site-banners-->"


def _wants_banners(response: HttpResponse) -> bool:
    return (
        not response.streaming
        and response.status_code < 500  # (the error page: the database may be what failed)
        and response.get("Content-Type", "").startswith("text/html")
        and not getattr(response, "upkeep_banners_done", False)
        and MARKER in response.content
    )


def context(request: HttpRequest) -> dict[str, Any]:
    """What the banners show to this request (empty: none)."""
    found: dict[str, Any] = {}
    if (state := maintenance.current()) is not None:
        found["maintenance"] = state
    if shown := announcements.for_request(request):
        found["announcements"] = shown
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.email:
        bounced = bounces.state(user.email)
        if bounced != bounces.FINE:
            found["bounced"] = {"email": user.email, "retrying": bounced == bounces.RETRYING}
    return found


def add_to(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if not _wants_banners(response):
        return response
    try:
        found = context(request)
    except Exception:
        # A banner never costs a page (the database or Redis away...): the page goes out
        # without it, as it would have before.
        log.warning("The banners could not be read", exc_info=True)
        return response
    if not found:
        return response
    found |= {"csrf_token": get_token(request), "here": request.get_full_path()}
    html = render_to_string("upkeep/banners.html", found).encode()
    response.content = response.content.replace(MARKER, html, 1)
    return response
