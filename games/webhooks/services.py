"""Registering, changing and removing a token's webhooks: checked, then done."""

from __future__ import annotations

import secrets as random_secrets
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import ApiToken, User
from games.webhooks import addresses
from games.webhooks.models import Event, Webhook

# Enough for a few receivers per bot; a cap keeps a script from making thousands.
MAX_PER_USER = 10
SECRET_MIN, SECRET_MAX = 24, 128
# What a hook may ask to hear of (a ping is sent on request only).
EVENTS = [e.value for e in Event if e != Event.PING]


def new_secret() -> str:
    return "whsec_" + random_secrets.token_urlsafe(32)


def check_events(events: list[str]) -> list[str]:
    unknown = [e for e in events if e not in EVENTS]
    if unknown or not events:
        raise ValidationError(
            {"events": _("Choose among: %(events)s.") % {"events": ", ".join(EVENTS)}}
        )
    return list(dict.fromkeys(events))


def check_secret(secret: str) -> str:
    if not (SECRET_MIN <= len(secret) <= SECRET_MAX) or not secret.isprintable():
        raise ValidationError(
            {
                "secret": _(
                    "A secret has %(least)d to %(most)d printable characters (or leave it "
                    "out: one is made for you)."
                )
                % {"least": SECRET_MIN, "most": SECRET_MAX}
            }
        )
    return secret


def _check_url(url: str) -> str:
    try:
        addresses.check_url(url)
    except ValidationError as error:
        raise ValidationError({"url": error.messages}) from None
    return url


def do_create(
    user: User, token: ApiToken, url: str, events: list[str], secret: str | None
) -> tuple[Webhook, bool]:
    """The token's hook to ``url``, and whether it is new. Registering again (a bot that
    restarts) is no error: the same hook, with the events asked for, on again (its failures
    forgotten), and a new secret, the one sent or one made (the old was shown once)."""
    events = check_events(events)
    secret = new_secret() if secret is None else check_secret(secret)
    _check_url(url)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one count at a time
        hook = Webhook.objects.select_for_update().filter(token=token, url=url).first()
        if hook is not None:
            hook.events, hook.secret = events, secret
            hook.active, hook.disabled_at, hook.failing_since = True, None, None
            hook.save()
            return hook, False
        if Webhook.objects.filter(user=user).count() >= MAX_PER_USER:
            raise ValidationError(
                ngettext(
                    "You have %(count)d webhook: remove it first.",
                    "You have %(count)d webhooks: remove one first.",
                    MAX_PER_USER,
                )
                % {"count": MAX_PER_USER}
            )
        hook = Webhook.objects.create(user=user, token=token, url=url, events=events, secret=secret)
        return hook, True


def do_update(hook: Webhook, changes: dict[str, Any]) -> Webhook:
    """``changes``: any of url, events, active (true turns a hook off or on again: its
    failures are forgotten)."""
    if "url" in changes:
        hook.url = _check_url(changes["url"])
    if "events" in changes:
        hook.events = check_events(changes["events"])
    if "active" in changes:
        hook.active = changes["active"]
        hook.disabled_at = None
        hook.failing_since = None
    hook.save()
    return hook


def anyone_hooked(user_ids: Collection[int]) -> bool:
    """Whether any of these users has a hook on: a game's event is queued for the webhooks'
    lane only then (games.play.events.register_audience)."""
    return Webhook.objects.filter(user_id__in=list(user_ids), active=True).exists()
