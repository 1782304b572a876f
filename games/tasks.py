"""Celery tasks of the games: the notifications a move causes, and the periodic sweeps
(turns whose time ran out, reminders and deadline warnings, daily digests).

Every task takes ids, reads the rows again when it runs, and is safe to run twice: emails go
through ``games.notifications.delivery`` (one row per notification, claimed before sending), and
time-outs through ``services.do_time_out`` (claimed with a conditional update).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from accounts.models import User
from games import queries, services
from games.models import Game, Invitation, Seat
from games.notifications import preferences
from games.notifications.delivery import record
from games.notifications.emails import WARNING_LEAD, WEEK, _zone
from games.notifications.models import Notification
from games.notifications.tasks import deliver_all, send_notification

log = logging.getLogger(__name__)

Kind = Notification.Kind

# At most this many expired turns per sweep (the next sweep, a minute later, goes on).
TIMEOUT_BATCH = 1000
# Daily digests go out from this hour of the user's own day.
DIGEST_HOUR = 7


def enqueue_on_commit(task, *args) -> None:
    """Queue ``task`` once the current transaction commits (Celery's ``delay_on_commit``),
    robustly: a broker that is down is logged, never raised into the request whose move has
    just been committed."""

    def queue_task() -> None:
        task.delay(*args)

    queue_task.__qualname__ = f"queue {task.name}"
    transaction.on_commit(queue_task, robust=True)


def _people(game: Game):
    """The seats of people (not played by the computer), with their users."""
    return [s for s in game.seats.select_related("user") if not s.computer_plays]


# Notifications of one game -------------------------------------------------------------------


@shared_task(bind=True)
def notify_turn(self, game_id: int):
    """Tell the player to move that it is their turn (once per turn, not per step)."""
    game = Game.objects.filter(pk=game_id).defer("snapshot", "seed").first()
    if game is None or not game.is_active or game.to_move is None:
        return None
    seat = Seat.objects.select_related("user").filter(game=game, number=game.to_move).first()
    if seat is None or seat.computer_plays or not preferences.wants(seat.user, Kind.TURN):
        return None
    if game.turn_version == 0 and preferences.wants(seat.user, Kind.STARTED):
        return None  # the "game started" email tells the first player to begin
    row, _ = record(Kind.TURN, seat.user, game=game, turn=game.turn_version)
    return deliver_all(self, [row.pk])


@shared_task(bind=True)
def notify_game_started(self, game_id: int):
    game = Game.objects.filter(pk=game_id).defer("snapshot", "seed").first()
    if game is None:
        return None
    rows = [
        record(Kind.STARTED, s.user, game=game)[0]
        for s in _people(game)
        if preferences.wants(s.user, Kind.STARTED)
    ]
    return deliver_all(self, [r.pk for r in rows])


@shared_task(bind=True)
def notify_game_over(self, game_id: int):
    """The result to every player (resigned and abandoned ones too), or the cancellation."""
    game = Game.objects.filter(pk=game_id).defer("snapshot", "seed").first()
    if game is None or game.is_active:
        return None
    seats = game.seats.select_related("user")
    rows = [
        record(Kind.FINISHED, s.user, game=game)[0]
        for s in seats
        if preferences.wants(s.user, Kind.FINISHED)
    ]
    return deliver_all(self, [r.pk for r in rows])


@shared_task(bind=True)
def notify_abandoned(self, game_id: int, seat: int):
    """Tell the other players that ``seat`` ran out of time too often and left the game.

    Not when that ended the game (two players): the "game over" email says it all."""
    game = Game.objects.filter(pk=game_id).defer("snapshot", "seed").first()
    if game is None or not game.is_active:
        return None
    rows = [
        record(Kind.ABANDONED, s.user, game=game, number=seat)[0]
        for s in _people(game)
        if s.number != seat and preferences.wants(s.user, Kind.ABANDONED)
    ]
    return deliver_all(self, [r.pk for r in rows])


@shared_task(bind=True)
def notify_invitation(self, invitation_id: int):
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    if invitation is None or invitation.status != Invitation.Status.OPEN:
        return None
    rows = [
        record(Kind.INVITATION, user, invitation=invitation)[0]
        for user in invitation.invitees.all()
        if preferences.wants(user, Kind.INVITATION)
    ]
    return deliver_all(self, [r.pk for r in rows])


# Sweeps --------------------------------------------------------------------------------------


@shared_task
def sweep_timeouts(limit: int = TIMEOUT_BATCH) -> int:
    """Time out every turn whose deadline has passed; how many were timed out.

    The index on (status, deadline) finds them; ``services.do_time_out`` claims each with a
    conditional update, so two sweeps running at once (two beat ticks, two workers) act once.
    """
    now = timezone.now()
    expired = list(
        Game.objects.filter(status__in=Game.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "version")[:limit]
    )
    done = 0
    for game_id, version in expired:
        try:
            if services.do_time_out(game_id, version, now) is not None:
                done += 1
        except Exception:
            # One broken game must not stop the others; it is tried again next minute.
            log.exception("Could not time out game %s", game_id)
    if expired:
        log.info("Time-out sweep: %s of %s expired turns timed out", done, len(expired))
    return done


def _waiting_seats(now: datetime):
    """Seats of people whose turn it is, with their game (no secrets) and user."""
    return (
        Seat.objects.filter(
            game__status__in=Game.ACTIVE,
            game__to_move=F("number"),
            resigned=False,
            abandoned=False,
            user__is_guest=False,
            user__is_active=True,
        )
        .exclude(user__email="")
        .select_related("game", "user")
        .defer(*queries.SECRET_FIELDS)
    )


def _not_recorded(kind: str, number=0):
    return ~Exists(
        Notification.objects.filter(
            kind=kind,
            game=OuterRef("game"),
            user=OuterRef("user"),
            turn=OuterRef("game__turn_version"),
            number=number,
        )
    )


def _queue(rows: list[Notification]) -> None:
    for row in rows:
        send_notification.delay(row.pk)


@shared_task
def sweep_reminders() -> int:
    """Record and queue the deadline warnings, reminders and weekly reminders now due."""
    now = timezone.now()
    rows = []
    # Deadline warnings: 24 hours and 1 hour before. Only the nearer one when both are due,
    # and none that would come as early as the turn itself (24 hours in a 1-day game).
    for kind, lead, nearer in (
        (Kind.DEADLINE_1H, WARNING_LEAD[Kind.DEADLINE_1H], timedelta(0)),
        (Kind.DEADLINE_24H, WARNING_LEAD[Kind.DEADLINE_24H], WARNING_LEAD[Kind.DEADLINE_1H]),
    ):
        seats = _waiting_seats(now).filter(
            game__deadline__gt=now + nearer,
            game__deadline__lte=now + lead,
            user__deadline_emails=True,
        )
        for seat in seats.filter(_not_recorded(kind)):
            game = seat.game
            if game.deadline - game.to_move_since > lead:
                rows.append(record(kind, seat.user, game=game, turn=game.turn_version))
    # The user's own reminder, once per turn.
    seats = _waiting_seats(now).filter(
        user__reminder_after_hours__isnull=False,
        game__to_move_since__lte=now - timedelta(hours=1),
    )
    for seat in seats.filter(_not_recorded(Kind.REMINDER)):
        game = seat.game
        if game.to_move_since + timedelta(hours=seat.user.reminder_after_hours) <= now:
            rows.append(record(Kind.REMINDER, seat.user, game=game, turn=game.turn_version))
    # Games without a time limit: a reminder for each week of waiting.
    seats = _waiting_seats(now).filter(
        game__move_days__isnull=True,
        game__to_move_since__lte=now - WEEK,
        user__weekly_reminders=True,
    )
    for seat in seats:
        game = seat.game
        week = (now - game.to_move_since) // WEEK
        rows.append(record(Kind.WEEKLY, seat.user, game=game, turn=game.turn_version, number=week))
    new = [row for row, created in rows if created]
    _queue(new)
    return len(new)


@shared_task
def send_daily_digests() -> int:
    """Once a day, from DIGEST_HOUR of their own day, a list of the games waiting for each
    player who chose the digest."""
    now = timezone.now()
    users = User.objects.filter(
        turn_emails=User.TurnEmails.DAILY_DIGEST, is_guest=False, is_active=True
    ).exclude(email="")
    waiting = Seat.objects.filter(
        user=OuterRef("pk"), game__status__in=Game.ACTIVE, game__to_move=F("number")
    )
    rows = []
    for user in users.filter(Exists(waiting)):
        local = now.astimezone(_zone(user.time_zone))
        if local.hour < DIGEST_HOUR:
            continue
        row, created = record(Kind.DIGEST, user, turn=local.date().toordinal())
        if created:
            rows.append(row)
    _queue(rows)
    return len(rows)
