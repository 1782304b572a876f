"""Telling a player what a moderator did about them: a notice kept on the site (the page
``moderation:notices`` lists them, linked from the settings page) and an email, sent after
the commit by a task that retries while the mail server is away (a suspended player cannot
log in to read it)."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import languages
from accounts.models import User
from games.community.moderation.models import ModerationNotice


def tell(user: User, text: str) -> ModerationNotice:
    """Keep ``text`` for ``user`` and email it once the transaction commits."""
    notice = ModerationNotice.objects.create(user=user, text=text)
    transaction.on_commit(lambda: email_notice.delay(notice.pk), robust=True)
    return notice


@shared_task(
    bind=True,
    name="games.moderation.email_notice",
    max_retries=None,
    default_retry_delay=300,
    acks_late=True,
)
def email_notice(self: Task[Any, Any], notice_id: int) -> bool:
    notice = ModerationNotice.objects.filter(pk=notice_id).select_related("user").first()
    if notice is None or not notice.user.can_receive_email:
        return False
    with translation.override(languages.language_of(notice.user)):
        subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + _("A word from the moderators")
        body = _("Hello %(name)s,\n\n%(text)s\n\nEverything the moderators told you: %(url)s") % {
            "name": notice.user.name,
            "text": notice.text,
            "url": settings.SITE_URL + reverse("moderation:notices"),
        }
    try:
        send_mail(subject, body, None, [notice.user.email])
    except OSError as error:  # the mail server is away: try again later
        raise self.retry(exc=error) from error
    return True
