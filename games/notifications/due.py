"""Whether a notification is still due when it is sent: the same answer for its email and
its pushes (``emails.prepare``, ``push.prepare``). Each kind has its check (``CHECKS``),
which reads the rows again: the turn may have passed, the player may be looking at the game
(``Defer``), the game may be over (``Skip``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from accounts import quiet_hours
from games.community.chat import reads as chat_reads
from games.models import Game, Invitation, Seat
from games.notifications.models import Notification
from games.reads import clocks, queries

Kind = Notification.Kind

# A player seen on the game this recently may still have it open: the board polls every few
# seconds and records it at most every 20 s (Seat.last_seen_at). Turn emails and reminders
# wait until the player has been away this long (lichess's CorresAlarm skips the alarm of a
# player who is looking at the game).
ACTIVE_WINDOW = timedelta(minutes=5)
WARNING_LEAD: dict[str, timedelta] = {
    Kind.DEADLINE_24H: timedelta(hours=24),
    Kind.DEADLINE_1H: timedelta(hours=1),
}
WEEK = timedelta(days=7)
# At most one notice of a game's chat per game and channel in this time.
CHAT_BATCH = timedelta(minutes=15)
# Lines a chat notice quotes; it counts the others.
QUOTED = 10


@dataclass(frozen=True)
class Skip:
    reason: str


@dataclass(frozen=True)
class Defer:
    until: datetime
    reason: str


# Whether each kind is still due ---------------------------------------------------------------


def _waiting(row: Notification) -> tuple[Game, Seat] | Skip:
    """The game and seat of a notification about a player's wait, if that wait goes on."""
    game = row.game
    if game is None or game.status not in Game.ACTIVE:
        return Skip("the game is over")
    seat = Seat.objects.filter(game=game, user_id=row.user_id).first()
    if seat is None or not seat.deciding:
        return Skip("it is not this player's turn")
    if seat.wait_version != row.turn:
        return Skip("the turn has passed")
    if not seat.is_person:
        return Skip("the computer plays this seat")
    if seat.stood_in(timezone.now()):
        return Skip("the computer stands in for the player")
    return game, seat


def active_until(seat: Seat, now: datetime) -> datetime | None:
    seen = seat.last_seen_at
    if seen is not None and seen > now - ACTIVE_WINDOW:
        return seen + ACTIVE_WINDOW
    return None


def _away(row: Notification, now: datetime) -> Defer | None:
    vacation = clocks.current_vacation(row.user, now)
    if vacation is not None:
        return Defer(vacation.end, "the player is on vacation")
    return None


def asleep(row: Notification, now: datetime) -> Defer | None:
    """Every notice waits for the end of its player's night (accounts.quiet_hours)."""
    until = quiet_hours.asleep_until(quiet_hours.of(row.user), now)
    return None if until is None else Defer(until, "the player's quiet hours")


