"""A change's seats: read once under the game's lock, followed through the change (whether
the game waits for each, since when, until when), and written back in one UPDATE.

A move reads the seats once, with their users (the API answers with their names) and the
end of each user's latest vacation: a deadline is pushed back only by vacations that end
after its wait began, so the vacations themselves are read only when one does. A vacation
that starts meanwhile is seen by ``games.play.vacations.refresh_deadlines``, which waits for
this change's lock.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils.translation import gettext as _

from accounts import quiet_hours
from accounts.models import User
from games.core.waits import Waits
from games.models import Game, Move, Seat, Vacation
from games.play.errors import NotYourTurn
from games.reads import clocks
from guildhall_site import rows


def load_seats(game: Game) -> list[Seat]:
    """The seats of ``game`` in seat order, with their users and ``vacation_end`` (the end
    of the user's latest vacation, None for none), read in plain SQL (``rows``)."""
    end = rows.table(Vacation)
    seats = []
    for seat, latest in rows.joined(
        Seat, "user", "game", game.pk, extra=_latest_vacation(connection.vendor), order_by="number"
    ):
        _SEAT_GAME.set_cached_value(seat, game)  # as the ORM's game.seats: the game known
        # Not a field: read beside the row, as an annotate() would add it.
        seat.vacation_end = end.value("end", latest)  # type: ignore[attr-defined]
        seats.append(seat)
    return seats


@functools.cache
def _latest_vacation(vendor: str) -> str:
    col = rows.column
    return (
        f"(SELECT MAX(v.{col(Vacation, 'end')}) FROM {rows.quoted(Vacation)} v"
        f" WHERE v.{col(Vacation, 'user')} = m.{col(Seat, 'user')})"
    )


_SEAT_GAME = Seat._meta.get_field("game")


def own_seat(seats: Iterable[Seat], user: User | AnonymousUser) -> Seat:
    """``user``'s seat among ``seats``; ``NotYourTurn`` for anyone else."""
    if user is not None and user.is_authenticated:
        for seat in seats:
            if seat.user_id == user.pk:
                return seat
    raise NotYourTurn(_("You do not play in this game"))


def follow_seats(
    game: Game, seats: Iterable[Seat], waits: Waits, now: datetime
) -> dict[int, set[str]]:
    """Set each seat's decision after the change (``game`` saved at its new version); the
    fields that changed, by seat number."""
    changed: dict[int, set[str]] = {}
    clocks_from: dict[Seat, datetime] = {}  # the seats whose wait (re)began, from when
    for seat in seats:
        change = waits.seat(seat.number)
        fields: set[str] = set()
        if change.restarted:
            # The clock runs per wait, not per step: a player who keeps deciding through a
            # long turn (or undoes and redoes) gets no more time.
            seat.deciding, seat.deciding_since, seat.wait_version = True, now, game.version
            clocks_from[seat] = now
            fields |= {"deciding", "deciding_since", "wait_version", "deadline"}
        elif change.deciding and not seat.deciding:
            # The seat reopened its own submission in the same step (a choice changed after
            # "done"): the game waits for it again, on the clock of the wait it had, so that
            # reopening never buys time.
            since = wait_began(game, seat)
            seat.deciding, seat.deciding_since = True, since
            clocks_from[seat] = since
            fields |= {"deciding", "deciding_since", "deadline"}
        elif seat.deciding and not change.deciding:
            seat.deciding, seat.deciding_since, seat.deadline = False, None, None
            fields |= {"deciding", "deciding_since", "deadline"}
        if change.changed:
            seat.decision_version = game.version
            fields.add("decision_version")
        changed[seat.number] = fields
    for seat, deadline in deadlines(game.move_days, clocks_from).items():
        seat.deadline = deadline
    return changed


def deadlines(move_days: int | None, waits: Mapping[Seat, datetime]) -> dict[Seat, datetime | None]:
    """The deadline of each seat's wait begun at its time (``clocks.deadline_for``), with at
    most one read of vacations: of the users whose latest vacation ends after their wait
    began (seats from ``load_seats``, whose users bring their quiet hours)."""
    if not move_days:
        return {seat: None for seat in waits}
    asked = {s: since for s, since in waits.items() if _vacation_after(s, since)}
    periods: dict[int, list[tuple[datetime, datetime]]] = defaultdict(list)
    if asked:
        rows = Vacation.objects.filter(
            user_id__in={s.user_id for s in asked}, end__gt=min(asked.values())
        ).values_list("user_id", "start", "end")
        for user_id, start, end in rows:
            periods[user_id].append((start, end))
    allowance = timedelta(days=move_days)
    return {
        seat: clocks.clock_end(quiet_hours.of(seat.user), since, allowance, periods[seat.user_id])
        for seat, since in waits.items()
    }


def _vacation_after(seat: Seat, since: datetime) -> bool:
    end = seat.vacation_end  # type: ignore[attr-defined]  # load_seats' annotation
    return end is not None and end > since


def wait_began(game: Game, seat: Seat) -> datetime:
    """When ``seat``'s current wait began: the time of the record that started it (the
    game's start for a wait as old as the game)."""
    if seat.wait_version:
        began = (
            Move.objects.filter(game=game, number=seat.wait_version)
            .values_list("created", flat=True)
            .first()
        )
        if began is not None:
            return began
    return game.created


def write_seats(seats: Iterable[Seat], changed: Mapping[int, Collection[str]]) -> None:
    """Store the ``changed`` fields of each seat (by number) in one UPDATE; a seat keeps the
    stored value of a field that only another seat changed."""
    rows.update([(seat, changed[seat.number]) for seat in seats if changed.get(seat.number)])
