"""``{% contact_email as contact_email %}``: the setting CONTACT_EMAIL, for a page rendered
without a request (templates/500.html), where accounts.context_processors.contact does not
run. It reads nothing but the settings."""

from django import template
from django.conf import settings

from accounts.context_processors import site_name as translated_site_name

register = template.Library()


@register.simple_tag
def contact_email() -> str:
    return settings.CONTACT_EMAIL


@register.simple_tag
def site_name() -> str:
    """The setting SITE_NAME in the reader's language, for a page or an email rendered
    without a request."""
    return translated_site_name()
