"""Which language a player reads: their own choice, else what their browser asks for.

Pages: Django's LocaleMiddleware picks the visitor's language (the footer's choice kept in a
cookie, else Accept-Language); for a logged-in player ``UserPreferencesMiddleware`` puts their
own preference first. Emails and pushes have no browser: they use the preference, else the
language the player's browser last asked for (``browser_language``), else the site's default.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils import translation

from accounts.models import User


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (``de-AT`` counts as ``de``), else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_of(user: User) -> str:
    """The language of ``user``'s emails and pushes."""
    return supported(user.language) or supported(user.browser_language) or settings.LANGUAGE_CODE


def for_request(request: HttpRequest, user: User) -> str:
    """The language of this page for a logged-in ``user``: their choice, else the browser's
    (already chosen by LocaleMiddleware), which is remembered for their emails."""
    chosen = supported(user.language)
    if chosen:
        return chosen
    browser = supported(translation.get_language_from_request(request)) or (settings.LANGUAGE_CODE)
    if user.browser_language != browser and not getattr(user, "is_computer", False):
        # One UPDATE when the browser's language changes; never on an ordinary request.
        get_user_model().objects.filter(pk=user.pk).update(browser_language=browser)
        user.browser_language = browser
    return browser
