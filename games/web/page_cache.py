"""Rendered pages kept in the cache, for the pages read far more often than they change.

Between two moves every player of a game reloads and polls the same board at the same
version; a dashboard is reloaded far more often than its games change. Such a page is
rendered once per *key* and then served from the cache: the key names everything the page
is made of (the game's version, the viewer, the language, ...), so a page is never served
for inputs other than its own, and nothing needs to be deleted when a game changes: its
new version simply asks for a new page. Entries expire after ``PAGE_CACHE_SECONDS``.

What differs between two requests of the same key is left out of the stored page:

- The CSRF token is stored as ``CSRF_PLACEHOLDER`` and put back, the requester's own, on
  the way out (``get_token``): a page cached for one session works in another.
- The header's count of unread messages likewise (``UNREAD_PLACEHOLDER``): the requester's
  own, read with their user (``accounts.context_processors.unread_badge``: no query).
- A request with a message to show (``django.contrib.messages``) is rendered and not
  stored.
- ``build_id()`` is part of every key: after a deploy that changed a template, the code or
  a translation, pages of the old build are never served.

Only a page answered 200 is stored, and only one likely to be read again: a key's first
request leaves a mark of a few bytes (``SEEN_PREFIX``), and only a request that finds the
mark stores the page (``PAGE_CACHE_ADMIT_AFTER``: the request that stores). A board
loaded once before each move, the common case in a quick game, is never stored; a board
reloaded, a dashboard, a replay or a rules page read again is. Without it, a soak of moves
after every board load filled Redis with pages never read (11 MB a minute, 0 hits).

The cache is ``CACHES["pages"]``: a Redis of its own in production, that may evict what it
likes (docs/deploy.md: LRU, bounded; while it is away, a few hundred entries in each
process), this process's memory otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe

from accounts.context_processors import unread_badge
from guildhall_site.ops import metrics

# Safe (not escaped) so that it reaches the HTML as written, and made of characters that
# escaping changes, so that no text a user typed can ever match it.
CSRF_PLACEHOLDER: SafeString = mark_safe("<!--csrf-token-->")
_PLACEHOLDER_BYTES = CSRF_PLACEHOLDER.encode()
UNREAD_PLACEHOLDER: SafeString = mark_safe("<!--unread-messages-->")
_UNREAD_BYTES = UNREAD_PLACEHOLDER.encode()
SEEN_PREFIX = "seen:"


def enabled() -> bool:
    return settings.PAGE_CACHE_SECONDS > 0


def serve(
    request: HttpRequest,
    page_key: str | None,
    render: Callable[[dict[str, Any]], tuple[HttpResponse, str | None]],
) -> HttpResponse:
    """The page at ``page_key`` from the cache, else the page ``render`` makes, stored.

    ``render(extra_context)`` gets the context to add to the page's own (the CSRF and
    unread-count placeholders, which every answer gets back as the requester's own) and
    returns the response and the key to store it under, built from what it rendered: usually
    ``page_key``, but a newer one when a move committed since ``page_key`` was read (None: do
    not store). ``page_key`` None: render, never store.
    """
    # Every board is rendered with the placeholders, stored or not, so that the fragments it
    # shares between viewers ({% cached_partial %}) never hold one requester's own token.
    # ``placeholders`` tells the site's frame (base.html, fragment_tags.frame_key) that it
    # may share its parts that hold them.
    placeholders = {
        "csrf_token": CSRF_PLACEHOLDER,
        "unread_badge": UNREAD_PLACEHOLDER,
        "placeholders": True,
    }
    if page_key is None or not enabled() or _has_messages(request):
        metrics.page_cache("skip")
        response, _ = render(placeholders)
        response.content = _own(request, response.content)
        return response
    html = caches["pages"].get(page_key)
    if html is not None:
        metrics.page_cache("hit")
        return HttpResponse(_own(request, html))
    response, store_key = render(placeholders)
    if store_key is not None and response.status_code == 200 and _asked_before(store_key):
        caches["pages"].set(store_key, response.content, settings.PAGE_CACHE_SECONDS)
        metrics.page_cache("miss")
    else:
        metrics.page_cache("first")
    response.content = _own(request, response.content)
    return response


def _asked_before(key: str) -> bool:
    """Whether this is at least the PAGE_CACHE_ADMIT_AFTER-th request of ``key`` (within
    an entry's lifetime): counted in a small mark beside the pages."""
    admit = settings.PAGE_CACHE_ADMIT_AFTER
    if admit <= 1:
        return True
    pages, seen = caches["pages"], SEEN_PREFIX + key
    if pages.add(seen, 1, settings.PAGE_CACHE_SECONDS):
        return False  # the first
    try:
        return pages.incr(seen) >= admit
    except ValueError:  # (the mark expired in between: this counts as a first again)
        return False


def _own(request: HttpRequest, html: bytes) -> bytes:
    """A stored page with the requester's own CSRF token and unread count in it."""
    html = html.replace(_PLACEHOLDER_BYTES, get_token(request).encode())
    if _UNREAD_BYTES in html:
        html = html.replace(_UNREAD_BYTES, unread_badge(request.user).encode())
    return html


def _has_messages(request: HttpRequest) -> bool:
    # len() loads the messages without marking them shown.
    return len(get_messages(request)) > 0
