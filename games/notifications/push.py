"""Web Push: "your turn", "game over" and invitations on the devices a player chose.

A device is a ``PushSubscription``: what the browser's ``PushManager.subscribe()`` gave on
the settings page (``push_views``, ``site/push.js``). Each notification has a row of its own
for each device of the player (``record``), sent through the same claim, send and mark as
emails (``games.notifications.delivery``): once, after the commit, retried while the push
service fails, deferred while the player is looking at the game. ``prepare`` decides, as
``emails.prepare`` does for an email; ``send`` posts the message to the device's push
service, encrypted for that browser alone (RFC 8291, by ``pywebpush``) and signed with the
site's VAPID key (RFC 8292).

What a push says: the game's name, its players and a link (JSON ``{title, body, url, tag}``,
in the player's language, shown by the service worker ``/sw.js``); never a card or anything
else of the game's state. Push services keep messages for a device that is offline; what
they hold is encrypted, but the less it says the better.

Without VAPID keys (settings VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: ``manage.py
generate_vapid_keys``) push is off: the settings page offers nothing and nothing is recorded.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, TypeGuard
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from py_vapid import Vapid, VapidException
from pywebpush import WebPushException, webpush

from accounts import languages, reach
from accounts.models import User
from games.core import registry
from games.models import Game
from games.notifications import due, emails, push_answers, push_network
from games.notifications import messages as message_notices
from games.notifications.due import Defer, Skip
from games.notifications.models import Notification, PushSubscription
from games.notifications.rows import record as record_row
from games.play import presence
from games.reads import since

log = logging.getLogger(__name__)

Kind = Notification.Kind

# The notifications that go to devices too.
KINDS = (Kind.TURN, Kind.FINISHED, Kind.INVITATION, Kind.CHAT, Kind.MESSAGE)
# The player's preference (a field of accounts.User) that says yes to each kind.
PREFERENCE: dict[str, str] = {
    Kind.TURN: "push_turn",
    Kind.FINISHED: "push_finished",
    Kind.INVITATION: "push_invitation",
    Kind.CHAT: "push_chat",
    Kind.MESSAGE: "push_message",
}
# How long a push service keeps a message for a device that is offline (seconds).
TTL = int(timedelta(days=1).total_seconds())
# Seconds to wait for the push service's answer.
TIMEOUT = 10
# Devices per player.
MAX_DEVICES = 10
# Characters of a chat line a push shows.
CHAT_BODY = 140


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def wanting(kind: str, prefix: str = "") -> Q:
    """The users who get pushes of ``kind`` (a device of theirs), as a condition on users
    like ``preferences.wanting``; ``prefix`` reaches them from another model ("user__")."""
    if not enabled() or kind not in KINDS:
        return Q(pk__in=[])
    return reach.reachable_q(prefix) & Q(
        **{
            f"{prefix}{PREFERENCE[kind]}": True,
            f"{prefix}push_subscriptions__isnull": False,
        }
    )


def wants(user: User, kind: str) -> bool:
    """Does ``user`` want pushes of ``kind`` (on whatever devices they have)?"""
    return kind in KINDS and reach.reachable(user) and getattr(user, PREFERENCE[kind])


# Errors -----------------------------------------------------------------------------------------


class PushError(Exception):
    """The push service did not take the message. ``permanent``: trying again would not help."""

    def __init__(self, message: str, *, permanent: bool) -> None:
        super().__init__(message)
        self.permanent = permanent


class Gone(PushError):
    """404 or 410: the push service no longer knows the device (the browser unsubscribed, the
    app was removed, the subscription expired)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, permanent=True)


# Recording ---------------------------------------------------------------------------------------


def record(kind: str, user: User, **key: Any) -> list[tuple[Notification, bool]]:
    """The rows of a push of ``kind`` to each device of ``user`` (none when push is off)."""
    if not enabled() or kind not in KINDS or not wants(user, kind):
        return []
    return [
        record_row(kind, user, subscription=subscription, **key)
        for subscription in PushSubscription.objects.filter(user=user)
    ]


