"""The two reads every open board makes again and again, in plain SQL.

A board served from the cache (``games.web.page_cache``) and an unchanged poll each need one
small read: the game's version and status with its seats (the cached board's key), or with
the viewer's ``last_seen_at`` (the poll). Built by the ORM, such a query costs more to
compile than to run (about 1.5 ms against 0.4 ms on PostgreSQL), which for these two
requests is most of their own cost; so they are written out here, once, for every database
the site runs on. The board's move log reads its newest records the same way
(``games.reads.history``); every other read goes through the ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import DateTimeField, Value

from accounts import quiet_hours
from accounts.models import User
from accounts.quiet_hours import QuietHours
from games.community.chat.reads import format_stamp
from games.models import ChatLine, Game, Seat, Vacation


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as the board's key and its concede/cancel buttons read it."""

    number: int
    user_id: int
    last_seen_at: datetime | None
    resigned: bool
    abandoned: bool
    cancel_vote: bool
    computer_level: str  # a computer player's seat
    vacation_until: datetime | None  # the end of its player's current vacation
    quiet: QuietHours | None  # its player's quiet hours (accounts.quiet_hours)
    stand_in: str  # the strength of the computer standing in for its player ("": none)
    stand_in_until: datetime | None
    draft_stamp: str  # names its own private records (only its player's board reads it)
    game_version: int
    game_status: str
    game_stamp: int  # changes with what everyone sees between versions

    def stood_in(self, now: datetime) -> str:
        """The strength the computer stands in for its player at now, "" for none."""
        until = self.stand_in_until
        return self.stand_in if until is None or until > now else ""

    def asleep_until(self, now: datetime) -> datetime | None:
        """The end of its player's night, while it lasts."""
        return quiet_hours.asleep_until(self.quiet, now)

    @property
    def computer_plays(self) -> bool:
        return self.resigned or self.abandoned

    @property
    def is_person(self) -> bool:
        return not (self.computer_level or self.computer_plays)


def _sql(template: str) -> str:
    q = connection.ops.quote_name
    return template.format(
        game=q(Game._meta.db_table),
        seat=q(Seat._meta.db_table),
        vacation=q(Vacation._meta.db_table),
        chat=q(ChatLine._meta.db_table),
        user=q(get_user_model()._meta.db_table),
        start=q("start"),
        end=q("end"),
    )


_SEATS = """
SELECT s.number, s.user_id, s.last_seen_at, s.resigned, s.abandoned, s.cancel_vote,
       s.computer_level,
       (SELECT MIN(v.{end}) FROM {vacation} v
         WHERE v.user_id = s.user_id AND v.{start} <= %s AND v.{end} > %s),
       s.draft_stamp, g.version, g.status, g.stamp, u.quiet_from, u.quiet_until, u.time_zone,
       s.stand_in, s.stand_in_until
  FROM {seat} s JOIN {game} g ON g.id = s.game_id JOIN {user} u ON u.id = s.user_id
 WHERE s.game_id = %s
 ORDER BY s.number
"""

_POLL = """
SELECT g.version, g.status, s.id IS NOT NULL, s.last_seen_at, g.stamp, s.draft_stamp,
       (SELECT COALESCE(MAX(c.id), 0) FROM {chat} c WHERE c.game_id = g.id),
       (SELECT COUNT(*) FROM {chat} c WHERE c.game_id = g.id AND c.hidden)
  FROM {game} g LEFT JOIN {seat} s ON s.game_id = g.id AND s.user_id = %s
 WHERE g.id = %s
"""


def seats(game_id: int, now: datetime) -> list[SeatRow]:
    """The game's seats in order, each with its player's vacation at ``now``, and the game's
    version and status (in every row); [] when there is no such game."""
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(_sql(_SEATS), [at, at, game_id])
        rows = cursor.fetchall()
    return [
        SeatRow(
            number=row[0],
            user_id=row[1],
            last_seen_at=_datetime(row[2]),
            resigned=bool(row[3]),
            abandoned=bool(row[4]),
            cancel_vote=bool(row[5]),
            computer_level=row[6],
            vacation_until=_datetime(row[7]),
            quiet=None if row[12] is None or row[13] is None else QuietHours(*row[12:15]),
            stand_in=row[15],
            stand_in_until=_datetime(row[16]),
            draft_stamp=row[8],
            game_version=row[9],
            game_status=row[10],
            game_stamp=row[11],
        )
        for row in rows
    ]


@dataclass(frozen=True, slots=True)
class PollRow:
    version: int
    status: str
    stamp: int  # Game.stamp
    seated: bool  # the user has a seat in the game
    seen_at: datetime | None  # when that seat last looked
    draft_stamp: str  # that seat's own private records ("" for none, or no seat)
    chat_stamp: str  # the game's chat as it is (games.community.chat.reads.stamp)


def poll(game_id: int, user_id: int | None) -> PollRow | None:
    """The game's version, status and stamp, whether ``user_id`` has a seat in it, when
    that seat last looked and its draft stamp; None when there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(_POLL), [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    version, status, seated, seen, stamp, draft_stamp, newest_line, hidden_lines = row
    return PollRow(
        version,
        status,
        stamp,
        bool(seated),
        _datetime(seen),
        draft_stamp or "",
        format_stamp(newest_line, hidden_lines),
    )


_DATETIME = Value(None, output_field=DateTimeField())


def _datetime(value: object) -> datetime | None:
    """A datetime column as the ORM would give it (SQLite: text or naive, made aware)."""
    if value is None:
        return None
    for converter in connection.ops.get_db_converters(_DATETIME):
        value = converter(value, _DATETIME, connection)
    return cast(datetime, value)  # the converters' result: an aware datetime


def game_actions_context(
    game: Game, user: User | AnonymousUser | None, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """What ``games/game_actions.html`` needs (the ``game_actions`` tag builds the same),
    from the game's ``seats`` when the caller has read them."""
    seats = list(game.seats.all()) if seats is None else seats
    seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    voters = [s for s in seats if s.is_person]
    return {
        "game": game,
        "seat": seat,
        "cancel_votes": sum(s.cancel_vote for s in voters),
        "voters": len(voters),
        "players_left": sum(not s.resigned for s in seats),
    }
