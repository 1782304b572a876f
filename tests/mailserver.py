"""A real SMTP server on loopback (aiosmtpd) for the tests of emails, and helpers to read them.

``smtp`` starts the server and points Django's SMTP backend at it; ``smtp.messages`` are the
emails it received (``email.message.EmailMessage``). ``smtp_down`` points the backend at a
port where nothing listens, as a mail server that is down; ``smtp_down.start()`` brings a
server up there later.
"""

from __future__ import annotations

import email
import re
import socket
import threading
import time
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[EmailMessage] = []
        self.envelopes: list = []
        self.refuse: set[str] = set()  # addresses answered with a permanent 550
        self._controller: Controller | None = None
        self._changed = threading.Condition()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        with self._changed:
            self.envelopes.append(envelope)
            self.messages.append(message)
            self._changed.notify_all()
        return "250 Message accepted for delivery"

    def start(self) -> None:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def wait_for(self, count: int, timeout: float = 20) -> list[EmailMessage]:
        """Wait until ``count`` emails have arrived (for emails sent by another thread)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.messages)} emails arrived, not {count}")
                self._changed.wait(left)
        return self.messages

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in m["To"]]

    def clear(self) -> None:
        self.messages.clear()
        self.envelopes.clear()


def _use(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def smtp(settings):
    inbox = Inbox(free_port())
    inbox.start()
    _use(settings, inbox.port)
    yield inbox
    inbox.stop()


@pytest.fixture
def smtp_down(settings):
    """No server listens on the port the backend uses, until ``.start()``."""
    inbox = Inbox(free_port())
    _use(settings, inbox.port)
    yield inbox
    inbox.stop()


# Reading emails -------------------------------------------------------------------------------


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def links(text: str) -> list[str]:
    return re.findall(r"https?://[^\s\"<>]+", text)


def path_of(url: str, site: str) -> str:
    assert url.startswith(site), url
    return url[len(site) :]
