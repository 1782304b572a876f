"""Requests refused before any view sees them."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

NUL = "\x00"


class RejectNulCharactersMiddleware:
    """A NUL character in the path, the query or a form field is refused with a 400.

    No one types one, and PostgreSQL cannot store or even compare text holding one: a view
    that looked such a value up would fail with a 500 (a username in /u/<name>/, a key in a
    confirmation link). Forms refuse it field by field; this covers every other way in.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._has_nul(request):
            # Before LocaleMiddleware: the language of the cookie or the browser, by hand (a
            # player's own preference needs the session, which is not read yet).
            with translation.override(translation.get_language_from_request(request)):
                message = _("The request contains a NUL character: nothing was done.")
            if request.path.startswith("/api/"):
                body = {
                    "code": "invalid",
                    "message": message,
                    "fields": {"non_field_errors": [message]},
                }
                return JsonResponse(body, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _has_nul(request: HttpRequest) -> bool:
        if NUL in request.path:
            return True
        forms = [request.GET, request.POST] if request.method == "POST" else [request.GET]
        for data in forms:
            for key, values in data.lists():
                if NUL in key or any(NUL in v for v in values if isinstance(v, str)):
                    return True
        return False
