"""The moderation app's tasks, where the worker looks for them (Celery's autodiscovery)."""

from games.community.moderation.actions import lift_expired
from games.community.moderation.notices import email_notice

__all__ = ["email_notice", "lift_expired"]
