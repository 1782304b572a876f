"""A real webhook receiver on loopback, written from docs/api.md ("Webhooks") alone.

``receiver`` is an HTTP server in a thread. Each POST is checked as the docs tell a
receiver to: the ``Guildhall-Signature`` header ``t=<unix time>,v1=<hex>`` must be the
HMAC-SHA256, with the hook's secret, of ``<t>.`` followed by the body's bytes, and ``t``
within five minutes of now. A delivery that passes is kept (``received``, in order) and
put on ``events`` for a bot to wait on; one that does not is answered 400 and noted in
``errors``. ``answers`` are statuses to give to the next requests instead of 200 (a
receiver that is down or failing).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import queue
import threading
import time
from dataclasses import dataclass
from email.message import Message

import pytest

from tests.loopback import Answer, LoopbackServer


@dataclass
class Received:
    path: str
    payload: dict
    headers: dict  # names in lower case
    body: bytes


def signature_ok(secret: str, header: str, body: bytes, tolerance: int = 300) -> bool:
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    if not fields.get("t", "").isdigit() or abs(time.time() - int(fields["t"])) > tolerance:
        return False
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), fields.get("v1", ""))


class Receiver(LoopbackServer):
    def __init__(self, port: int | None = None) -> None:
        super().__init__(port)
        self.secrets: dict[str, str] = {}  # path -> the secret of the hook posting there
        self.received: list[Received] = []
        self.events: queue.Queue[Received] = queue.Queue()
        self.answers: list[int] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _answer(self, path: str, headers: Message, body: bytes) -> int:
        with self._lock:
            if self.answers:
                return self.answers.pop(0)
        secret = self.secrets.get(path)
        if secret is None or not signature_ok(secret, headers.get("Guildhall-Signature", ""), body):
            self.errors.append(f"bad signature on {path}")
            return 400
        got = Received(path, json.loads(body), {k.lower(): v for k, v in headers.items()}, body)
        with self._lock:
            self.received.append(got)
        self.events.put(got)
        return 200

    def respond(self, path: str, headers: Message, body: bytes) -> Answer:
        status = self._answer(path, headers, body)
        return status, {}, b"thanks" if status == 200 else b"no"


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    server = Receiver()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def bots_allowed(settings):
    """Bots on this machine: webhooks may go to loopback, and no API limit stops them."""
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }
