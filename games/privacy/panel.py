"""What the settings page's panel of the player's data shows (the tag, and the views that
answer htmx with the panel again)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from accounts import deletion
from accounts.models import User


def panel_context(user: User, error: str = "", chosen: str = "") -> dict[str, Any]:
    return {
        "show": True,
        "due_at": deletion.due_at(user),
        "running_games": user.deletion_games,
        "choices": deletion.RunningGames.CHOICES,
        "chosen": chosen or user.deletion_games or deletion.RunningGames.CONCEDE,
        "grace_days": settings.ACCOUNT_DELETION_GRACE_DAYS,
        "may_delete": not (user.is_staff or user.is_superuser or user.is_computer),
        "error": error,
    }
