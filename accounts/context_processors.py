"""What every page rendered with a request may use (settings.TEMPLATES)."""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext

from accounts.models import User

# SITE_NAME's default, translated in each language; a name the site sets is its own name
# (gettext leaves a text it has no translation of as it is).
gettext_noop("Card games by post")


def contact(request: HttpRequest) -> dict[str, Any]:
    """``contact_email``: where a page that says "contact us" links to (mailto:), the setting
    CONTACT_EMAIL. The 500 page, rendered without a request, has the tag of
    accounts/templatetags/contact.py instead."""
    return {"contact_email": settings.CONTACT_EMAIL}


def site_name() -> str:
    """The setting SITE_NAME in the reader's language."""
    return gettext(settings.SITE_NAME)


def site(request: HttpRequest) -> dict[str, Any]:
    """``site_name``: the setting SITE_NAME, in the reader's language (the 500 page has the
    tag of accounts/templatetags/contact.py)."""
    return {"site_name": site_name()}


def unread_badge(user: User | AnonymousUser) -> SafeString:
    """The header's count of ``user``'s unread messages (``User.unread_messages``, read with
    the user: no query), or nothing when there are none."""
    count = getattr(user, "unread_messages", 0) if user.is_authenticated else 0
    if not count:
        return mark_safe("")
    label = ngettext("%(n)d unread message", "%(n)d unread messages", count) % {"n": count}
    return format_html(
        ' <span class="unread-badge" title="{}"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        label,
        "99+" if count > 99 else count,
        label,
    )


def messages_badge(request: HttpRequest) -> dict[str, Any]:
    """``unread_badge`` for the header (base.html), made only when a template shows it. A
    page kept in the cache (games.web.page_cache) stores a placeholder and puts each
    request's own badge in its place."""
    return {"unread_badge": SimpleLazyObject(lambda: unread_badge(request.user))}
