"""What every API view shares: the error format, the body limit and parser, throttles,
strict JSON fields and pagination.

Every error is ``{"code": ..., "message": ...}`` with a status that says what to do:
400 the request is wrong (``rule`` names the engine's rule for an illegal action, ``fields``
lists the invalid fields), 401 no or a bad token, 403 not allowed, 404 no such thing,
409 the game moved on (``version`` is the current one), 413 the body is too large,
415 not JSON, 429 too many requests (``retry_after`` seconds).
"""

from __future__ import annotations

import math

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import exception_handler as drf_exception_handler

from games import parsing
from games.api.parsers import check_body_size
from games.core import IllegalAction
from games.services import Limited, NotYourTurn, StaleVersion

# Errors ------------------------------------------------------------------------------------


def error(code: str, message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"code": code, "message": message, **extra}, status=status)


def _first_message(detail) -> str:
    """The first message of a DRF error detail (a string, list or dict of them)."""
    if isinstance(detail, dict):
        for name, value in detail.items():
            text = _first_message(value)
            return text if name in ("non_field_errors", "detail") else f"{name}: {text}"
        return _("Invalid request")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else _("Invalid request")
    return str(detail)


def _messages(detail) -> list[str]:
    """A field's messages as a flat list; those of list items and nested fields say where
    (``0: Ensure this field has no more than 150 characters.``)."""
    if isinstance(detail, dict):
        return [f"{key}: {m}" for key, value in detail.items() for m in _messages(value)]
    if isinstance(detail, list):
        out = []
        for i, item in enumerate(detail):
            out += (
                [f"{i}: {m}" for m in _messages(item)]
                if isinstance(item, dict)
                else (_messages(item))
            )
        return out
    return [str(detail)]


def exception_handler(exc, context):
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
        response = _response("throttled", " ".join(exc.messages), 429, retry_after=exc.retry_after)
        response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, DjangoValidationError):
        return _response("invalid", " ".join(exc.messages), 400)
    if isinstance(exc, NotYourTurn):
        return _response("not_your_turn", str(exc) or _("You cannot move in this game now"), 403)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: Django answers 500 and logs it
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    if isinstance(exc, exceptions.ValidationError):
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        fields = {name: _messages(value) for name, value in fields.items()}
        response.data = {"code": "invalid", "message": _first_message(detail), "fields": fields}
    elif isinstance(exc, exceptions.Throttled):
        wait, message = retry_after(exc.wait)
        response.data = {"code": "throttled", "message": message, "retry_after": wait}
        response["Retry-After"] = str(wait)
    else:
        code = exc.default_code if isinstance(exc, exceptions.APIException) else "error"
        response.data = {"code": code, "message": _first_message(detail)}
    return response


def _response(code: str, message: str, status: int, **extra) -> Response:
    return Response({"code": code, "message": message, **extra}, status=status)


@csrf_exempt  # whatever the method: there is nothing here to protect
def not_found(request, *args, **kwargs) -> JsonResponse:
    """Any path under /api/ that names no endpoint: JSON, like every other API answer."""
    return error("not_found", _("There is no such API endpoint: see /api/docs/"), 404)


def server_error(request, *args, **kwargs) -> HttpResponse:
    """The site's 500 page (``handler500``); under /api/, JSON like every other API answer."""
    if request.path.startswith("/api/"):
        message = _("Something went wrong on our side: please try again")
        return error("server_error", message, 500)
    return defaults.server_error(request, *args, **kwargs)


# Throttles ---------------------------------------------------------------------------------


def retry_after(wait: float | None) -> tuple[int, str]:
    """Whole seconds to wait (at least one) and the message that says so: a throttle's
    answer, in the API and on the pages that share its throttles."""
    seconds = math.ceil(wait or 1)
    message = ngettext(
        "Too many requests: try again in %(n)d second.",
        "Too many requests: try again in %(n)d seconds.",
        seconds,
    ) % {"n": seconds}
    return seconds, message


class ApiThrottle(SimpleRateThrottle):
    """Counted in the cache per user, or per IP address for requests without a user.

    Rates come from ``settings.API_THROTTLE_RATES`` when the throttle is made (at each
    request), so that tests and deployments can change them.
    """

    scope = "api"

    def get_rate(self) -> str:
        return settings.API_THROTTLE_RATES[self.scope]

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ActionThrottle(ApiThrottle):
    """Submitted actions (moves), per user."""

    scope = "actions"

    def allow_request(self, request, view) -> bool:
        if request.method != "POST":
            return True
        return super().allow_request(request, view)


class LoginThrottle(ApiThrottle):
    """Password attempts for a token, per IP address whoever they claim to be."""

    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(ApiThrottle):
    """New tokens per user, from the API or from the settings page (a Django view)."""

    scope = "tokens"


# Views -------------------------------------------------------------------------------------


class ApiView(GenericAPIView):
    """The base of every API view: the body limit before anything else, and the general
    request throttle."""

    throttle_classes = [ApiThrottle]
    # No OPTIONS description of the views: the OpenAPI schema is the description.
    metadata_class = None

    def initial(self, request, *args, **kwargs) -> None:
        check_body_size(request)
        super().initial(request, *args, **kwargs)


class Pagination(PageNumberPagination):
    """``?page=`` from 1 and ``?page_size=`` up to 200, both checked: a page that does not
    exist, or a value that is not such a number, is a 400 (not silently the first page)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    last_page_strings = ()

    def paginate_queryset(self, queryset, request, view=None):
        limits = {self.page_query_param: None, self.page_size_query_param: self.max_page_size}
        for name, most in limits.items():
            value = request.query_params.get(name)
            if value is not None and not _whole_number(value, most):
                message = (
                    _("Must be a whole number from 1 up to %(most)d.") % {"most": most}
                    if most
                    else _("Must be a whole number from 1.")
                )
                raise exceptions.ValidationError({name: [message]})
        try:
            return super().paginate_queryset(queryset, request, view)
        except exceptions.NotFound:
            raise exceptions.ValidationError({"page": [_("There is no such page.")]}) from None

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters


def _whole_number(value: str, most: int | None) -> bool:
    return parsing.whole_number(value, minimum=1, maximum=most or 10**9) is not None


# Strict JSON fields ------------------------------------------------------------------------
# DRF's fields accept "7" for 7 and "yes" for true, as HTML forms need. A JSON API states
# its types, and a client that sends the wrong one should hear about it.


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": gettext_lazy("Must be true or false.")}

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    def to_internal_value(self, data):
        for value in self.choices:
            if type(value) is type(data) and value == data:
                return value
        self.fail("invalid_choice", input=data)


def query_flag(request, name: str) -> bool | None:
    """A true/false query parameter: None when absent, 400 when it is neither."""
    value = request.query_params.get(name)
    if value is None:
        return None
    if value in ("true", "false"):
        return value == "true"
    raise exceptions.ValidationError({name: [_("Must be true or false.")]})
