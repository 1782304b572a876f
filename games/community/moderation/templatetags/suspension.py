"""``{% suspension_notice %}``: on the login page and the page of an inactive account, why the
account of this browser is suspended, until when, and whom to write to about it.

Whose: the account allauth refused at the login (``accounts.adapter``: the session's
``inactive_user``), else the one the session was logged in as (Django keeps its id in the
session when it stops reading a suspended user: the player seemed logged out silently).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest
from django.template.context import Context
from django.utils import timezone

from accounts.adapter import INACTIVE_USER
from games.community.moderation.models import Suspension

register = template.Library()


def _whose(request: HttpRequest | None) -> int | None:
    session = getattr(request, "session", None)
    if request is None or session is None or request.user.is_authenticated:
        return None
    user_id = session.get(INACTIVE_USER, session.get(SESSION_KEY))
    try:
        return int(user_id) if user_id is not None else None
    except (TypeError, ValueError):
        return None


@register.inclusion_tag("moderation/suspension_notice.html", takes_context=True)
def suspension_notice(context: Context) -> dict[str, Any]:
    user_id = _whose(context.get("request"))
    suspension = None
    if user_id is not None:
        now = timezone.now()
        suspension = (
            Suspension.objects.filter(user_id=user_id, lifted__isnull=True)
            .exclude(until__lte=now)
            .order_by("until")
            .last()  # for good (no end) last of all, else the latest end
        )
    return {"suspension": suspension, "contact_email": settings.CONTACT_EMAIL}