# Whether a push is still due --------------------------------------------------------------------


def _check_finished(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    """Game over: not to a player who saw the end on the board, nor while they look at it."""
    found = due.CHECKS[Kind.FINISHED](row, now)
    if isinstance(found, Skip | Defer):
        return found
    game, seat = found["game"], found["seat"]
    seen = seat.last_seen_at
    if (
        seen is not None
        and game.finished is not None
        and seen >= game.finished - presence.SEEN_PRECISION
    ):
        return Skip("the player saw the end of the game")
    if seen is not None and seen > now - due.ACTIVE_WINDOW:
        return Defer(seen + due.ACTIVE_WINDOW, "the player was on the game a moment ago")
    return found


CHECKS: dict[str, due.Check] = {
    # Skipped if the player has seen the game since the turn came, deferred while they may
    # still have it open (as the turn email).
    Kind.TURN: due.CHECKS[Kind.TURN],
    Kind.FINISHED: _check_finished,
    Kind.INVITATION: due.CHECKS[Kind.INVITATION],
    # Not while the player has the game open, and at most one a quarter hour per device.
    Kind.CHAT: due.CHECKS[Kind.CHAT],
    # Not while the player has the conversation open, at most one a quarter hour per device.
    Kind.MESSAGE: message_notices.check,
}


@dataclass(frozen=True)
class PushMessage:
    subscription: PushSubscription
    payload: dict[str, Any]
    # Push services replace a message still waiting for the device with a newer one of the
    # same topic (RFC 8030 5.4): one per game.
    topic: str


def _payload(row: Notification, found: dict[str, Any]) -> dict[str, Any]:
    if row.kind == Kind.MESSAGE:
        return message_notices.payload(found)
    if row.kind == Kind.INVITATION:
        invitation = found["invitation"]
        game_name = registry.get(invitation.kind).name
        return {
            "title": _("Invitation to %(game)s") % {"game": game_name},
            "body": _("%(name)s invites you to a game.")
            % {"name": invitation.creator.name_with_username},
            "url": emails.site_url(reverse("games:lobby")),
            "tag": f"invitation-{invitation.pk}",
        }
    game: Game = found["game"]
    values = {"game": game.game_kind.name}
    if row.kind == Kind.CHAT:
        newest = found["chat_lines"][-1]
        return {
            "title": _("%(name)s wrote in %(game)s") % {**values, "name": newest.author},
            # Written by a player for the table; cut to what a notice shows.
            "body": Truncator(newest.text).chars(CHAT_BODY),
            "url": emails.game_url(game.pk) + "#chat",
            "tag": f"chat-{game.pk}",
        }
    if row.kind == Kind.TURN:
        title = _("Your turn in %(game)s") % values
    elif game.status == Game.Status.CANCELLED:
        title = _("%(game)s was cancelled") % values
    else:
        title = _("Game over: %(game)s") % values
    body = " – ".join([" vs ".join(game.names), _("game %(id)s") % {"id": game.pk}])
    answer = None
    if row.kind == Kind.TURN:
        # What the others did since the player last looked: from their own log lines.
        told = since.summary(game, found["seat"]).sentence()
        body = "\n".join(x for x in (body, Truncator(told).chars(CHAT_BODY)) if x)
        # A decision with one obvious answer: a button that gives it (push_answers).
        answer = push_answers.offer(row, game, found["seat"])
    payload: dict[str, Any] = {
        "title": title,
        "body": body,
        "url": emails.game_url(game.pk),
        "tag": f"game-{game.pk}",
    }
    if answer is not None:
        payload["answer"] = answer.payload()
    return payload


def prepare(row: Notification, now: datetime) -> Skip | Defer | PushMessage:
    """The push of ``row`` if it is still due now, else why not."""
    subscription = row.subscription
    if subscription is None:
        return Skip("the device no longer receives push notifications")
    if subscription.user_id != row.user_id:
        return Skip("the device now belongs to another player")
    if not enabled():
        return Skip("push notifications are off (no VAPID keys)")
    if not reach.reachable(row.user):
        return Skip("the account is not active (suspended)")
    if not wants(row.user, row.kind):
        return Skip("the player turned these pushes off")
    found = CHECKS[row.kind](row, now)
    if isinstance(found, Skip | Defer):
        return found
    with translation.override(languages.language_of(row.user)):
        payload = _payload(row, found)
    return PushMessage(subscription, payload, topic=payload["tag"])


# Sending ---------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid:
    key: Vapid = Vapid.from_string(private_key)  # py_vapid's, unannotated
    return key


_TEMPORARY = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
)


