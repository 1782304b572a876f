"""Celery tasks of the accounts (scheduled in CELERY_BEAT_SCHEDULE)."""

import logging

from celery import shared_task

from accounts import services

log = logging.getLogger(__name__)


@shared_task
def remove_idle_guests() -> int:
    """Guests who never played, a day after they came (accounts.services.idle_guests)."""
    removed = services.do_remove_idle_guests()
    if removed:
        log.info("Removed %s guest accounts that never played", removed)
    return removed
