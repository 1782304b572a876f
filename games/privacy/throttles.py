"""The limits of the download and of deletion requests (settings.API_THROTTLE_RATES
"data_export" and "deletion"), shared by the API and the settings page."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from guildhall_site.rest import ApiThrottle, WriteThrottle


class DataExportThrottle(ApiThrottle):
    """Downloads per user: each reads every game of theirs."""

    scope = "data_export"


class DeletionThrottle(WriteThrottle):
    """Deletions asked for and cancelled, per user (reads are free)."""

    scope = "deletion"


def attachment(user: User) -> str:
    """The download's Content-Disposition: a file named for the player and the day."""
    return f'attachment; filename="guildhall-data-{user.pk}-{timezone.now():%Y-%m-%d}.json"'