def send(message: PushMessage) -> None:
    """Post ``message`` to its device's push service; raise PushError if it did not take it.

    Only to a push service's host (PUSH_SERVICE_HOSTS) at a public address, checked as the
    connection is made (``push_network``): an endpoint that names another is refused for good,
    with no connection at all."""
    subscription = message.subscription
    host = urlsplit(subscription.endpoint).hostname or ""
    if not push_network.host_allowed(host):
        raise PushError(f"cannot send: {host!r} is not a push service's host", permanent=True)
    try:
        with push_network.session() as session:
            webpush(
                subscription.info,
                data=json.dumps(message.payload),
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=TTL,
                timeout=TIMEOUT,
                headers={"Topic": message.topic, "Urgency": "normal"},
                requests_session=session,
            )
    except push_network.ForbiddenAddress as error:
        raise PushError(f"cannot send: {error}", permanent=True) from error
    except WebPushException as error:
        status = error.status_code
        if status in (404, 410):
            raise Gone(f"the push service answered {status}: the device is gone") from error
        if status is None:
            raise PushError(f"cannot send: {error.message}", permanent=True) from error
        temporary = status == 429 or status >= 500
        raise PushError(f"the push service answered {status}", permanent=not temporary) from error
    except _TEMPORARY as error:
        raise PushError(f"the push service cannot be reached: {error}", permanent=False) from error
    except (requests.RequestException, ValueError, VapidException) as error:
        # A URL requests cannot use, keys that are no P-256 point, an audience VAPID cannot
        # sign (an IPv6 address): it will never work.
        raise PushError(f"cannot send: {error}", permanent=True) from error
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success=timezone.now())


def forget(subscription: PushSubscription) -> None:
    """The push service says this device is gone: stop sending to it."""
    PushSubscription.objects.filter(pk=subscription.pk).delete()


# Subscribing ------------------------------------------------------------------------------------


