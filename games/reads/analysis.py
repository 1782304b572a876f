"""A finished game's analysis as its players read it (games.play.analysis computes it): each
seat's estimated chance of winning over the turns, as an inline SVG drawn on the server,
and the decisions that cost most, in the game's words.

Who sees it: the game's players, as they alone may show every hand on its replay
(docs/replays.md): a decision's words name the cards of its seat's hand. Nobody sees
anything of it before the game is over, and a game that is not finished answers as the
replay does (``NotFound``).

The words are made when read, in the reader's language: the stored analysis holds actions
(``games.core.analysis``), which the game names (``GameKind.action_words``) on the state
its seat decided on, rebuilt from the record (a replay, as the replay page does).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.models import User
from games.core import analysis as core
from games.core.match import Match
from games.core.protocol import State
from games.models import Analysis, Game, Move, Seat
from games.reads import cache_keys, replay
from games.reads.errors import NotFound
from games.reads.score_chart import SERIES_CLASSES, Frame, Scale, Tick, nice_ticks

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 38, 8, 8, 30  # as the score chart's, room for "100%"
MARKED_PER_SEAT = 3


def finished_game(game_id: int) -> Game:
    """The game, if it is finished: no analysis of any other exists, for anyone."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game"))
    if game.status != Game.Status.FINISHED:
        raise NotFound(_("This game is not finished: only finished games can be analysed."))
    return game


def player_seat(game: Game, user: User | AnonymousUser) -> int | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).values_list("number", flat=True).first()


def readable(game_id: int, user: User | AnonymousUser) -> tuple[Game, int]:
    """The finished game and the reader's seat; PermissionDenied for anyone not seated."""
    game = finished_game(game_id)
    seat = player_seat(game, user)
    if seat is None:
        raise PermissionDenied(_("Only the game's players may see its analysis."))
    return game, seat


def stored(game: Game) -> Analysis | None:
    return Analysis.objects.filter(game=game).first()


def stamp(game: Game) -> str:
    """Changes when what the analysis shows changes (a page's cache key)."""
    row = Analysis.objects.filter(game=game).values_list("status", "finished").first()
    if row is None:
        return "none"
    return f"{row[0]}:{row[1].isoformat() if row[1] else ''}"


# The words ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explained:
    """A judged decision in words: record ``step``, made on the position of replay step
    ``step - 1``."""

    step: int
    seat: int
    name: str
    turn: str  # the heading of its turn (the log's), "" before the first
    played: str
    best: str  # the strong player's choice
    before: float
    after: float
    mark: int = 0  # its number on the chart (0: not marked)

    @property
    def position(self) -> int:
        """The replay's step where it was decided."""
        return self.step - 1

    @property
    def gain(self) -> str:
        """What the strong player's choice would have added, in points of chance."""
        return _("+%(points)d%%") % {"points": round((self.before - self.after) * 100)}


def states_before(game: Game, steps: set[int]) -> dict[int, State]:
    """The state each record of ``steps`` was decided on (secrets: kept here only to name
    the actions of the seat that decided)."""
    if not steps:
        return {}
    kind = game.game_kind
    last = max(steps)
    rows = Move.objects.filter(game=game, number__lte=last).order_by("number")
    match = Match(kind, game.engine_options(), game.names, game.seed, (), game.rules)
    out = {}
    for number, (seat, action, rules) in enumerate(rows.values_list("seat", "action", "rules"), 1):
        if number in steps:
            out[number] = kind.clone(match.state)
        match.apply(action, seat, rules)
    return out


def turns(game: Game) -> list[replay.Turn]:
    """The game's turns as the log heads them (of the state, the headings read only the
    names and options: the dealt one serves)."""
    return replay.turns(game, replay.step_at(game, 0).state)


def explain(
    game: Game,
    decisions: list[core.Judged],
    marks: dict[int, int],
    turns: list[replay.Turn],
) -> list[Explained]:
    kind = game.game_kind
    states = states_before(game, {d.step for d in decisions})
    out = []
    for d in decisions:
        state = states[d.step]
        heading = next((t.heading for t in reversed(turns) if t.step < d.step), "")
        out.append(
            Explained(
                step=d.step,
                seat=d.seat,
                name=game.names[d.seat],
                turn=heading,
                played=kind.action_words(state, d.seat, d.played),
                best=kind.action_words(state, d.seat, d.best),
                before=d.before,
                after=d.after,
                mark=marks.get(d.step, 0),
            )
        )
    return out


def marked(result: core.Analysis, players: int, first: int) -> list[core.Judged]:
    """The few decisions of each seat that cost it most, seat by seat (``first``'s, the
    reader's, first), each seat's in the game's order: numbered so on the chart."""
    seats = sorted(range(players), key=lambda s: (s != first, s))
    return [d for s in seats for d in result.notable(s, MARKED_PER_SEAT)]


