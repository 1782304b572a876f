"""The settings page's panel of the player's data: its download, the account's deletion."""

from typing import Any

from django import template
from django.template import Context

from games.privacy.panel import panel_context

register = template.Library()


@register.inclusion_tag("privacy/panel.html", takes_context=True)
def privacy_panel(context: Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {**panel_context(user), "csrf_token": context.get("csrf_token")}
