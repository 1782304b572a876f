"""The request body: refused unread when too large, parsed as strict JSON.

Kept apart from ``games.api.common`` because DRF imports its parser classes while
``rest_framework.views`` is being imported: this module must not import DRF's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from guildhall_site import parsing

if TYPE_CHECKING:  # not imported when run: DRF imports this module while its own load
    from rest_framework.request import Request


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "payload_too_large"

    def __init__(self) -> None:
        super().__init__(
            _("The request body is larger than %(most)d bytes: nothing in this API needs that much")
            % {"most": settings.API_MAX_BODY_BYTES}
        )


def check_body_size(request: HttpRequest | Request) -> None:
    """Refuse a body larger than API_MAX_BODY_BYTES from its Content-Length, unread."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.API_MAX_BODY_BYTES:
        raise PayloadTooLarge()


class BoundedJSONParser(JSONParser):
    """JSON, read up to API_MAX_BODY_BYTES, with a message that says what is wrong."""

    # Any JSON value, as DRF's JSONParser gives too, where its stubs say only an object.
    def parse(  # type: ignore[override]
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> object:
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise exceptions.ParseError(
                _("The body is not valid %(encoding)s text") % {"encoding": encoding}
            ) from None
        try:
            return parsing.loads(text)
        except ValueError as exc:
            raise exceptions.ParseError(
                _("The body is not valid JSON: %(error)s") % {"error": exc}
            ) from None