# The chart ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    seat: int
    name: str
    css: str
    points: str  # the polyline's "x,y x,y ..."


@dataclass(frozen=True)
class Mark:
    number: int
    x: float
    y: float
    css: str
    step: int


@dataclass(frozen=True)
class Chart(Frame):
    series: tuple[Series, ...]
    marks: tuple[Mark, ...]
    label: str


def chart(
    game: Game,
    result: core.Analysis,
    marks: dict[int, int],
    winners: set[int],
    turns: list[replay.Turn],
) -> Chart | None:
    """Each seat's chance after each of its judged decisions, placed in its turn (the
    turn's number, and how far into its records), to the end (1 for a winner, 0 else); the
    marked decisions as numbered points on their seat's line."""
    if not result.decisions:
        return None
    starts = [t.step for t in turns]
    total = game.version

    def at(step: int) -> float:
        # The decision of record ``step`` was made on position ``step - 1``: the turns
        # begun by then, and how far it is into the last of them.
        position = step - 1
        begun = bisect_right(starts, position)
        begin = starts[begun - 1] if begun else 0
        end = starts[begun] if begun < len(starts) else total
        return begun + (position - begin) / max(end - begin, 1)

    last = len(starts) + 1
    x_ticks = nice_ticks(0, last, most=6)
    x_scale = Scale(x_ticks[0], x_ticks[-1], LEFT, WIDTH - RIGHT)
    y_scale = Scale(0, 100, HEIGHT - BOTTOM, TOP)
    series = []
    for seat, name in enumerate(game.names):
        points = [(at(d.step), d.after) for d in result.of(seat)]
        if not points:
            continue
        points.append((at(total + 1), 1.0 if seat in winners else 0.0))
        xy = " ".join(f"{x_scale(x)},{y_scale(c * 100)}" for x, c in points)
        series.append(Series(seat, name, f"series-{seat % SERIES_CLASSES}", xy))
    chart_marks = tuple(
        Mark(
            number=number,
            x=x_scale(at(d.step)),
            y=y_scale(d.after * 100),
            css=f"mark-{d.seat % SERIES_CLASSES}",
            step=d.step,
        )
        for d in result.decisions
        if (number := marks.get(d.step))
    )
    label = _("Each player's estimated chance of winning over %(turns)d turns") % {
        "turns": len(starts)
    }
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        x_ticks=tuple(Tick(v, x_scale(v)) for v in x_ticks),
        y_ticks=tuple(Tick(v, y_scale(v)) for v in (0, 25, 50, 75, 100)),
        series=tuple(series),
        marks=chart_marks,
        label=label,
    )


# What a page or the API shows -----------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    status: str  # "none" (not asked for), "queued", "running", "ready"
    chart: Chart | None = None
    marked: tuple[Explained, ...] = ()
    complete: bool = True


def shown(game: Game, seat: int) -> Shown:
    """What the replay page shows a player of ``game`` (finished)."""
    row = stored(game)
    if row is None:
        return Shown("none")
    if row.status != Analysis.Status.READY:
        return Shown(row.status)
    result = core.Analysis.from_json(row.result)
    chosen = marked(result, len(game.names), seat)
    marks = {d.step: i for i, d in enumerate(chosen, 1)}
    winners = set(Seat.objects.filter(game=game, rank=1).values_list("number", flat=True))
    headed = turns(game)
    return Shown(
        row.status,
        chart=chart(game, result, marks, winners, headed),
        marked=tuple(explain(game, chosen, marks, headed)),
        complete=result.complete,
    )


def payload(game: Game, seat: int) -> dict[str, Any]:
    """The API's answer (games.api.serializers.AnalysisSerializer): every judged decision
    in words, in the language of the moment. Once ready it never changes: kept in the pages
    cache (naming a few hundred actions takes a second)."""
    row = stored(game)
    if row is None or row.status != Analysis.Status.READY:
        return {"status": "none" if row is None else row.status, "complete": True, "decisions": []}
    key = cache_keys.key("analysis", [game.pk, seat, stamp(game), get_language()])
    kept: dict[str, Any] | None = caches["pages"].get(key)
    if kept is None:
        kept = _ready_payload(game, row, seat)
        caches["pages"].set(key, kept, settings.PAGE_CACHE_SECONDS)
    return kept


def _ready_payload(game: Game, row: Analysis, seat: int) -> dict[str, Any]:
    result = core.Analysis.from_json(row.result)
    chosen = marked(result, len(game.names), seat)
    marks = {d.step: i for i, d in enumerate(chosen, 1)}
    decisions = [
        {
            "step": e.step,
            "seat": e.seat,
            "name": e.name,
            "turn": e.turn,
            "played": e.played,
            "best": e.best,
            "before": e.before,
            "after": e.after,
            "marked": e.mark,
        }
        for e in explain(game, list(result.decisions), marks, turns(game))
    ]
    return {"status": row.status, "complete": result.complete, "decisions": decisions}
