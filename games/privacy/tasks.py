"""The sweep of account deletions due (settings.CELERY_BEAT_SCHEDULE, hourly)."""

import logging

from celery import shared_task

from games.privacy import erase

log = logging.getLogger(__name__)


@shared_task(name="games.privacy.erase_due")
def erase_due() -> int:
    """Delete the accounts whose grace period is over (``erase.do_erase_due``)."""
    erased = erase.do_erase_due()
    if erased:
        log.info("Deleted %s accounts at their players' request", erased)
    return erased
