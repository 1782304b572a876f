from typing import Any

from django import template
from django.conf import settings
from django.template import Context

from games.notifications import push
from games.notifications.forms import PushPreferencesForm
from games.notifications.models import PushSubscription

register = template.Library()


@register.inclusion_tag("notifications/push_panel.html", takes_context=True)
def push_panel(context: Context) -> dict[str, Any]:
    """The settings page's push notifications: turn them on for this device (site/push.js),
    and the list of the devices that receive them. Nothing when push is off (no VAPID keys)."""
    user = getattr(context.get("request"), "user", None)
    if not push.enabled() or user is None or not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        "vapid_key": settings.VAPID_PUBLIC_KEY,
        "devices": PushSubscription.objects.filter(user=user),
        "push_form": PushPreferencesForm(instance=user),
        "csrf_token": context.get("csrf_token"),
    }