def _check_turn(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    assert seat.deciding_since is not None  # a deciding seat's (games.play sets both)
    if seat.last_seen_at is not None and seat.last_seen_at >= seat.deciding_since:
        return Skip("the player has seen the game since the turn came to them")
    if until := active_until(seat, now):
        return Defer(until, "the player was on the game a moment ago")
    return {"game": game, "seat": seat}


def _check_reminder(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    assert seat.deciding_since is not None  # a deciding seat's (games.play sets both)
    if row.kind == Kind.WEEKLY:
        if game.move_days is not None:
            return Skip("the game has a time limit")
        due = seat.deciding_since + WEEK * row.number
    else:
        hours = row.user.reminder_after_hours
        assert hours is not None  # wanted: emails.prepare asks preferences.wants first
        due = seat.deciding_since + timedelta(hours=hours)
    if now < due:
        return Defer(due, "not due yet")
    if away := _away(row, now):
        return away
    if until := active_until(seat, now):
        return Defer(until, "the player is on the game")
    return {"game": game, "seat": seat, "weeks": row.number}


def _check_deadline(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    if seat.deadline is None or seat.deadline <= now:
        return Skip("no time limit runs out")
    lead = WARNING_LEAD[row.kind]
    if seat.deadline - lead > now + timedelta(minutes=1):
        # A vacation pushed the deadline back since the sweep chose this warning.
        return Defer(seat.deadline - lead, "the deadline moved")
    if until := active_until(seat, now):
        return Defer(min(until, seat.deadline), "the player is on the game")
    return {"game": game, "seat": seat, "hours_left": round(lead.total_seconds() / 3600)}


def _seat_of(row: Notification) -> Seat | None:
    return Seat.objects.filter(game=row.game, user=row.user).first()


def _check_started(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    seat = _seat_of(row)
    if seat is None or row.game is None or row.game.status not in Game.ACTIVE:
        return Skip("the game is not going on")
    return {"game": row.game, "seat": seat}


def _check_finished(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    seat = _seat_of(row)
    if seat is None or row.game is None or row.game.status in Game.ACTIVE:
        return Skip("the game is not over")
    return {"game": row.game, "seat": seat}


def _check_abandoned(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    seat = _seat_of(row)
    if seat is None:
        return Skip("not a player of this game")
    return {"game": row.game, "seat": seat, "dropped": row.number}


def _check_invitation(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    invitation = row.invitation
    assert invitation is not None  # an invitation's notice
    if invitation.status != Invitation.Status.OPEN:
        return Skip("the invitation is no longer open")
    if not invitation.invitees.filter(pk=row.user_id).exists():
        return Skip("not invited")
    if invitation.responses.filter(user=row.user).exists():
        return Skip("already answered")
    # At most a few a day from one player to another (per device for a push): a hundred
    # invitations must not become a hundred emails.
    heard = (
        Notification.objects.filter(
            kind=Kind.INVITATION,
            user_id=row.user_id,
            channel=row.channel,
            subscription_id=row.subscription_id,
            status=Notification.Status.SENT,
            sent_at__gt=now - timedelta(days=1),
            invitation__creator_id=invitation.creator_id,
        )
        .exclude(pk=row.pk)
        .count()
    )
    if heard >= settings.INVITATION_EMAILS_PER_DAY:
        return Skip("enough invitations from this player today")
    return {"invitation": invitation}


def _check_digest(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    rows = queries.games_to_play(row.user)
    if not rows:
        return Skip("no game is waiting")
    return {"rows": rows}


def _check_chat(row: Notification, now: datetime) -> Skip | Defer | dict[str, Any]:
    """A notice of a game's chat: the lines its player has not seen, unless they have the
    game open or heard of it a moment ago."""
    game = row.game
    seat = Seat.objects.filter(game=game, user_id=row.user_id).select_related("user").first()
    if game is None or seat is None:
        return Skip("not a player of this game")
    if until := active_until(seat, now):
        return Defer(until, "the player has the game open")
    previous = (
        Notification.objects.filter(
            kind=Kind.CHAT,
            user_id=row.user_id,
            game=game,
            channel=row.channel,
            subscription_id=row.subscription_id,
            status=Notification.Status.SENT,
        )
        .exclude(pk=row.pk)
        .aggregate(last=Max("sent_at"))["last"]
    )
    if previous is not None and previous + CHAT_BATCH > now:
        return Defer(previous + CHAT_BATCH, "a notice of this game's chat went out a moment ago")
    lines, count = chat_reads.unseen(game, seat.user, seat.last_seen_at, QUOTED)
    if not lines:
        return Skip("the player has seen every line")
    return {"game": game, "seat": seat, "chat_lines": lines, "chat_count": count}


# Whether a notification is still due: the context its message needs, or why not now.
Check = Callable[[Notification, datetime], Skip | Defer | dict[str, Any]]

CHECKS: dict[str, Check] = {
    Kind.TURN: _check_turn,
    Kind.REMINDER: _check_reminder,
    Kind.WEEKLY: _check_reminder,
    Kind.DEADLINE_24H: _check_deadline,
    Kind.DEADLINE_1H: _check_deadline,
    Kind.STARTED: _check_started,
    Kind.FINISHED: _check_finished,
    Kind.ABANDONED: _check_abandoned,
    Kind.INVITATION: _check_invitation,
    Kind.DIGEST: _check_digest,
    Kind.CHAT: _check_chat,
}
