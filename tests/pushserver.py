"""A real Web Push service on loopback for the tests of push notifications.

``push_service`` is an HTTP server in a thread, standing for the push service of a browser
(FCM, Mozilla's autopush, Apple's). ``push_service.device(user)`` plays a browser that
subscribed: it makes the browser's own key pair and auth secret, and records the
``PushSubscription`` whose endpoint is on this server. Each POST to an endpoint is checked as
a push service and a browser would: the VAPID signature (RFC 8292) against the site's public
key, then the body decrypted (RFC 8291, aes128gcm) with that device's private key, by
``http_ece``. ``push_service.received`` are the messages decrypted, in order.

It can fail as push services do: ``answers`` are statuses to give to the next requests
(503, 429...), and a device in ``gone`` is answered 410. ``push_down`` points nowhere until
``.start()``, as a push service that cannot be reached.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from email.message import Message

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from tests.loopback import Answer, LoopbackServer


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's side of a subscription: the keys only it has."""

    name: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    subscription: object = None  # its PushSubscription row

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )


@dataclass
class Received:
    device: str
    payload: dict
    headers: dict  # names in lower case


class PushService(LoopbackServer):
    def __init__(self, port: int | None = None) -> None:
        super().__init__(port)
        self.url = f"http://127.0.0.1:{self.port}"
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        # Statuses for the next requests, then 201; (status, headers) to add headers.
        self.answers: list[int | tuple[int, dict[str, str]]] = []
        self.gone: set[str] = set()  # devices answered 410
        self.requests = 0
        self.errors: list[str] = []  # what the service found wrong in a request
        self._changed = threading.Condition()

    # The browser's side --------------------------------------------------------------------

    def device(self, user, name: str | None = None) -> Device:
        """A browser of ``user`` that subscribed: its PushSubscription points here."""
        from games.notifications.models import PushSubscription

        name = name or f"device{len(self.devices) + 1}"
        device = Device(name)
        device.subscription = PushSubscription.objects.create(
            user=user,
            endpoint=f"{self.url}/push/{name}",
            p256dh=device.p256dh,
            auth=b64url(device.auth),
            label=f"Test browser {name}",
        )
        self.devices[name] = device
        return device

    def to(self, name: str) -> list[dict]:
        return [r.payload for r in self.received if r.device == name]

    # The push service's side ---------------------------------------------------------------

    def _answer(self, name: str, headers: Message, body: bytes) -> int | tuple[int, dict[str, str]]:
        from django.conf import settings

        with self._changed:
            self.requests += 1
            if self.answers:
                return self.answers.pop(0)
        if name in self.gone or name not in self.devices:
            return 410
        authorization = headers.get("Authorization", "")
        try:
            assert Vapid02.verify(authorization), "bad VAPID signature"
            key = authorization.split("k=", 1)[1].split(",")[0]
            assert key == settings.VAPID_PUBLIC_KEY, "signed with another key"
            token = authorization.split("t=", 1)[1].split(",")[0]
            claims = json.loads(b64decode(token.split(".")[1]))
            assert claims["aud"] == self.url, claims
            assert claims["sub"] == settings.VAPID_SUBJECT, claims
            assert headers.get("Content-Encoding") == "aes128gcm"
            payload = json.loads(self.devices[name].decrypt(body))
        except Exception as error:  # noqa: BLE001 (reported to the test)
            self.errors.append(f"{type(error).__name__}: {error}")
            return 400
        with self._changed:
            self.received.append(
                Received(name, payload, {k.lower(): v for k, v in headers.items()})
            )
            self._changed.notify_all()
        return 201

    def respond(self, path: str, headers: Message, body: bytes) -> Answer:
        answer = self._answer(path.rstrip("/").rsplit("/", 1)[-1], headers, body)
        status, extra = answer if isinstance(answer, tuple) else (answer, {})
        return status, extra, b""

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.received)} pushes arrived, not {count}")
                self._changed.wait(left)
        return self.received


@pytest.fixture
def vapid(settings):
    """The site's VAPID keys, new for the test (push is on)."""
    from games.notifications.management.commands.generate_vapid_keys import new_key_pair

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    settings.VAPID_SUBJECT = "mailto:push-test@example.org"
    return settings


class Listener:
    """A TCP port on loopback that counts the connections made to it (and closes them): where
    a push must never arrive, whatever it speaks."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.bind((host, 0))
        self._socket.listen(16)
        self._socket.settimeout(0.2)
        self.port = self._socket.getsockname()[1]
        self.connections = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stopped.is_set():
            try:
                connection, _address = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self._stopped.set()
        self._thread.join(2)
        self._socket.close()


@pytest.fixture
def listener():
    listening = Listener()
    yield listening
    listening.close()


def allow_loopback(settings) -> None:
    """The test's push service is on loopback, where no browser's is: the settings let pushes
    go there, as a deployment would let a push relay inside its network (the site's checks
    stay on: games/notifications/push_network.py)."""
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, "127.0.0.1"]
    settings.PUSH_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture
def push_service(vapid):
    allow_loopback(vapid)
    service = PushService()
    service.start()
    yield service
    service.stop()


@pytest.fixture
def push_down(vapid):
    """Nothing listens where the devices' endpoints point, until ``.start()``."""
    allow_loopback(vapid)
    service = PushService()
    yield service
    service.stop()
