"""The geometry of a score chart (``games/score_chart.html``): a timeline made into the
coordinates of an inline SVG, drawn on the server.

The drawing is small (``WIDTH`` x ``HEIGHT`` user units) and scales to the width of its
column: at 375 px its text is about as large as the page's small print. Colours and line
patterns are classes (``series-0``...), styled by ``site/stats.css``: the site's
Content-Security-Policy forbids inline styles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from games.reads.stats import Timeline

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 30, 8, 8, 30  # margins: the axes' numbers and names
SERIES_CLASSES = 8  # stats.css styles series-0 to series-7; more seats reuse them


@dataclass(frozen=True)
class Tick:
    value: int
    at: float  # x or y in user units


@dataclass(frozen=True)
class Series:
    seat: int
    name: str
    css: str
    points: str  # the polyline's "x,y x,y ..."
    final: int


@dataclass(frozen=True)
class Row:
    turn: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Frame:
    """A chart's drawing area, axes and ticks (``games/chart_frame.html`` draws them):
    the score chart's and the analysis's."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]

    @property
    def x_label_y(self) -> float:
        return self.height - 4

    @property
    def x_tick_y(self) -> float:
        return self.bottom + 12

    @property
    def y_tick_x(self) -> float:
        return self.left - 4

    @property
    def mid_x(self) -> float:
        return (self.left + self.right) / 2


@dataclass(frozen=True)
class ScoreChart(Frame):
    series: tuple[Series, ...]
    rows: tuple[Row, ...]  # the table for screen readers: the same numbers
    names: tuple[str, ...]
    score_label: str
    turns: int
    label: str  # the svg's aria-label


def nice_ticks(low: int, high: int, most: int = 5) -> list[int]:
    """Round values from ``low`` to at least ``high``, 1-2-5 apart, fewer than ``most``
    intervals between them."""
    span = max(high - low, 1)
    step = 1
    for magnitude in (10**e for e in range(0, 10)):
        step = next((m * magnitude for m in (1, 2, 5) if span / (m * magnitude) < most), 0)
        if step:
            break
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + 1, step))


def build(timeline: Timeline) -> ScoreChart:
    points = timeline.points
    seats = range(len(timeline.names))
    values = [s for p in points for s in p.scores]
    y_ticks = nice_ticks(min(0, *values), max(1, *values))
    x_ticks = nice_ticks(0, timeline.turns, most=6)
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP  # y grows downwards: the lowest value at the bottom
    x_scale = Scale(x_ticks[0], x_ticks[-1], x0, x1)
    y_scale = Scale(y_ticks[0], y_ticks[-1], y0, y1)
    series = tuple(
        Series(
            seat=seat,
            name=timeline.names[seat],
            css=f"series-{seat % SERIES_CLASSES}",
            points=" ".join(f"{x_scale(p.turn)},{y_scale(p.scores[seat])}" for p in points),
            final=points[-1].scores[seat],
        )
        for seat in seats
    )
    finals = ", ".join(f"{s.name} {s.final}" for s in series)
    turns = timeline.turns
    # The game's word for its scores ("VP"), marked by the game, in the language of the moment.
    score_label = gettext(timeline.score_label) if timeline.score_label else ""
    label = ngettext(
        "%(label)s of each player over %(turns)d turn; at the end: %(finals)s",
        "%(label)s of each player over %(turns)d turns; at the end: %(finals)s",
        turns,
    ) % {"label": score_label, "turns": turns, "finals": finals}
    return ScoreChart(
        width=WIDTH,
        height=HEIGHT,
        left=x0,
        right=x1,
        top=y1,
        bottom=y0,
        x_ticks=tuple(Tick(v, x_scale(v)) for v in x_ticks),
        y_ticks=tuple(Tick(v, y_scale(v)) for v in y_ticks),
        series=series,
        rows=tuple(Row(p.turn, p.scores) for p in points),
        names=timeline.names,
        score_label=score_label,
        turns=turns,
        label=label[0].upper() + label[1:],
    )


@dataclass(frozen=True)
class Scale:
    """A value from [low, high] to user units in [start, end], rounded to 0.1."""

    low: int
    high: int
    start: float
    end: float

    def __call__(self, value: float) -> float:
        ratio = (value - self.low) / (self.high - self.low) if self.high != self.low else 0
        return round(self.start + ratio * (self.end - self.start), 1)
