"""Statistics: a finished game's scores over its turns, and a player's record and pace.

Both are read from what is stored, never from a state's secrets:

- The score timeline replays a finished game's record once (``core.match.Match``) and reads
  every seat's score from the spectator's view (``kind.view(state, None)`` then
  ``kind.scores``): what anyone watching could have known at that moment. A finished game
  never changes, so the timeline is kept in the "pages" cache under the game's id (and the
  build, like the pages: a new engine may score differently).
- A profile's numbers are aggregated by the database in two queries, whatever the number of
  games.

The definitions are in docs/statistics.md.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db.models import (
    Avg,
    Count,
    DurationField,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games.core import GameKind, Match, registry
from games.core.protocol import Options
from games.models import Game, Move, Seat
from games.reads import cache_keys

# A chart stays readable on a phone with up to this many points: a longer game is sampled.
MAX_POINTS = 150


# The score timeline ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """Every seat's score after ``turn`` turns (0: the start), as of record ``move``."""

    turn: int
    move: int
    scores: tuple[int, ...]  # by seat


@dataclass(frozen=True)
class Timeline:
    names: tuple[str, ...]  # by seat
    score_label: str
    points: tuple[Point, ...]

    @property
    def turns(self) -> int:
        return self.points[-1].turn


def score_timeline(game: Game) -> Timeline | None:
    """The scores of a finished game after each turn, from the cache or replayed; None for
    a game that is not finished or whose kind keeps no scores."""
    if game.status != Game.Status.FINISHED:
        return None
    key = cache_keys.key("score-timeline", [game.pk])
    cached = caches["pages"].get(key)
    if cached is not None:
        return _from_plain(cached) if cached else None
    records = [
        m.record() for m in Move.objects.filter(game=game).order_by("number").only(*Move.RECORD)
    ]
    timeline = build_timeline(
        game.game_kind, game.engine_options(), game.names, game.seed, records, game.rules
    )
    # {}: the game keeps no scores (remembered too, not replayed again).
    plain = _to_plain(timeline) if timeline is not None else {}
    caches["pages"].set(key, plain, settings.PAGE_CACHE_SECONDS)
    return timeline


def build_timeline(
    kind: GameKind,
    options: Options,
    names: list[str],
    seed: int,
    records: list[dict[str, Any]],
    rules: int | None = None,
) -> Timeline | None:
    """Replay ``records`` once and take the spectator's scores at the start, at the start of
    every turn and at the end.

    A turn starts when the game begins waiting for a seat that it was not waiting for (the
    turn passed on; a round of simultaneous choices closed and everyone chooses again) or
    when the game's step changes. A seat's several records within its turn (steps, undos),
    and the other seats' choices of the same round, make no point of their own.
    """
    match = Match(kind, options, names, seed, rules=rules)  # the rules the game began with
    seats = range(len(names))

    def scores_now() -> tuple[int, ...] | None:
        scores = kind.scores(kind.view(match.state, None))
        return tuple(scores.get(s, 0) for s in seats) if scores else None

    first = scores_now()
    if first is None:
        return None  # the game keeps no scores
    points = [Point(0, 0, first)]
    deciders = kind.deciders(match.state)
    step: Hashable = kind.step(match.state)
    for number, entry in enumerate(records, start=1):
        match.apply(entry["action"], entry["player"], entry.get("rules"))
        now, now_step = kind.deciders(match.state), kind.step(match.state)
        if now - deciders or now_step != step:
            points.append(Point(len(points), number, scores_now() or first))
        deciders, step = now, now_step
    if points[-1].move != len(records):
        points.append(Point(len(points), len(records), scores_now() or first))
    return Timeline(tuple(names), kind.score_label, _sample(points, MAX_POINTS))


def _sample(points: list[Point], limit: int) -> tuple[Point, ...]:
    """At most ``limit`` points evenly spread over the turns, the first and last kept."""
    if len(points) <= limit:
        return tuple(points)
    last = len(points) - 1
    picks = sorted({round(i * last / (limit - 1)) for i in range(limit)})
    return tuple(points[i] for i in picks)


def _to_plain(timeline: Timeline) -> dict[str, Any]:
    # Plain data in the cache: nothing that a changed class could fail to unpickle.
    return {
        "names": list(timeline.names),
        "score_label": timeline.score_label,
        "points": [[p.turn, p.move, list(p.scores)] for p in timeline.points],
    }


