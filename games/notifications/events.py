"""Who hears of what happens in the games: the tasks that the actions queue by name after a
change (``games.play.events``), and the periodic sweeps (reminders and deadline warnings,
daily digests, notifications never queued). Email and push are decided here, once. (The
sweep of waits whose time ran out is ``games.play.timeouts``.) The tasks keep the names they
had in ``games.notifications.events``, for messages already queued and beat schedules.

Every task takes ids, reads the rows again when it runs, and is safe to run twice: emails go
through ``games.notifications.delivery`` (one row per notification, claimed before sending).
A turn notification is per seat and per wait (``Seat.wait_version``): several seats may
wait at once, and each hears once of each wait.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import Task, shared_task
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.expressions import Combinable, NegatedExpression
from django.utils import timezone

from accounts.models import User
from games.models import ChatLine, Game, Invitation, InvitationResponse, Move, Seat
from games.notifications import chat, preferences, push
from games.notifications.due import WARNING_LEAD, WEEK
from games.notifications.emails import user_zone
from games.notifications.models import Notification
from games.notifications.rows import record
from games.notifications.tasks import NOTIFY_TASK, deliver_all, send_notification
from games.play import maintenance
from games.reads import queries

log = logging.getLogger(__name__)

Kind = Notification.Kind

# The fields of a game that hold its secrets, left unread where they are not needed.
SECRETS = ("snapshot", "seed")
# Daily digests go out from this hour of the user's own day.
DIGEST_HOUR = 7
# A player seen on a game this recently has it open (the board's poll marks the seat at most
# every 20 s): they watch its end on the board, and need no notice of it.
WATCHING = timedelta(minutes=1)


def _people(game: Game) -> list[Seat]:
    """The seats of people (not computer players, nor taken over by the computer), with
    their users."""
    return [s for s in game.seats.select_related("user") if s.is_person]


# Notifications of one game -------------------------------------------------------------------
#
# Each ``*_notifications`` function records the rows that an event calls for, as (row, created)
# pairs: recording again finds the rows already there. The tasks queued after a commit call
# them, and so does ``sweep_unqueued_notifications`` for an event whose task was never queued.

Recorded = list[tuple[Notification, bool]]


def _starter(game: Game) -> int | None:
    """The user whose answer started ``game``: the last person to take a seat of its
    invitation (its creator when the others are computers); None for a game nobody started
    by an answer (a tournament's)."""
    return (
        InvitationResponse.objects.filter(
            invitation__game=game, accepted=True, user__computer_level=""
        )
        .order_by("-created", "-pk")
        .values_list("user_id", flat=True)
        .first()
    )


def _ender(game: Game) -> int | None:
    """The seat whose own move (not the computer's or the clock's for them) ended ``game``."""
    last = Move.objects.filter(game=game).order_by("-number").values("seat", "automatic").first()
    return None if last is None or last["automatic"] else last["seat"]


def _watching(seat: Seat, seats: list[Seat], now: datetime) -> bool:
    """Whether ``seat``'s player has the game open, alone against the computer."""
    seen = seat.last_seen_at
    alone = not any(s.is_person for s in seats if s.pk != seat.pk)
    return alone and seen is not None and now - seen < WATCHING


def turn_notifications(game: Game) -> Recorded:
    """Each player the game waits for hears that it is their turn (once per wait, not per
    step); not the player who started the game, at its start: they are at the board."""
    if not game.is_active:
        return []
    out = []
    starter = _starter(game) if game.version == 0 else None
    for seat in Seat.objects.select_related("user").filter(game=game, deciding=True):
        if not seat.is_person or (seat.wait_version == 0 and seat.user_id == starter):
            continue
        # A push to each of the player's devices, whatever their email preferences.
        out += push.record(Kind.TURN, seat.user, game=game, turn=seat.wait_version)
        if not preferences.wants(seat.user, Kind.TURN):
            continue
        if seat.wait_version == 0 and preferences.wants(seat.user, Kind.STARTED):
            continue  # the "game started" email tells the first players to begin
        out.append(record(Kind.TURN, seat.user, game=game, turn=seat.wait_version))
    return out


def started_notifications(game: Game) -> Recorded:
    """Every player hears that the game started, but the one whose answer started it."""
    starter = _starter(game)
    return [
        record(Kind.STARTED, s.user, game=game)
        for s in _people(game)
        if s.user_id != starter and preferences.wants(s.user, Kind.STARTED)
    ]


def finished_notifications(game: Game) -> Recorded:
    """The result to every player (resigned and abandoned ones too), or the cancellation;
    not to the player whose own move ended it, nor to one watching the end of a game
    against the computer: each saw it on the board."""
    if game.is_active:
        return []
    seats = list(game.seats.select_related("user"))
    ender = _ender(game) if game.status == Game.Status.FINISHED else None
    now = timezone.now()
    told = [s for s in seats if s.number != ender and not _watching(s, seats, now)]
    return [
        record(Kind.FINISHED, s.user, game=game)
        for s in told
        if preferences.wants(s.user, Kind.FINISHED)
    ] + [row for s in told for row in push.record(Kind.FINISHED, s.user, game=game)]


def abandoned_notifications(game: Game, seat: int) -> Recorded:
    """The other players hear that ``seat`` ran out of time too often and left the game.

    Not when that ended the game (two players): the "game over" email says it all."""
    if not game.is_active:
        return []
    return [
        record(Kind.ABANDONED, s.user, game=game, number=seat)
        for s in _people(game)
        if s.number != seat and preferences.wants(s.user, Kind.ABANDONED)
    ]


def invitation_notifications(invitation: Invitation) -> Recorded:
    if invitation.status != Invitation.Status.OPEN:
        return []
    invitees = list(invitation.invitees.all())
    return [
        record(Kind.INVITATION, user, invitation=invitation)
        for user in invitees
        if preferences.wants(user, Kind.INVITATION)
    ] + [row for u in invitees for row in push.record(Kind.INVITATION, u, invitation=invitation)]


def _game(game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).defer(*SECRETS).first()


def _deliver(task: Task[Any, Any], recorded: Recorded | None) -> list[str] | None:
    """Deliver every row, new or not: a task run again tries again what is not done yet."""
    return None if recorded is None else deliver_all(task, [row.pk for row, _ in recorded])


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_turn")
def notify_turn(self: Task[Any, Any], game_id: int) -> list[str] | None:
    game = _game(game_id)
    return _deliver(self, None if game is None else turn_notifications(game))


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_game_started")
def notify_game_started(self: Task[Any, Any], game_id: int) -> list[str] | None:
    game = _game(game_id)
    return _deliver(self, None if game is None else started_notifications(game))


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_game_over")
def notify_game_over(self: Task[Any, Any], game_id: int) -> list[str] | None:
    game = _game(game_id)
    return _deliver(self, None if game is None else finished_notifications(game))


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_abandoned")
def notify_abandoned(self: Task[Any, Any], game_id: int, seat: int) -> list[str] | None:
    game = _game(game_id)
    return _deliver(self, None if game is None else abandoned_notifications(game, seat))


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_chat")
def notify_chat(self: Task[Any, Any], game_id: int) -> list[str] | None:
    game = _game(game_id)
    return _deliver(self, None if game is None else chat.chat_notifications(game))


@shared_task(**NOTIFY_TASK, name="games.tasks.notify_invitation")
def notify_invitation(self: Task[Any, Any], invitation_id: int) -> list[str] | None:
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    return _deliver(self, None if invitation is None else invitation_notifications(invitation))


# Sweeps --------------------------------------------------------------------------------------


def _waiting_seats(now: datetime) -> QuerySet[Seat]:
    """Seats of people the game waits for, with their game (no secrets) and user."""
    return (
        Seat.objects.filter(
            game__status__in=Game.ACTIVE,
            deciding=True,
            resigned=False,
            abandoned=False,
            user__is_guest=False,
            user__is_active=True,
        )
        .exclude(user__email="")
        .select_related("game", "user")
        .defer(*queries.SECRET_FIELDS)
    )


def _wanting(kind: str, prefix: str = "") -> Q:
    """Who wants to hear of ``kind``: by email, or by a push to a device."""
    return preferences.wanting(kind, prefix) | push.wanting(kind, prefix)


# A change's email and pushes are recorded together, by one task: a row of either channel
# says that the task ran.
def _not_recorded(kind: str, number: int = 0) -> NegatedExpression[Combinable]:
    return ~Exists(
        Notification.objects.filter(
            kind=kind,
            game=OuterRef("game"),
            user=OuterRef("user"),
            turn=OuterRef("wait_version"),
            number=number,
        )
    )


def _queue(rows: list[Notification]) -> None:
    for row in rows:
        send_notification.delay(row.pk)


@shared_task(name="games.tasks.sweep_reminders")
def sweep_reminders() -> int:
    """Record and queue the deadline warnings, reminders and weekly reminders now due
    (none during maintenance: nobody could move; the deadlines move when it ends)."""
    if maintenance.paused():
        return 0
    now = timezone.now()
    rows = []
    # Deadline warnings: 24 hours and 1 hour before. Only the nearer one when both are due,
    # and none that would come as early as the turn itself (24 hours in a 1-day game).
    for kind, lead, nearer in (
        (Kind.DEADLINE_1H, WARNING_LEAD[Kind.DEADLINE_1H], timedelta(0)),
        (Kind.DEADLINE_24H, WARNING_LEAD[Kind.DEADLINE_24H], WARNING_LEAD[Kind.DEADLINE_1H]),
    ):
        seats = _waiting_seats(now).filter(
            deadline__gt=now + nearer,
            deadline__lte=now + lead,
            user__deadline_emails=True,
        )
        for seat in seats.filter(_not_recorded(kind)):
            # Filtered on the deadline; a deciding seat has the time its wait began.
            assert seat.deadline is not None and seat.deciding_since is not None
            if seat.deadline - seat.deciding_since > lead:
                rows.append(record(kind, seat.user, game=seat.game, turn=seat.wait_version))
    # The user's own reminder, once per wait.
    seats = _waiting_seats(now).filter(
        user__reminder_after_hours__isnull=False,
        deciding_since__lte=now - timedelta(hours=1),
    )
    for seat in seats.filter(_not_recorded(Kind.REMINDER)):
        # Both filtered on above.
        assert seat.deciding_since is not None and seat.user.reminder_after_hours is not None
        if seat.deciding_since + timedelta(hours=seat.user.reminder_after_hours) <= now:
            rows.append(record(Kind.REMINDER, seat.user, game=seat.game, turn=seat.wait_version))
    # Games without a time limit: a reminder for each week of waiting.
    seats = _waiting_seats(now).filter(
        game__move_days__isnull=True,
        deciding_since__lte=now - WEEK,
        user__weekly_reminders=True,
    )
    for seat in seats:
        assert seat.deciding_since is not None  # filtered on above
        week = (now - seat.deciding_since) // WEEK
        rows.append(
            record(Kind.WEEKLY, seat.user, game=seat.game, turn=seat.wait_version, number=week)
        )
    new = [row for row, created in rows if created]
    _queue(new)
    return len(new)


# An event's own task has had its chance after this. The sweep looks at events this recent
# only: an email about a turn days old would be noise, and the reminders take over.
UNQUEUED_AFTER = timedelta(minutes=2)
UNQUEUED_WITHIN = timedelta(days=2)


def _no_row(kind: str, **key: Any) -> NegatedExpression[Combinable]:
    return ~Exists(Notification.objects.filter(kind=kind, **key))


@shared_task(name="games.tasks.sweep_unqueued_notifications")
def sweep_unqueued_notifications(now: datetime | None = None) -> int:
    """Record and queue the notifications of recent events that have no row yet.

    A change's notifications are queued after its commit; if the broker cannot be reached
    then, the change stands and ``games.play.events.queue_on_commit`` only logs (a process
    that dies between
    the commit and the queuing, likewise). Nothing else would remember them: this sweep finds
    them again from the games' state (whose turn it is and since when, which games started or
    ended, which seats were abandoned, which invitations are open) and does what the lost task
    would have done. The queries select only events with someone who wants the email or a
    push and has no row for it, so a sweep after which nothing was lost finds nothing.
    """
    now = now or timezone.now()
    window = (now - UNQUEUED_WITHIN, now - UNQUEUED_AFTER)
    game = OuterRef("game")
    people = Seat.objects.filter(resigned=False, abandoned=False)
    recorded: Recorded = []

    turns = (
        people.filter(game__status__in=Game.ACTIVE, deciding=True, deciding_since__range=window)
        .filter(_wanting(Kind.TURN, "user__"))
        .filter(_not_recorded(Kind.TURN))
        # The first players of a new game hear it from the "game started" email.
        .exclude(Q(wait_version=0) & preferences.wanting(Kind.STARTED, "user__"))
    )
    for g in Game.objects.filter(Exists(turns.filter(game=OuterRef("pk")))).defer(*SECRETS):
        recorded += turn_notifications(g)

    started = people.filter(game__created__range=window).filter(
        preferences.wanting(Kind.STARTED, "user__"),
        _no_row(Kind.STARTED, game=game, user=OuterRef("user")),
    )
    for g in Game.objects.filter(Exists(started.filter(game=OuterRef("pk")))).defer(*SECRETS):
        recorded += started_notifications(g)

    finished = Seat.objects.filter(
        game__status__in=[Game.Status.FINISHED, Game.Status.CANCELLED],
        game__finished__range=window,
    ).filter(
        _wanting(Kind.FINISHED, "user__"),
        _no_row(Kind.FINISHED, game=game, user=OuterRef("user")),
    )
    for g in Game.objects.filter(Exists(finished.filter(game=OuterRef("pk")))).defer(*SECRETS):
        recorded += finished_notifications(g)

    # A seat keeps no time of its abandoning; the turn that came after it is as recent. These
    # are few: each is simply recorded again (finding the rows already there).
    abandoned = Seat.objects.filter(
        Exists(Seat.objects.filter(game=game, deciding_since__gte=window[0])),
        abandoned=True,
        game__status__in=Game.ACTIVE,
    ).select_related("game")
    for seat in abandoned.defer(*queries.SECRET_FIELDS):
        recorded += abandoned_notifications(seat.game, seat.number)

    invitees = User.objects.filter(invitations_received=OuterRef("pk")).filter(
        _wanting(Kind.INVITATION),
        _no_row(Kind.INVITATION, user=OuterRef("pk"), invitation=OuterRef(OuterRef("pk"))),
    )
    invitations = Invitation.objects.filter(
        Exists(invitees), status=Invitation.Status.OPEN, created__range=window
    )
    for invitation in invitations:
        recorded += invitation_notifications(invitation)

    # Lines of a game's chat that a reader who wants to hear of them has not seen, with no
    # notice of theirs made since (chat.chat_notifications decides alike).
    unheard = Seat.objects.filter(
        preferences.wanting(Kind.CHAT, "user__") | push.wanting(Kind.CHAT, "user__"),
        Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=OuterRef("created")),
        game=game,
        computer_level="",
    ).exclude(user=OuterRef("author"))
    unheard = unheard.exclude(
        Exists(
            Notification.objects.filter(
                kind=Kind.CHAT,
                user=OuterRef("user"),
                game=OuterRef("game"),
                created__gte=OuterRef(OuterRef("created")),
            )
        )
    )
    lines = ChatLine.objects.filter(Exists(unheard), created__range=window, hidden=False)
    chatted = Game.objects.filter(pk__in=lines.values("game_id")).defer(*SECRETS)
    for g in chatted:
        recorded += chat.chat_notifications(g)

    new = [row for row, created in recorded if created]
    _queue(new)
    if new:
        log.warning("%s notifications had not been queued: queued now", len(new))
    return len(new)


@shared_task(name="games.tasks.send_daily_digests")
def send_daily_digests() -> int:
    """Once a day, from DIGEST_HOUR of their own day, a list of the games waiting for each
    player who chose the digest; after maintenance rather than during it, when nobody could
    move."""
    if maintenance.paused():
        return 0
    now = timezone.now()
    users = User.objects.filter(
        turn_emails=User.TurnEmails.DAILY_DIGEST, is_guest=False, is_active=True
    ).exclude(email="")
    waiting = Seat.objects.filter(user=OuterRef("pk"), game__status__in=Game.ACTIVE, deciding=True)
    rows = []
    for user in users.filter(Exists(waiting)):
        local = now.astimezone(user_zone(user.time_zone))
        if local.hour < DIGEST_HOUR:
            continue
        row, created = record(Kind.DIGEST, user, turn=local.date().toordinal())
        if created:
            rows.append(row)
    _queue(rows)
    return len(rows)
