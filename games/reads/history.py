"""The whole move log of a game as one viewer may read it: grouped by turn, newest turn
first, a page at a time.

A record (``Move``) is one step of the game's record, numbered as the record is. The game
names the records that begin a part of the game (a turn, a round's phase) through
``log_heading``; the records from one such record to the next form a group, shown under
that heading with its records in the order they happened. A record with no line for this
viewer (a tap of a multi-card choice, a secret choice) is shown with the next record that
has one, as a range ("12–14"), so that no number goes missing.

A page holds at least ``PAGE_RECORDS`` records and starts at a heading, so that a turn is
never cut in two (a game's turns are bounded by its rules: a few dozen records at most).
The next page is asked for with ``before``: the record of the oldest heading shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from games.core import GameKind
from games.core.protocol import State
from games.models import Game, Move
from games.reads.movelog import describe_move

PAGE_RECORDS = 40
# The board shows the newest turns only (the rest come on demand, "Older moves"): about a
# round of a 4-player game, which is what a player coming back wants to read.
BOARD_RECORDS = 12
_CHUNK = 100


@dataclass
class Entry:
    first: int  # the first record number it covers
    last: int  # the last (equal to ``first`` for one record)
    lines: list[str]


@dataclass
class Group:
    heading: str | None  # None: the start of the game, before its first heading
    entries: list[Entry] = field(default_factory=list)  # in the order they happened
    continued: bool = False  # it began before the oldest record of this page


@dataclass
class Page:
    groups: list[Group]  # newest first
    older_before: int | None  # ``before`` of the next (older) page; None at the game's start
    records: int  # how many records the page covers


def page(
    game: Game,
    state: State,
    viewer: int | None,
    before: int | None = None,
    records_at_least: int = PAGE_RECORDS,
) -> Page:
    """The page of ``game``'s log older than ``before`` (None: the newest page), for
    ``viewer`` (a seat, or None for a spectator), ``state`` being the game's current state;
    at least ``records_at_least`` records, unless the game has fewer.

    A page starts at a heading. A record may hold the end of one group and the start of the
    next (the event that ends a turn and the one that begins the next): it is then cut at
    its first heading, and ``before`` names it, its part before the heading going with the
    older page.
    """
    kind = game.game_kind
    records: list[tuple[int, list[dict[str, Any]]]] = []  # newest first while reading
    boundary: int | None = None  # the record the page starts in, at its first heading
    for number, events in _newest_first(game.pk, before, first=records_at_least * 2):
        if number == before:
            events = events[: _first_heading(kind, state, events)]
            if not events:
                continue
        records.append((number, events))
        cut = _first_heading(kind, state, events)
        if cut < len(events) and len(records) >= records_at_least:
            records[-1] = (number, events[cut:])
            boundary = number if (cut or number > 1) else None
            break
    records.reverse()
    groups: list[Group] = []
    pending: int | None = None  # the first of the records without lines so far
    for number, events in records:
        for heading, part in _split(kind, state, events):
            if heading is not None or not groups:
                starts_game = number == 1 and heading is None
                groups.append(Group(heading=heading, continued=heading is None and not starts_game))
            lines = describe_move(game, state, part, viewer)
            if heading is not None:
                lines = [line for line in lines if line != heading]
                if not lines and len(part) == 1:
                    continue  # the heading alone: nothing hidden
            if lines:
                first = number if pending is None else pending
                groups[-1].entries.append(Entry(first=first, last=number, lines=lines))
                pending = None
            elif pending is None:
                pending = number
    if pending is not None and groups:
        # The newest records said nothing to this viewer: the last entry covers them.
        newest = records[-1][0]
        entries = groups[-1].entries
        if entries:
            entries[-1].last = newest
        else:
            entries.append(Entry(first=pending, last=newest, lines=[]))
    groups.reverse()
    return Page(groups=groups, older_before=boundary, records=len(records))


# In plain SQL: built by the ORM, this read of a few small rows cost a fresh board more to
# compile and convert (0.6 ms on PostgreSQL) than to run (0.13 ms).
_NEWEST = (
    "SELECT number, events FROM {move} WHERE game_id = %s AND number <= %s ORDER BY number DESC"
)


def _newest_first(
    game_id: int, before: int | None, first: int = _CHUNK
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The game's records up to ``before`` (all: None), newest first: ``first`` of them, then
    ``_CHUNK`` at a time (one query for most pages)."""
    sql = _NEWEST.format(move=connection.ops.quote_name(Move._meta.db_table)) + " LIMIT %s"
    below = before if before is not None else 2**31 - 1
    size = first
    while True:
        with connection.cursor() as cursor:
            cursor.execute(sql, [game_id, below, size])
            chunk = cursor.fetchall()
        for number, events in chunk:
            # jsonb comes back as its text on PostgreSQL (as Django sets psycopg up), and
            # SQLite stores the text.
            yield number, json.loads(events) if isinstance(events, str) else events
        if len(chunk) < size:
            return
        below, size = chunk[-1][0] - 1, _CHUNK


def _first_heading(kind: GameKind, state: State, events: list[dict[str, Any]]) -> int:
    """The index of the first event of ``events`` that begins a group (len if none)."""
    return next(
        (i for i, event in enumerate(events) if kind.log_heading(state, event) is not None),
        len(events),
    )


def _split(
    kind: GameKind, state: State, events: list[dict[str, Any]]
) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """``events`` cut at each heading: (the heading, or None for the part before the first
    one, and the events from it on)."""
    parts: list[tuple[str | None, list[dict[str, Any]]]] = [(None, [])]
    for event in events:
        heading = kind.log_heading(state, event)
        if heading is not None:
            parts.append((heading, []))
        parts[-1][1].append(event)
    # A record without events (a tap that revealed nothing) is still one part.
    return [(h, part) for h, part in parts if part] or [(None, [])]


def context(
    game: Game,
    state: State,
    seat: int | None,
    before: int | None = None,
    records_at_least: int = PAGE_RECORDS,
) -> dict[str, Any]:
    """What games/log_page.html shows: a page of the log, and whether its move numbers link
    to the replay (a finished game's)."""
    return {
        "game": game,
        "log_page": page(game, state, seat, before, records_at_least),
        "replay_links": game.status == Game.Status.FINISHED,
    }
