"""What every JSON endpoint of the site shares, whichever app it belongs to: throttles (the
pages that share a limit with the API use them too), the base view with the body limit,
pagination and strict JSON fields. The error format and the game errors' answers are
``games.api.common``'s exception handler (settings.REST_FRAMEWORK)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias, TypeVar, cast

from django.conf import settings
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from guildhall_site import parsing
from guildhall_site.parsers import check_body_size

_M = TypeVar("_M", bound=Model)
_Row = TypeVar("_Row")

# A serializer's instance: one row, or (many=True) a list of them, which DRF's stubs do not
# tell apart.
OneOrMany: TypeAlias = _Row | Sequence[_Row]

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


def page_limit(request: HttpRequest, *throttles: SimpleRateThrottle) -> tuple[int, str] | None:
    """DRF throttles on a page (they read only the user and the client's address): None
    while each allows the request, else the whole seconds to wait for the first that does
    not and the message that says so (``retry_after``)."""
    for throttle in throttles:
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]
            return retry_after(throttle.wait())
    return None


class ApiThrottle(SimpleRateThrottle):
    """Counted in the cache per user, or per IP address for requests without a user.

    Rates come from ``settings.API_THROTTLE_RATES`` when the throttle is made (at each
    request), so that tests and deployments can change them.
    """

    scope = "api"
    # (the window's requests and seconds: SimpleRateThrottle sets them from the rate)
    num_requests: int | None
    duration: int | None

    def get_rate(self) -> str | None:
        # A scope missing from an overridden setting counts nothing rather than failing.
        return settings.API_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Request, view: APIView) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def refund(self) -> None:
        """Take back the request this throttle just counted (one that did nothing, such as
        removing a friend who was not one): it no longer counts against the limit."""
        history = getattr(self, "history", None)
        if not history or getattr(self, "key", None) is None:
            return  # it let the request through without counting it
        stored = list(self.cache.get(self.key, []))
        if self.now in stored:
            stored.remove(self.now)
            self.cache.set(self.key, stored, self.duration)
        if self.now in history:
            history.remove(self.now)


class ActionThrottle(ApiThrottle):
    """Submitted actions (moves), per user."""

    scope = "actions"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method != "POST":
            return True
        return super().allow_request(request, view)


class NoteThrottle(ApiThrottle):
    """Saves of private notes, per user (a page saves as its player types, a few a minute)."""

    scope = "notes"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


class WriteThrottle(ApiThrottle):
    """Counts what writes (POST, PUT, PATCH, DELETE) alone, per user; reads are free."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


class AddressWriteThrottle(WriteThrottle):
    """Writes per client address, whoever makes them: many accounts on one address share
    one limit (the ``<scope>`` of the same writes per user has its own)."""

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class FriendThrottle(WriteThrottle):
    """Friends added and removed, per user."""

    scope = "friends"


class FriendAddressThrottle(AddressWriteThrottle):
    scope = "friends_address"


class ChatThrottle(WriteThrottle):
    """Lines written in games' chats, per user."""

    scope = "chat"


class ChatAddressThrottle(AddressWriteThrottle):
    scope = "chat_address"


class MessageThrottle(WriteThrottle):
    """Messages sent to other players, per user."""

    scope = "messages"


class MessageAddressThrottle(AddressWriteThrottle):
    scope = "messages_address"


class ReportThrottle(WriteThrottle):
    """Reports of chat lines, messages and profiles, per user."""

    scope = "reports"


class ReportAddressThrottle(AddressWriteThrottle):
    scope = "reports_address"


class LoginThrottle(ApiThrottle):
    """Password attempts for a token, per IP address whoever they claim to be."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(ApiThrottle):
    """New tokens per user, from the API or from the settings page (a Django view)."""

    scope = "tokens"


# Views -------------------------------------------------------------------------------------


# Open: the base of views of any model's rows or of none (most answer with the reads' dicts).
class ApiView(GenericAPIView[Any]):
    """The base of every API view: the body limit before anything else, the general
    request throttle, and the headers that tell a client where it stands with them."""

    throttle_classes = [ApiThrottle]
    # No OPTIONS description of the views: the OpenAPI schema is the description.
    metadata_class = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        check_body_size(request)
        super().initial(request, *args, **kwargs)

    # DRF's Request where Django's View has HttpRequest: as DRF's stubs override it.
    def options(  # type: ignore[override]
        self, request: Request, *args: Any, **kwargs: Any
    ) -> Response:
        """The methods the endpoint takes, in ``Allow`` (as every answer has it), and no
        body: a 405 here would refuse a method that ``Allow`` lists."""
        return Response(status=204)

    def get_throttles(self) -> list[BaseThrottle]:
        # Kept: each knows, once it has counted the request, how many are left.
        self.counted_throttles = super().get_throttles()
        return self.counted_throttles

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        limit = rate_limit(getattr(self, "counted_throttles", ()))
        if limit is not None:
            for name, value in zip(RATE_LIMIT_HEADERS, limit, strict=True):
                response[name] = str(value)
        return response


# The throttle nearest its limit among those that counted a request, as GitHub's and many
# APIs' headers say it: the limit of its window, the requests left in it, and the seconds
# until one more is allowed (its oldest request counted leaves the window; 0: one is now).
RATE_LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def rate_limit(throttles: Iterable[BaseThrottle]) -> tuple[int, int, int] | None:
    """(limit, remaining, reset) of the throttle with the fewest requests left, of those
    that counted this one; None when none did (a read that only writes count)."""
    nearest: tuple[int, int, int] | None = None
    for throttle in throttles:
        if not isinstance(throttle, ApiThrottle):
            continue  # (every throttle of the site is one)
        history = getattr(throttle, "history", None)
        if history is None or throttle.num_requests is None or throttle.duration is None:
            continue  # it let the request through without counting it
        remaining = max(0, throttle.num_requests - len(history))
        reset = 0
        if remaining == 0 and history:
            reset = max(0, math.ceil(history[-1] + throttle.duration - throttle.now))
        if nearest is None or remaining < nearest[1]:
            nearest = (throttle.num_requests, remaining, reset)
    return nearest


def rate_limit_headers(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the rate limit headers on every answer of the
    schema (components/headers, referred to by each response)."""
    descriptions = {
        "X-RateLimit-Limit": "Requests allowed in the window of the limit nearest to its end "
        "(every request has one, and moves, chat, notes... each their own as well).",
        "X-RateLimit-Remaining": "Requests left in that window.",
        "X-RateLimit-Reset": "Seconds until one more request is allowed (0 while some are left).",
    }
    headers = result.setdefault("components", {}).setdefault("headers", {})
    for name, text in descriptions.items():
        headers[name] = {"description": text, "schema": {"type": "integer", "minimum": 0}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for answer in operation.get("responses", {}).values():
                mine = answer.setdefault("headers", {})
                for name in descriptions:
                    mine[name] = {"$ref": f"#/components/headers/{name}"}
    return result


class Pagination(PageNumberPagination):
    """``?page=`` from 1 and ``?page_size=`` up to 200, both checked: a page that does not
    exist, or a value that is not such a number, is a 400 (not silently the first page)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    last_page_strings = ()

    def check_query(self, request: Request) -> None:
        """A 400 for a ``page`` or ``page_size`` that is not such a whole number (before
        anything is read: a conditional read checks its request first)."""
        size = request.query_params.get(self.page_size_query_param)
        if size is not None and not _whole_number(size, self.max_page_size):
            message = _("Must be a whole number from 1 up to %(most)d.") % {
                "most": self.max_page_size
            }
            raise exceptions.ValidationError({self.page_size_query_param: [message]})
        page = request.query_params.get(self.page_query_param)
        if page is not None and not (page.isascii() and page.isdigit() and page.strip("0")):
            message = _("Must be a whole number from 1.")
            raise exceptions.ValidationError({self.page_query_param: [message]})

    def paginate_queryset(
        self,
        queryset: QuerySet[_M, _Row] | Sequence[_Row],
        request: Request,
        view: APIView | None = None,
    ) -> list[_Row] | None:
        self.check_query(request)
        page = request.query_params.get(self.page_query_param)
        if page is not None and not _whole_number(page, None):
            raise self._past_the_end(queryset, request)  # digits beyond any list's length
        try:
            return super().paginate_queryset(queryset, request, view)
        except exceptions.NotFound:
            raise self._past_the_end(queryset, request) from None

    def _past_the_end(
        self, queryset: QuerySet[_M, _Row] | Sequence[_Row], request: Request
    ) -> exceptions.NotFound:
        """A page after the last: 404, saying how many there are."""
        size = self.get_page_size(request) or self.page_size
        pages = self.django_paginator_class(queryset, size).num_pages
        return exceptions.NotFound(
            ngettext(
                "There is no such page: this list has %(count)d page.",
                "There is no such page: this list has %(count)d pages.",
                pages,
            )
            % {"count": pages}
        )

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
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
    def to_internal_value(self, data: object) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": gettext_lazy("Must be true or false.")}

    def to_internal_value(self, data: object) -> bool:
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    # An int choice stays an int (move_days), where DRF's stubs say every choice is a string.
    def to_internal_value(self, data: object) -> str | int:  # type: ignore[override]
        for value in self.choices:
            if type(value) is type(data) and value == data:
                return cast("str | int", value)  # a choice: a string or a whole number
        self.fail("invalid_choice", input=data)


def query_flag(request: Request, name: str) -> bool | None:
    """A true/false query parameter: None when absent, 400 when it is neither."""
    value = request.query_params.get(name)
    if value is None:
        return None
    if value in ("true", "false"):
        return value == "true"
    raise exceptions.ValidationError({name: [_("Must be true or false.")]})
