"""What every page rendered with a request may use (settings.TEMPLATES)."""

from django.conf import settings
from django.http import HttpRequest


def contact(request: HttpRequest) -> dict:
    """``contact_email``: where a page that says "contact us" links to (mailto:), the setting
    CONTACT_EMAIL. The 500 page, rendered without a request, has the tag of
    accounts/templatetags/contact.py instead."""
    return {"contact_email": settings.CONTACT_EMAIL}
