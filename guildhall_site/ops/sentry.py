"""Error reports to Sentry (sentry-sdk), when SENTRY_DSN is set (settings.py calls ``init``).

What leaves the server is only what finds a bug: the exception's type and its stack (file,
line, function and the code around it), the URL *pattern* of the request (``/u/{username}/``,
never the name), its method, the task's name, the release and the time. Everything else is
taken out before the report is sent (``scrub``), beside what the SDK is told not to collect:

- personal data: users, cookies, session and CSRF tokens, every header but a few harmless
  ones (no Authorization, no Cookie), client addresses, query strings, email addresses and
  API tokens in any text;
- game secrets: no request body (a move names the cards played and the note a player typed),
  no local variable of any frame (a state holds every hand, the deck and the seed), no task
  arguments, no structured log argument (a dict or list could be a state), no breadcrumb data.
"""

from __future__ import annotations

import re
from typing import Any, cast

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.redis import RedisIntegration

from guildhall_site.ops.logging import strip_query_values

FILTERED = "[Filtered]"

# Headers that tell nothing of a person or a secret.
_KEPT_HEADERS = frozenset(
    {"accept", "content-type", "content-length", "x-request-id", "hx-request"}
)
_KEPT_EXTRA = frozenset({"celery-job"})
_KEPT_CELERY_JOB = frozenset({"task_name"})

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
_TOKEN = re.compile(r"\b(guild_[A-Za-z0-9]+|[A-Fa-f0-9]{32,}|[A-Za-z0-9_-]{40,})")
_IPV4 = re.compile(r"\b\d{1,3}(\.\d{1,3}){3}\b")
_IPV6 = re.compile(r"\b[0-9a-fA-F]{0,4}(:[0-9a-fA-F]{0,4}){2,7}\b")


def init(
    dsn: str,
    *,
    environment: str,
    release: str | None,
    traces_sample_rate: float,
    transport: Any = None,
) -> None:
    """``transport``: where events go instead of the DSN's server (the tests' capture)."""
    sentry_sdk.init(
        dsn=dsn,
        transport=transport,
        environment=environment,
        release=release,
        traces_sample_rate=traces_sample_rate,
        integrations=[
            # URL patterns, not paths, name the transactions (and the reports' "transaction").
            DjangoIntegration(transaction_style="url"),
            CeleryIntegration(),
            RedisIntegration(),
        ],
        # What the integrations collect at all (the scrubber below removes the rest): no
        # user, cookie, body, query string, SQL parameter, task argument or local variable.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_headers": {"request": {"mode": "allowlist", "terms": sorted(_KEPT_HEADERS)}},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
            "database_query_data": False,
            "queues": False,
            "stack_frame_variables": False,
        },
        include_local_variables=False,
        max_request_body_size="never",
        # The SDK types an event as a TypedDict; scrub reads and writes it as the plain dict
        # it is.
        before_send=cast(Any, scrub),
        before_send_transaction=cast(Any, scrub),
        before_breadcrumb=cast(Any, scrub_breadcrumb),
    )


def redact(text: str) -> str:
    """A text with email addresses, tokens and addresses replaced."""
    text = strip_query_values(text)
    text = _EMAIL.sub(FILTERED, text)
    text = _TOKEN.sub(FILTERED, text)
    text = _IPV4.sub(FILTERED, text)
    return _IPV6.sub(FILTERED, text)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    return FILTERED  # a dict or list could be a game's state


def scrub(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """``event`` without personal data nor game secrets (see the module's docstring). Used as
    ``before_send``; returns the same dict, changed."""
    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        headers = request.get("headers") or {}
        kept = {k: v for k, v in headers.items() if k.lower() in _KEPT_HEADERS}
        # The pattern, not the path: /u/{username}/, /emails/unsubscribe/{token}/.
        url = event.get("transaction") if isinstance(event.get("transaction"), str) else None
        scrubbed = {"method": request.get("method"), "url": url or FILTERED, "headers": kept}
        event["request"] = {k: v for k, v in scrubbed.items() if v is not None}
    extra = event.get("extra")
    if isinstance(extra, dict):
        kept_extra: dict[str, Any] = {}
        for key in _KEPT_EXTRA & extra.keys():
            value = extra[key]
            if isinstance(value, dict):
                kept_extra[key] = {k: v for k, v in value.items() if k in _KEPT_CELERY_JOB}
        event["extra"] = kept_extra
    for section in ("exception", "threads"):
        for entry in (event.get(section) or {}).get("values") or []:
            if isinstance(entry.get("value"), str):
                entry["value"] = redact(entry["value"])
            for frame in (entry.get("stacktrace") or {}).get("frames") or []:
                frame.pop("vars", None)
    logentry = event.get("logentry")
    if isinstance(logentry, dict):
        params = logentry.get("params")
        if isinstance(params, list | tuple):
            logentry["params"] = [_redact_value(p) for p in params]
        elif params is not None:
            logentry["params"] = FILTERED
        for key in ("message", "formatted"):
            if isinstance(logentry.get(key), str):
                logentry[key] = redact(logentry[key])
        if isinstance(logentry.get("message"), str) and isinstance(logentry.get("params"), list):
            logentry["formatted"] = _format(logentry["message"], tuple(logentry["params"]))
    if isinstance(event.get("message"), str):
        event["message"] = redact(event["message"])
    breadcrumbs = event.get("breadcrumbs")
    values = breadcrumbs.get("values") if isinstance(breadcrumbs, dict) else breadcrumbs
    for crumb in values or []:
        scrub_breadcrumb(crumb)
    contexts = event.get("contexts")
    if isinstance(contexts, dict):
        contexts.pop("response", None)
    for span in event.get("spans") or []:
        span.pop("data", None)
        if isinstance(span.get("description"), str):
            span["description"] = redact(span["description"])
    return event


def scrub_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """A breadcrumb keeps its category, level and redacted message; its data goes (an SQL
    query's parameters, an outgoing request's URL, a log call's arguments). A log line's
    message is formatted again from its template, with its structured arguments filtered."""
    crumb.pop("data", None)
    record = (hint or {}).get("log_record")
    if record is not None and isinstance(record.msg, str):
        crumb["message"] = _format(record.msg, record.args)
    if isinstance(crumb.get("message"), str):
        crumb["message"] = redact(crumb["message"])
    return crumb


def _format(template: str, args: Any) -> str:
    if not args:
        return template
    values = args if isinstance(args, tuple) else (args,)
    try:
        return template % tuple(_redact_value(v) for v in values)
    except (TypeError, ValueError):
        return template
