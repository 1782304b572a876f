"""The request the site's views are given: Django's, with what the middleware adds to it."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware (settings.MIDDLEWARE) leaves it: with ``htmx``,
    whether htmx sent it and how. For type checking only: views are given Django's request."""

    htmx: HtmxDetails
