"""A computer stand-in, by consent: a player lets the computer play their seat in a game
until they take it back (or in all their games until a date), at a strength the game's
computer plays.

The seat keeps its player (``Seat.stand_in``, ``stand_in_until``): the computer's moves are
made by the same Celery task as a computer player's (``games.play.computer_moves``), in the
player's name, and the others see "the computer stands in" on the board. A rated game
becomes unrated for that seat (``Seat.unrated``: its player's rating does not move with the
result; ``games.play.ratings``), for good, even once taken back. No turn email, reminder or
time-out reaches a seat the computer stands in for.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.core import GameKind
from games.models import Game, Seat
from games.play import events
from games.play.change import check_active, lock_game, seat_for
from games.play.computer_players import LEVEL_LABELS
from games.play.errors import GameNotActive
from games.reads import list_stamps

# "In all my games until a date": at most this far ahead.
MAX_DAYS = 60


def _check_level(game: Game, level: str) -> None:
    levels = game.game_kind.computer_levels
    if level not in levels:
        raise ValidationError(
            _("Choose a strength the computer plays: %(levels)s") % {"levels": ", ".join(levels)}
        )


def do_stand_in(
    game_id: int, user: User, level: str, until: datetime | None = None, now: datetime | None = None
) -> Seat:
    """The computer plays ``user``'s seat in the game at ``level`` from now until they take
    it back (or ``until``)."""
    now = now or timezone.now()
    if until is not None and until <= now:
        raise ValidationError(_("The stand-in must end in the future"))
    with transaction.atomic():
        game = lock_game(game_id)
        check_active(game)
        seat = seat_for(game, user)
        if not seat.is_person:
            raise ValidationError(_("The computer already plays this seat"))
        _check_level(game, level)
        seat.stand_in, seat.stand_in_until = level, until
        seat.unrated = seat.unrated or game.rated
        Seat.objects.filter(pk=seat.pk).update(
            stand_in=level, stand_in_until=until, unrated=seat.unrated
        )
        _changed(game)
        if seat.deciding:
            events.computer_turn(game.pk, game.version)
    return seat


def do_take_back(game_id: int, user: User) -> bool:
    """``user`` plays their seat again; whether the computer stood in for them."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_for(game, user)
        if not seat.stand_in:
            return False
        Seat.objects.filter(pk=seat.pk).update(stand_in="", stand_in_until=None)
        _changed(game)
    return True


def do_stand_in_everywhere(
    user: User, level: str, until: datetime, now: datetime | None = None
) -> list[int]:
    """The computer stands in for ``user`` in every active game of theirs until ``until``
    (a date: not open-ended), where it plays ``level`` (else the game's nearest
    strength); the ids of those games."""
    now = now or timezone.now()
    if level not in LEVEL_LABELS:
        raise ValidationError(_("Choose a strength the computer plays"))
    if until <= now:
        raise ValidationError(_("The stand-in must end in the future"))
    # Games that start before ``until`` get it too (``for_new_seat``).
    get_user_model().objects.filter(pk=user.pk).update(stand_in_level=level, stand_in_until=until)
    user.stand_in_level, user.stand_in_until = level, until
    done = []
    for game_id in _active_games(user):
        game = Game.objects.get(pk=game_id)
        seat = Seat.objects.get(game_id=game_id, user=user)
        if not seat.is_person:
            continue
        try:
            do_stand_in(game_id, user, nearest(game.game_kind, level), until, now)
        except GameNotActive:
            continue  # it ended a moment ago
        done.append(game_id)
    return done


def do_stand_in_until_day(
    user: User, level: str, day: date, now: datetime | None = None
) -> list[int]:
    """``do_stand_in_everywhere`` until the end of ``day`` (the last day the computer plays,
    in ``user``'s time zone), at most MAX_DAYS ahead: what the settings page and the API
    take; the ids of the games."""
    now = now or timezone.now()
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    until = datetime.combine(day, time.max, tzinfo=zone)
    if (until - now).days > MAX_DAYS:
        raise ValidationError(
            _("The computer plays for you for at most %(days)d days") % {"days": MAX_DAYS}
        )
    return do_stand_in_everywhere(user, level, until, now)


def nearest(kind: GameKind, level: str) -> str:
    """``level`` if ``kind``'s computer plays it, else its middle strength."""
    levels = kind.computer_levels
    return level if level in levels else levels[len(levels) // 2]


def for_new_seat(user: User, kind: GameKind, now: datetime) -> tuple[str, datetime | None]:
    """The stand-in of ``user``'s seat in a game of ``kind`` starting now: (strength, end),
    ("", None) for none."""
    until = user.stand_in_until
    if not user.stand_in_level or until is None or until <= now:
        return "", None
    return nearest(kind, user.stand_in_level), until


def do_take_back_everywhere(user: User) -> int:
    """``user`` plays all their games again; in how many the computer stood in."""
    get_user_model().objects.filter(pk=user.pk).update(stand_in_level="", stand_in_until=None)
    user.stand_in_level, user.stand_in_until = "", None
    return sum(
        do_take_back(game_id, user)
        for game_id in Seat.objects.filter(user=user)
        .exclude(stand_in="")
        .values_list("game_id", flat=True)
    )


def _active_games(user: User) -> list[int]:
    return list(
        Seat.objects.filter(user=user, game__status__in=Game.ACTIVE).values_list(
            "game_id", flat=True
        )
    )


def _changed(game: Game) -> None:
    # Everyone's open board shows the change at its next poll (the game's stamp).
    Game.objects.filter(pk=game.pk).update(stamp=F("stamp") + 1)
    list_stamps.games_changed([game.pk])
