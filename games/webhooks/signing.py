"""The signature of a delivery, as Stripe's: ``Guildhall-Signature: t=<unix time>,v1=<hex>``,
where v1 is HMAC-SHA256 with the hook's secret of ``<t>.<the body's bytes>``. A receiver
computes it again, compares in constant time, and refuses a ``t`` too far from its clock
(a replayed delivery)."""

from __future__ import annotations

import hashlib
import hmac

HEADER = "Guildhall-Signature"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(secret: str, value: str, body: bytes, now: int, tolerance: int = 300) -> bool:
    """Whether ``value`` (the header) signs ``body`` with ``secret`` within ``tolerance``
    seconds of ``now``: what a receiver does (the docs show it; the tests use it)."""
    fields = dict(part.split("=", 1) for part in value.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(fields.get("v1", ""), signature(secret, timestamp, body))
