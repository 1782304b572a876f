"""What every API view shares: the error format, the body limit and parser, throttles,
strict JSON fields and pagination.

Every error is ``{"code": ..., "message": ...}`` with a status that says what to do:
400 the request is wrong (``rule`` names the engine's rule for an illegal action, ``fields``
lists the invalid fields), 401 no or a bad token, 403 not allowed, 404 no such thing,
409 the game moved on (``version`` is the current one), 413 the body is too large,
415 not JSON, 429 too many requests (``retry_after`` seconds).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.api.schema import ERROR_CODES
from games.core import IllegalAction
from games.play.errors import Limited, NotAPlayer, NotFound, NotYourTurn, StaleVersion
from guildhall_site.rest import retry_after

# Errors ------------------------------------------------------------------------------------


def error(code: str, message: str, status: int, **extra: object) -> JsonResponse:
    return JsonResponse({"code": code, "message": message, **extra}, status=status)


def _first_message(detail: object) -> str:
    """The first message of a DRF error detail (a string, list or dict of them)."""
    if isinstance(detail, dict):
        for name, value in detail.items():
            text = _first_message(value)
            return text if name in ("non_field_errors", "detail") else f"{name}: {text}"
        return _("Invalid request")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else _("Invalid request")
    return str(detail)


def _messages(detail: object) -> list[str]:
    """A field's messages as a flat list; those of list items and nested fields say where
    (``0: Ensure this field has no more than 150 characters.``)."""
    if isinstance(detail, dict):
        return [f"{key}: {m}" for key, value in detail.items() for m in _messages(value)]
    if isinstance(detail, list):
        out: list[str] = []
        for i, item in enumerate(detail):
            out += (
                [f"{i}: {m}" for m in _messages(item)]
                if isinstance(item, dict)
                else (_messages(item))
            )
        return out
    return [str(detail)]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with the service and engine errors, and every body as code + message."""
    if isinstance(exc, StaleVersion):
        return _response(
            "stale_version",
            _(
                "The game has moved on: it is at version %(version)d. Nothing was done; "
                "read the game again and decide on what you see."
            )
            % {"version": exc.current},
            409,
            version=exc.current,
        )
    if isinstance(exc, IllegalAction):
        return _response("illegal_action", exc.message, 400, rule=exc.rule)
    if isinstance(exc, Limited):
        # Too many new invitations this hour (the lobby's limit too): as a throttle says it.
        limited = _response("throttled", " ".join(exc.messages), 429, retry_after=exc.retry_after)
        limited["Retry-After"] = str(exc.retry_after)
        return limited
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):  # a rule of the actions broken, naming the field
            fields = {
                ("non_field_errors" if name == "__all__" else name): messages
                for name, messages in exc.message_dict.items()
            }
            return _response("invalid", " ".join(exc.messages), 400, fields=fields)
        fields = {"non_field_errors": exc.messages}
        return _response("invalid", " ".join(exc.messages), 400, fields=fields)
    if isinstance(exc, NotAPlayer):  # (chat, notes: no turn would change it)
        return _response("permission_denied", str(exc), 403)
    if isinstance(exc, NotYourTurn):
        return _response("not_your_turn", str(exc) or _("You cannot move in this game now"), 403)
    if isinstance(exc, Http404 | NotFound):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: Django answers 500 and logs it
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    if isinstance(exc, exceptions.ValidationError):
        found = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        messages = {name: _messages(value) for name, value in found.items()}
        response.data = {"code": "invalid", "message": _first_message(detail), "fields": messages}
    elif isinstance(exc, exceptions.Throttled):
        # ``wait``: set by DRF's Throttled, missing from its stubs
        wait, message = retry_after(exc.wait)  # type: ignore[attr-defined]
        response.data = {"code": "throttled", "message": message, "retry_after": wait}
        response["Retry-After"] = str(wait)
    else:
        code = exc.default_code if isinstance(exc, exceptions.APIException) else "error"
        code = code if code in ERROR_CODES else "error"  # the schema's enum: nothing else
        response.data = {"code": code, "message": _first_message(detail)}
    return response


def _response(code: str, message: str, status: int, **extra: object) -> Response:
    return Response({"code": code, "message": message, **extra}, status=status)


@csrf_exempt  # whatever the method: there is nothing here to protect
def not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Any path under /api/ that names no endpoint: JSON, like every other API answer."""
    return error("not_found", _("There is no such API endpoint: see /api/docs/"), 404)


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """The site's 500 page (``handler500``); under /api/, JSON like every other API answer."""
    if request.path.startswith("/api/"):
        message = _("Something went wrong on our side: please try again")
        return error("server_error", message, 500)
    return defaults.server_error(request, *args, **kwargs)


# Views -------------------------------------------------------------------------------------
