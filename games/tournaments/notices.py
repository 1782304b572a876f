"""Tournament notices: you are paired and your round starts (or you have a bye), you went on
or are out, you were withdrawn, the tournament ended or was cancelled.

Each is a ``Notice`` row per player and round, by email (when the player wants the game
emails, the "games" category of ``games.notifications.preferences``, whose one-click
unsubscribe link the email carries) and one row per device by Web Push (the player's
"your turn" push setting for a new round, "game over" for the rest), recorded in the
transaction that decided it (unique: recording twice finds the row) and sent after its
commit by ``tournaments.send_notices``; the sweep sends again what a lost task left. Like
the games' notifications, a row is claimed with a conditional update before it is sent,
so that two workers send it once, and tried again after a backoff while the mail server
or push service fails. What they say: the tournament's name, the round, the names at the
player's table and links; nothing of any game's state.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import languages
from accounts.models import User
from games.notifications import delivery, preferences, push
from games.notifications.emails import user_zone
from games.notifications.models import Notification, PushSubscription
from games.play import events
from games.tournaments.models import Action, Entry, Notice, Round, Table, Tournament

log = logging.getLogger(__name__)

SEND = "tournaments.send_notices"
Kind = Notice.Kind
Status = Notice.Status

MAX_ATTEMPTS = 10


def _wants_email(user: User) -> bool:
    return preferences.wants(user, Notification.Kind.STARTED)


def _wants_push(user: User, kind: str) -> bool:
    pref = Notification.Kind.TURN if kind == Kind.ROUND else Notification.Kind.FINISHED
    return push.enabled() and push.wants(user, pref)


def _record(**key: Any) -> Notice | None:
    try:
        with transaction.atomic():
            row, created = Notice.objects.get_or_create(**key)
    except IntegrityError:
        return None  # recorded meanwhile by another worker
    return row if created else None


def tell(tournament: Tournament, users: Iterable[User], kind: str, about: int = 0) -> list[int]:
    """Record ``kind`` for each of ``users`` (people only) and queue its sending after the
    commit; the ids of the new rows."""
    ids: list[int] = []
    for user in {u.pk: u for u in users}.values():
        if user.is_computer:
            continue
        key = {"tournament": tournament, "user": user, "kind": kind, "about": about}
        if _wants_email(user):
            row = _record(**key, push=False)
            if row is not None:
                ids.append(row.pk)
        if _wants_push(user, kind):
            for subscription in PushSubscription.objects.filter(user=user):
                row = _record(**key, push=True, subscription=subscription)
                if row is not None:
                    ids.append(row.pk)
    if ids:
        events.queue_on_commit(SEND, ids)
    return ids


# Sending --------------------------------------------------------------------------------------


def site_url(path: str) -> str:
    return settings.SITE_URL + path


def _context(row: Notice) -> dict[str, Any]:
    tournament = row.tournament
    c: dict[str, Any] = {
        "name": row.user.name,
        "kind": row.kind,
        "tournament": tournament.name,
        "url": site_url(reverse("tournaments:detail", args=[tournament.pk])),
        "winner": tournament.winner.name if tournament.winner else None,
    }
    if row.kind == Kind.ROUND:
        rnd = Round.objects.filter(pk=row.about).first()
        if rnd is not None:
            c["round"] = rnd.number
            c["deadline"] = rnd.deadline
            c["division"] = rnd.division
            entry = (
                Entry.objects.filter(tournament=tournament, user=row.user)
                .values_list("pk", flat=True)
                .first()
            )
            table = next(
                (
                    t
                    for t in Table.objects.filter(round=rnd).select_related("game")
                    if entry in t.entries
                ),
                None,
            )
            if table is not None and table.bye:
                c["bye"] = True
            elif table is not None and table.game is not None:
                c["opponents"] = [n for n in table.game.names if n != row.user.name]
                c["url"] = site_url(reverse("games:board", args=[table.game_id]))
    if row.kind == Kind.CANCELLED:
        cancel = Action.objects.filter(tournament=tournament, kind=Action.Kind.CANCEL).first()
        c["cancel_reason"] = cancel.text if cancel else ""
    if row.kind == Kind.MESSAGE:
        action = Action.objects.filter(pk=row.about, tournament=tournament).first()
        c["message"] = action.text if action else ""
        c["organiser"] = tournament.creator.name
    if row.kind in (Kind.ADVANCED, Kind.OUT):
        rnd = Round.objects.filter(pk=row.about).first()
        c["round"] = rnd.number if rnd else None
        c["season"] = row.about if tournament.is_league else None
    return c


def subject(row: Notice, c: dict[str, Any]) -> str:
    t = {"tournament": c["tournament"]}
    if row.kind == Kind.ROUND:
        return _("%(tournament)s: round %(round)s has started") % {**t, "round": c.get("round")}
    if row.kind == Kind.ADVANCED:
        return _("%(tournament)s: you go on") % t
    if row.kind == Kind.OUT:
        return _("%(tournament)s: you are out") % t
    if row.kind == Kind.WITHDRAWN:
        return _("%(tournament)s: you were withdrawn") % t
    if row.kind == Kind.REMOVED:
        return _("%(tournament)s: the organiser took you out") % t
    if row.kind == Kind.MESSAGE:
        return _("%(tournament)s: a message from the organiser") % t
    if row.kind == Kind.CANCELLED:
        return _("%(tournament)s was cancelled") % t
    return _("%(tournament)s is over") % t


def _email(row: Notice) -> EmailMultiAlternatives:
    user = row.user
    unsubscribe = preferences.unsubscribe_url(user, preferences.GAMES)
    with (
        translation.override(languages.language_of(user)),
        timezone.override(user_zone(user.time_zone)),
    ):
        c = _context(row)
        c |= {
            "unsubscribe_url": unsubscribe,
            "unsubscribe_what": preferences.DESCRIPTION[preferences.GAMES],
            "settings_url": site_url(reverse("accounts:edit_profile")),
            "site_url": settings.SITE_URL,
        }
        title = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject(row, c)
        text = render_to_string("tournaments/email/notice.txt", c)
        html = render_to_string("tournaments/email/notice.html", c)
    domain = settings.SITE_URL.split("://", 1)[-1].split("/")[0].split(":")[0] or "localhost"
    message = EmailMultiAlternatives(
        subject=title,
        body=text,
        to=[user.email],
        headers={
            "Message-ID": f"<guildhall.tournament.{row.pk}@{domain}>",
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _push(row: Notice) -> push.PushMessage | None:
    if row.subscription is None or row.subscription.user_id != row.user_id:
        return None
    with translation.override(languages.language_of(row.user)):
        c = _context(row)
        payload = {
            "title": subject(row, c),
            "body": (c.get("message") or "")[:200]
            or ", ".join(c.get("opponents", []))
            or c["tournament"],
            "url": c["url"],
            "tag": f"tournament-{row.tournament_id}",
        }
    return push.PushMessage(row.subscription, payload, topic=payload["tag"])


def deliver(pk: int, now: datetime | None = None) -> str:
    """Send notice ``pk`` unless it is done or another worker holds it."""
    now = now or timezone.now()
    waited = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now + delivery.EARLY)
    claimable = Q(waited, status=Status.QUEUED) | Q(status=Status.SENDING, lease_until__lte=now)
    claimed = (
        Notice.objects.filter(pk=pk)
        .filter(claimable)
        # The players' notifications' lease (NOTIFICATION_LEASE_SECONDS, longer than a task
        # may run): a worker still sending is never taken over.
        .update(status=Status.SENDING, lease_until=now + delivery.LEASE, attempts=F("attempts") + 1)
    )
    if not claimed:
        return "busy"
    row = Notice.objects.select_related("user", "tournament", "subscription").get(pk=pk)
    try:
        message = _message(row)
    except Exception:
        # A bug or a database hiccup before anything was sent: the sweep tries again after the
        # backoff, rather than once the lease has run out.
        Notice.objects.filter(pk=pk).update(
            status=Status.QUEUED,
            lease_until=None,
            next_attempt_at=now + timedelta(seconds=delivery.backoff(row.attempts)),
        )
        raise
    if isinstance(message, str):
        _finish(pk, Status.SKIPPED, message)
        return "skipped"
    try:
        if isinstance(message, push.PushMessage):
            push.send(message)
        else:
            message.send()
    except (smtplib.SMTPException, OSError, push.PushError) as error:
        if isinstance(error, push.Gone):
            _finish(pk, Status.FAILED, str(error))
            if row.subscription is not None:
                push.forget(row.subscription)
            return "gone"
        permanent = isinstance(error, push.PushError) and error.permanent
        if permanent or row.attempts >= MAX_ATTEMPTS:
            log.error("Giving up on tournament notice %s: %s", pk, error)
            _finish(pk, Status.FAILED, str(error))
            return "failed"
        delay = timedelta(seconds=delivery.backoff(row.attempts))
        Notice.objects.filter(pk=pk).update(
            status=Status.QUEUED,
            lease_until=None,
            next_attempt_at=now + delay,
            note=str(error)[:200],
        )
        return "retry"
    _finish(pk, Status.SENT, "", sent_at=timezone.now())
    return "sent"


def _message(row: Notice) -> EmailMultiAlternatives | push.PushMessage | str:
    """What to send for ``row``, or why nothing is."""
    user = row.user
    if not user.is_active or (not row.push and not _wants_email(user)):
        return "the player does not want these emails"
    if not row.push:
        return _email(row)
    if not _wants_push(user, row.kind):
        return "the player turned these pushes off"
    return _push(row) or "the device no longer receives them"


def _finish(pk: int, status: str, note: str, **fields: object) -> None:
    Notice.objects.filter(pk=pk).update(status=status, lease_until=None, note=note[:200], **fields)


def due(now: datetime) -> list[int]:
    """Rows the sweep sends: retries now due, rows whose task was lost (queued for
    NOTIFICATION_STALLED_SECONDS: a broker down at the commit), leases run out."""
    stalled = now - timedelta(seconds=settings.NOTIFICATION_STALLED_SECONDS)
    return list(
        Notice.objects.filter(
            Q(status=Status.QUEUED, next_attempt_at__lte=now)
            | Q(status=Status.QUEUED, next_attempt_at__isnull=True, created__lte=stalled)
            | Q(status=Status.SENDING, lease_until__lte=now)
        )
        .order_by("pk")  # the oldest first
        .values_list("pk", flat=True)[:1000]
    )
