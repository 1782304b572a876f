"""The pages' side of the actions' errors: ``games.play.errors.NotFound`` is the 404 page."""

from __future__ import annotations

from collections.abc import Callable

from django.core.handlers.exception import response_for_exception
from django.http import Http404, HttpRequest, HttpResponse

from games.play.errors import NotFound


class NotFoundMiddleware:
    """A page whose action or read found no such game or invitation answers 404, as if the
    view had raised ``Http404`` (the API's handler does the same for its answers)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, NotFound):
            return response_for_exception(request, Http404(*exception.args))
        return None
