"""The site's SMTP backend (settings.EMAIL_BACKEND's default in production): Django's, with
two differences for deliverability (docs/deploy.md, "Email deliverability"):

- the envelope sender (SMTP ``MAIL FROM``, which the receiving server writes as
  ``Return-Path``) is ``EMAIL_BOUNCE_ADDRESS`` when set, so that bounces go to the mailbox or
  provider that records them, while the ``From`` header stays ``DEFAULT_FROM_EMAIL``;
- no email goes to an address that bounced (``bounces``): it is left out of the envelope's
  recipients, and a message left with none is not sent.
"""

from __future__ import annotations

import logging
import smtplib
from email.utils import parseaddr

from django.conf import settings
from django.core.mail.backends import smtp
from django.core.mail.message import EmailMessage, sanitize_address

from guildhall_site.upkeep import bounces

log = logging.getLogger(__name__)


class EmailBackend(smtp.EmailBackend):
    def send_messages(self, email_messages: list[EmailMessage]) -> int:  # type: ignore[override]
        if not email_messages:
            return 0
        self._suppressed = bounces.suppressed(
            parseaddr(address)[1] for m in email_messages for address in m.recipients()
        )
        return super().send_messages(email_messages)

    def _send(self, email_message: EmailMessage) -> bool:
        encoding = email_message.encoding or settings.DEFAULT_CHARSET
        suppressed: set[str] = getattr(self, "_suppressed", set())
        recipients = [
            sanitize_address(address, encoding)
            for address in email_message.recipients()
            if bounces.normal(parseaddr(address)[1]) not in suppressed
        ]
        if not recipients:
            if email_message.recipients():
                log.info("Email not sent: every recipient's address bounced")
            return False
        sender = settings.EMAIL_BOUNCE_ADDRESS or email_message.from_email
        # (Django's SafeMIMEMessage takes a linesep; typeshed's Message does not say so.)
        body = email_message.message().as_bytes(linesep="\r\n")  # type: ignore[call-arg]
        assert self.connection is not None  # (send_messages opened it)
        try:
            self.connection.sendmail(sanitize_address(sender, encoding), recipients, body)
        except smtplib.SMTPException:
            if not self.fail_silently:
                raise
            return False
        return True
