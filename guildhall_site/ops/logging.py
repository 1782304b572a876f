"""A request id on every request and every log line, and the logs as JSON when asked.

``RequestIdMiddleware`` (first in settings.MIDDLEWARE) takes the proxy's ``X-Request-ID``
when it is a plain token, else makes one, keeps it for the request's log lines and answers
with it, so that one id ties the proxy's access log, gunicorn's, the site's lines and a Sentry
report together. ``RequestIdFilter`` puts it (and, in a Celery worker, the task's id) on each
record as ``request_id``; the JSON formatter (python-json-logger) writes it as a field.

With ``LOG_FORMAT=json`` (settings.py) every line is one JSON object: ``time``, ``level``,
``logger``, ``message``, ``request_id`` and whatever a logger passes in ``extra``.

Every line is stripped of query strings' values (``QueryValuesFilter``; the access logs of
gunicorn and uvicorn by ``access_log``): ``?email=...&token=...`` is logged as
``?email=[Filtered]&token=[Filtered]``.
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
# What a proxy's id may look like to be taken as it is (Caddy's, nginx's $request_id, a
# UUID): anything else, which could forge log lines, is replaced by our own.
_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{8,64}")

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


def new_id() -> str:
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        rid = given if _SAFE_ID.fullmatch(given) else new_id()
        token = request_id.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response[HEADER] = rid
        return response


def _task_id() -> str:
    # A Celery task's log lines carry its id (the request id of the work it does).
    from celery import current_task

    if current_task and current_task.request and current_task.request.id:
        return str(current_task.request.id)
    return ""


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record: the request's, a Celery task's, or ``""``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = request_id.get() or _task_id()
        return True


class NoColoursFilter(logging.Filter):
    """Drops uvicorn's ``color_message`` (the message again, with a terminal's colour codes)
    from a record, which JSON would otherwise write as a field of its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)
        return True


# A query string's parameter (after "?" or "&") and its value, in any logged text: the value
# may be a token, an email address or a search for a name.
_QUERY_VALUE = re.compile(r"(?<=[?&])([\w.\-\[\]%+]+)=([^&\s#\"']*)")
FILTERED = "[Filtered]"


def strip_query_values(text: str) -> str:
    """``text`` with the value of every query parameter of a URL in it replaced (the names
    stay: what was asked for, not with what)."""
    if "=" not in text:
        return text
    return _QUERY_VALUE.sub(lambda m: f"{m[1]}={FILTERED}" if m[2] else m[0], text)


def _stripped(value: Any) -> Any:
    return strip_query_values(value) if isinstance(value, str) else value


class QueryValuesFilter(logging.Filter):
    """Strips query values from a record's message and its arguments (a request line, a
    URL), before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = strip_query_values(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_stripped(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _stripped(v) for k, v in record.args.items()}
        return True


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """settings.LOGGING for ``LOG_FORMAT`` plain (the default) or json."""
    if log_format == "json":
        line: dict[str, Any] = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        }
        formatters = {"plain": line, "request": line}
    else:
        formatters = {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
            "request": {
                "()": "django.utils.log.ServerFormatter",
                "format": "[{server_time}] {message}",
                "style": "{",
            },
        }
    filters = ["request_id", "query_values", *(["no_colours"] if log_format == "json" else [])]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "guildhall_site.ops.logging.RequestIdFilter"},
            "query_values": {"()": "guildhall_site.ops.logging.QueryValuesFilter"},
            "no_colours": {"()": "guildhall_site.ops.logging.NoColoursFilter"},
        },
        "formatters": formatters,
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": filters},
            "request": {
                "class": "logging.StreamHandler",
                "formatter": "request",
                "filters": filters,
            },
        },
        "root": {"handlers": ["console"], "level": level},
        # These replace Django's own handlers, which would print each line a second time
        # through the root logger's.
        "loggers": {
            "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "django.server": {"handlers": ["request"], "level": "INFO", "propagate": False},
            # Celery's "Task ... received" (with its arguments) and "succeeded in ...: <return
            # value>": a task's own line says it in JSON (ops/celery_logging.py).
            **(
                {
                    name: {"level": "WARNING"}
                    for name in ("celery.app.trace", "celery.worker.strategy")
                }
                if log_format == "json"
                else {}
            ),
        },
    }


# uvicorn.access is not among them: the events process's access log is the site's own line
# (guildhall_site/ops/access_log.py), uvicorn's left off (docs/Procfile: --no-access-log).
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.asgi")


def adopt_uvicorn_loggers(log_format: str) -> None:
    """uvicorn's loggers write through the site's handlers (JSON with ``LOG_FORMAT=json``,
    query values stripped) instead of the ones uvicorn set up before loading the site.
    Called as the events process loads its application (guildhall_site/asgi.py), which
    uvicorn does before its first line."""
    if log_format != "json":
        return
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