def _from_plain(data: dict[str, Any]) -> Timeline:
    return Timeline(
        tuple(data["names"]),
        data["score_label"],
        tuple(Point(t, m, tuple(s)) for t, m, s in data["points"]),
    )


# A player's statistics ------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """Finished games: how many, how many won (rank 1, ties included), the mean place."""

    played: int = 0
    won: int = 0
    places: int = 0  # the sum of the places (ranks), for the mean
    placed: int = 0  # the games with a place

    @property
    def average_place(self) -> float | None:
        return self.places / self.placed if self.placed else None

    @property
    def won_percent(self) -> int | None:
        return round(100 * self.won / self.played) if self.played else None

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.played + other.played,
            self.won + other.won,
            self.places + other.places,
            self.placed + other.placed,
        )


@dataclass(frozen=True)
class PlayerStats:
    total: Tally
    by_game: tuple[tuple[str, Tally], ...]  # (the game's name, its tally), most played first
    by_players: tuple[tuple[int, Tally], ...]  # (the number of players, its tally)
    timed_moves: int  # the moves the times are measured on
    average_move: timedelta | None
    longest_move: timedelta | None

    @property
    def average_move_label(self) -> str:
        return duration_label(self.average_move)

    @property
    def longest_move_label(self) -> str:
        return duration_label(self.longest_move)


def duration_label(duration: timedelta | None) -> str:
    """A time to move in the two largest units that matter: "2 days 3 hours", "5 minutes"."""
    if duration is None:
        return ""
    minutes = int(duration.total_seconds() // 60)
    if minutes < 1:
        return gettext("less than a minute")
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    units = [(days, _days), (hours, _hours), (minutes, _minutes)]
    first = next(i for i, (n, _words) in enumerate(units) if n)
    shown = [(n, words) for n, words in units[first : first + 2] if n]
    return " ".join(words(n) for n, words in shown)


def _days(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def _hours(n: int) -> str:
    return ngettext("%(n)d hour", "%(n)d hours", n) % {"n": n}


def _minutes(n: int) -> str:
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def player_stats(user: User) -> PlayerStats:
    """``user``'s finished games (cancelled ones left out) per game and per number of
    players, and the time they take to move (``move_times``). Two queries."""
    players = (
        Seat.objects.filter(game=OuterRef("game"))
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .annotate(players=Subquery(players, output_field=IntegerField()))
        .order_by()
        .values("game__kind", "players")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(rank=1)),
            places=Coalesce(Sum("rank"), 0),
            placed=Count("rank"),
        )
    )
    by_game: dict[str, Tally] = {}
    by_players: dict[int, Tally] = {}
    for row in rows:
        tally = Tally(row["played"], row["won"], row["places"], row["placed"])
        by_game[row["game__kind"]] = by_game.get(row["game__kind"], Tally()) + tally
        by_players[row["players"]] = by_players.get(row["players"], Tally()) + tally
    total = sum(by_game.values(), Tally())
    times = move_times(user)
    return PlayerStats(
        total=total,
        by_game=tuple(
            (_game_name(kind), tally)
            for kind, tally in sorted(by_game.items(), key=lambda kv: (-kv[1].played, kv[0]))
        ),
        by_players=tuple(sorted(by_players.items())),
        timed_moves=times["moves"],
        average_move=times["average"],
        longest_move=times["longest"],
    )


def _game_name(kind: str) -> str:
    try:
        return registry.get(kind).name
    except registry.UnknownGame:  # a game no longer offered: its rows remain
        return kind


def move_times(user: User) -> dict[str, Any]:
    """How long ``user`` takes to move, over every game they play or played: for each turn
    (a part of the game as its log heads it: a Guildhall turn, a Renaissance Man phase) in
    which they moved, how long the game had waited for them when they made their first
    move of it (``Move.waited``). Moves the computer made for them, undos and concessions
    have no time and are not counted; further moves of the same turn are not counted again.
    Records from before turns were kept (``turn`` None) count each on its own."""
    earlier = Move.objects.filter(
        game=OuterRef("game"),
        seat=OuterRef("seat"),
        turn=OuterRef("turn"),
        number__lt=OuterRef("number"),
        waited__isnull=False,
    )
    moves = Move.objects.filter(
        waited__isnull=False, game__seats__user=user, game__seats__number=F("seat")
    ).filter(~Exists(earlier))
    return moves.aggregate(
        moves=Count("pk"),
        average=Avg("waited", output_field=DurationField()),
        longest=Max("waited"),
    )