def _b64decode(value: object) -> bytes | None:
    if not isinstance(value, str) or not value or len(value) > 200:
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _valid_endpoint(endpoint: object) -> TypeGuard[str]:
    """An https URL of a known push service (``push_network.host_allowed``): we post to it
    from the server, so no plain http and no other host (SSRF; the address is checked again
    when a push is sent). Printable ASCII only: no NUL, which PostgreSQL cannot store."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        return False
    if not endpoint.isascii() or not endpoint.isprintable() or " " in endpoint:
        return False
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (raises ValueError for a port that is no number)
    except ValueError:
        return False
    if parts.scheme != "https" or not host or parts.username or parts.password:
        return False
    return push_network.host_allowed(host)


def _valid_key(raw: bytes | None) -> bool:
    if raw is None or len(raw) != 65 or raw[0] != 4:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def read_subscription(data: object) -> tuple[str, str, str]:
    """The endpoint and keys of a browser's ``PushSubscription.toJSON()``; ValidationError
    with a message for the player if it is not one."""
    if not isinstance(data, dict):
        raise ValidationError(_("Send the subscription as a JSON object."), code="invalid")
    endpoint = data.get("endpoint")
    if not _valid_endpoint(endpoint):
        raise ValidationError(
            _("The subscription has no valid endpoint: it must be an https address."),
            code="endpoint",
        )
    keys = data.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    raw_auth = _b64decode(auth)
    if not _valid_key(_b64decode(p256dh)) or raw_auth is None or len(raw_auth) != 16:
        raise ValidationError(_("The subscription's keys are missing or not valid."), code="keys")
    assert isinstance(p256dh, str) and isinstance(auth, str)  # _b64decode decodes strings only
    return endpoint, p256dh.rstrip("="), auth.rstrip("=")


def subscribe(user: User, data: object, user_agent: str = "") -> PushSubscription:
    """Record (or renew) the browser's subscription ``data`` as a device of ``user``.

    An endpoint known already is the same browser: it now belongs to whoever subscribed it
    last (a shared computer), with its new keys."""
    endpoint, p256dh, auth = read_subscription(data)
    known = PushSubscription.objects.filter(endpoint=endpoint, user=user).exists()
    if not known and PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
        raise ValidationError(
            ngettext(
                "%(count)s device receives your push notifications already: remove it first.",
                "%(count)s devices receive your push notifications already: "
                "remove one of them first.",
                MAX_DEVICES,
            )
            % {"count": MAX_DEVICES},
            code="too_many",
        )
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": device_label(user_agent)},
    )
    return subscription


def renew(old_endpoint: object, old_auth: object, data: object) -> PushSubscription | None:
    """The browser replaced the subscription of ``old_endpoint`` with ``data`` (its push
    service renewed or expired it): the device keeps its player, its name and its pending
    pushes, with the new endpoint and keys. None if nothing was renewed: no device has the
    old endpoint, or another player's device has the new one.

    No login: the service worker asks, and it has no CSRF token. The proof is the old
    subscription's auth secret (``old_auth``), which only that browser and we know (its push
    service never sees it; an endpoint may be learnt, issue 45). A renewal moves a device
    only to an endpoint that no other player's device holds: knowing someone's endpoint must
    not take their device over. Asking again is harmless: the device is at the new endpoint
    already, and nothing has the old one."""
    endpoint, p256dh, auth = read_subscription(data)
    if not isinstance(old_endpoint, str) or not _valid_endpoint(old_endpoint):
        return None  # no device can have it (and PostgreSQL could not compare a NUL)
    with transaction.atomic():
        device = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
        if device is None or not _same_secret(device.auth, old_auth):
            return None
        holders = list(
            PushSubscription.objects.select_for_update()
            .filter(endpoint=endpoint)
            .exclude(pk=device.pk)
        )
        if any(holder.user_id != device.user_id for holder in holders):
            return None  # another player's device: theirs stays as it is
        # A row of the same player at the new endpoint is this same browser, subscribed
        # again meanwhile: one device.
        PushSubscription.objects.filter(pk__in=[h.pk for h in holders]).delete()
        device.endpoint, device.p256dh, device.auth = endpoint, p256dh, auth
        device.save(update_fields=["endpoint", "p256dh", "auth"])
    return device


def _same_secret(stored: str, given: object) -> bool:
    """Whether ``given`` is the stored auth secret (base64url, padded or not), compared in
    constant time."""
    if not isinstance(given, str) or not given.isascii():
        return False
    return hmac.compare_digest(stored.rstrip("=").encode(), given.rstrip("=").encode())


def unsubscribe(user: User, pk: int) -> bool:
    return PushSubscription.objects.filter(user=user, pk=pk).delete()[0] > 0


# The name of a device: browser and system, from its User-Agent ----------------------------------

_BROWSERS = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
]
_SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
]
_HEADLESS = re.compile(r"Headless", re.IGNORECASE)


def device_label(user_agent: str) -> str:
    """ "Firefox · Android": what tells a player's devices apart in the list."""
    user_agent = user_agent or ""
    browser = next((name for token, name in _BROWSERS if token in user_agent), "")
    if browser == "Chrome" and _HEADLESS.search(user_agent):
        browser = "Chrome (headless)"
    system = next((name for token, name in _SYSTEMS if token in user_agent), "")
    return " · ".join(part for part in (browser, system) if part)[:100]
