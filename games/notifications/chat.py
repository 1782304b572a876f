"""Notices of a game's chat: the players who are not looking hear of new lines, by email and
on their devices as they chose (``User.chat_emails``, ``User.push_chat``), at most once a
quarter hour per game.

A notice is a ``Notification`` of kind ``chat`` whose ``turn`` numbers the player's notices
of that game (1, 2, ...). A line needs a new one for a reader when it is newer than their
newest notice of the game and no notice of theirs is still waiting (queued or deferred: it
tells of every unseen line when it goes, since its words are made then). That rule decides
alike for the task a line queues and for the sweep that finds lines whose task was lost (a
broker down at the commit), so deciding twice makes nothing twice.

When its time comes a notice lists the lines the player has not seen (written since they last
had the game open), and is skipped if there are none; it waits while they have the game open,
and until a quarter hour after their last notice of the game on the same channel (email, or
that device). The turn email and the daily digest say the same lines.
"""

from __future__ import annotations

from django.db.models import Max

from games.models import ChatLine, Game, Seat
from games.notifications import preferences, push
from games.notifications.models import Notification
from games.notifications.rows import record

Kind = Notification.Kind
Status = Notification.Status


Recorded = list[tuple[Notification, bool]]


def _readers(game: Game) -> list[Seat]:
    """The seats of the game's people, with their users (a seat the computer plays for a
    player who resigned still belongs to a person who may read)."""
    return [s for s in game.seats.select_related("user") if not s.computer_level]


def _needs_notice(game: Game, seat: Seat) -> bool:
    """Whether a line of others, unseen by ``seat``'s player, is newer than their newest
    notice of the game, with no notice of theirs still waiting."""
    user = seat.user
    lines = ChatLine.objects.filter(game=game, hidden=False).exclude(author=user)
    lines = lines.exclude(author__in=user.blocks.values("blocked_id"))
    if seat.last_seen_at is not None:
        lines = lines.filter(created__gt=seat.last_seen_at)
    rows = Notification.objects.filter(kind=Kind.CHAT, user=user, game=game)
    if rows.filter(status__in=[Status.QUEUED, Status.DEFERRED]).exists():
        return False
    last = rows.aggregate(last=Max("created"))["last"]
    if last is not None:
        lines = lines.filter(created__gt=last)
    return lines.exists()


def chat_notifications(game: Game) -> Recorded:
    """The notices the game's chat calls for now: for each reader with unseen lines newer
    than their newest notice of it and no notice still waiting, the next one (an email if
    they want it, a push to each device if they want those)."""
    recorded: Recorded = []
    for seat in _readers(game):
        user = seat.user
        wants_email = preferences.wants(user, Kind.CHAT)
        if not (wants_email or push.wants(user, Kind.CHAT)):
            continue
        if not _needs_notice(game, seat):
            continue
        rows = Notification.objects.filter(kind=Kind.CHAT, user=user, game=game)
        number = (rows.aggregate(n=Max("turn"))["n"] or 0) + 1
        if wants_email:
            recorded.append(record(Kind.CHAT, user, game=game, turn=number))
        recorded += push.record(Kind.CHAT, user, game=game, turn=number)
    return recorded
