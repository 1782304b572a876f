"""One POST of a delivery to the address ``addresses.resolve`` checked: to that IP address
(the Host header and TLS's server name are the address's host, whose certificate is
verified), with short timeouts, no redirects followed and at most a few hundred bytes of
the answer read."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import urllib3
from django.conf import settings

from games.webhooks.addresses import Target

# What is kept of an answer's body, for its owner to read in the deliveries.
KEEP = 500
# Why no answer came, as a delivery keeps it: one reason for every failure (refused, timed
# out, TLS, an address not allowed), and no duration, so that the deliveries do not tell an
# open port from a closed one; the details go to the log.
UNREACHABLE = "unreachable"

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    status: int | None  # None: no answer (refused, timed out, TLS failed)
    body: str
    error: str  # "" or UNREACHABLE
    duration_ms: int | None  # None without an answer

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(target: Target, body: bytes, headers: dict[str, str]) -> Outcome:
    timeout = urllib3.Timeout(
        connect=settings.WEBHOOK_TIMEOUT_SECONDS, read=settings.WEBHOOK_TIMEOUT_SECONDS
    )
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.ip,
            target.port,
            timeout=timeout,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            server_hostname=target.host,
            assert_hostname=target.host,
        )
    else:
        pool = urllib3.HTTPConnectionPool(target.ip, target.port, timeout=timeout, retries=False)
    default_port = 443 if target.scheme == "https" else 80
    host = target.host if ":" not in target.host else f"[{target.host}]"
    if target.port != default_port:
        host = f"{host}:{target.port}"
    start = time.monotonic()
    try:
        with pool:
            answer = pool.urlopen(
                "POST",
                target.path,
                body=body,
                headers={**headers, "Host": host},
                redirect=False,
                preload_content=False,
            )
            text = answer.read(KEEP).decode("utf-8", "replace")
            answer.release_conn()
            status, error = answer.status, ""
    except urllib3.exceptions.HTTPError as failure:
        logger.info("webhook to %s: no answer: %s", target.host, _reason(failure))
        return unreachable()
    return Outcome(status, text, error, int((time.monotonic() - start) * 1000))


def unreachable() -> Outcome:
    return Outcome(None, "", UNREACHABLE, None)


def _reason(failure: Exception) -> str:
    """Why there was no answer, in a few words (never the whole chain of exceptions)."""
    reason = getattr(failure, "reason", None) or failure
    return f"{type(reason).__name__}: {reason}"[:200]
