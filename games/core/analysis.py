"""The explanation of a finished game, written once for every game: for each decision of
each seat, what the strong player would have chosen from what that seat knew then, and how
the choice played changed the seat's estimated chance of winning.

The record is replayed (``Match``, undos included); at each decision of a seat with a real
choice the game's strong search runs (``GameKind.analysis_search``) from that seat's
information alone: the search imagines everything the seat could not see anew at every
iteration (``ismcts.SearchGame.imagine``), so the real hidden cards never decide anything.
The root's children give the estimates: ``before`` is the mean reward of the action the
search prefers (the seat's chance if it plays as the strong player would), ``after`` that
of the action played (its chance as it played). A decision later undone is left out, and
so is one whose action the search does not consider (taking back a pick): nothing to
compare.

The budget is bounded (``Budget``): at most ``iterations`` a decision, and ``seconds`` for
the whole game; when the time would run short, each decision left gets its share of the
time left at the pace measured so far (never fewer than ``least`` iterations), and when it
has run out the analysis stops there (``complete`` false). Each decision's search draws
from its own generator, seeded by ``search_seed`` and the record's number: the same seed
gives the same analysis. Pure Python, no Django.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .ismcts import freeze
from .match import RESIGN, UNDO, Match
from .protocol import GameKind, Options, State

# A decision whose choice cost at least this much of the seat's chance may be marked.
NOTABLE = 0.02


@dataclass(frozen=True)
class Budget:
    iterations: int  # of search per decision, at most
    seconds: float  # for the whole game
    least: int = 16  # per decision, however short the time


@dataclass(frozen=True)
class Judged:
    """One decision of a seat, judged from what it knew: record ``step`` (the decision was
    made on the state after ``step - 1`` records)."""

    step: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]  # the strong player's choice
    before: float  # the seat's estimated chance had it chosen ``best``
    after: float  # its estimated chance with the action played
    iterations: int

    @property
    def change(self) -> float:
        """How the choice played changed the seat's chance (negative: it lost some)."""
        return self.after - self.before


@dataclass(frozen=True)
class Analysis:
    decisions: tuple[Judged, ...]
    complete: bool  # every decision was judged within the budget
    seconds: float  # spent
    iterations: int  # spent, in all
    left_out: int = 0  # decisions the time left no budget for

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": [asdict(d) for d in self.decisions],
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "iterations": self.iterations,
            "left_out": self.left_out,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Analysis:
        return cls(
            decisions=tuple(Judged(**d) for d in data["decisions"]),
            complete=data["complete"],
            seconds=data["seconds"],
            iterations=data["iterations"],
            left_out=data.get("left_out", 0),
        )

    def of(self, seat: int) -> list[Judged]:
        return [d for d in self.decisions if d.seat == seat]

    def notable(self, seat: int, count: int = 3) -> list[Judged]:
        """The few decisions of ``seat`` whose choice cost it most, in the game's order."""
        costly = [d for d in self.of(seat) if d.change <= -NOTABLE]
        costly.sort(key=lambda d: (d.change, d.step))
        return sorted(costly[:count], key=lambda d: d.step)


@dataclass
class _Decision:
    step: int
    seat: int
    state: State = field(repr=False)
    action: dict[str, Any]


def decisions(
    kind: GameKind,
    options: Options,
    names: list[str],
    seed: int,
    record: Iterable[Mapping[str, Any]],
    rules: int | None = None,
) -> list[_Decision]:
    """The decisions of the record that gave a seat a choice, each with a copy of the state
    it was made on (secrets included: only ``judge`` reads it, through the search)."""
    match = Match(kind, options, names, seed, (), rules)
    out: list[_Decision] = []
    for step, entry in enumerate(record, 1):
        seat, action = entry["player"], entry["action"]
        state = match.state
        if action["kind"] == UNDO:
            # The seat's last decision is taken back: nothing of it stays in the game.
            mine = [i for i, d in enumerate(out) if d.seat == seat]
            if mine:
                del out[mine[-1]]
        elif (
            action["kind"] != RESIGN
            and seat in kind.deciders(state)
            and len(kind.legal_actions(state, seat)) > 1
        ):
            out.append(_Decision(step, seat, kind.clone(state), action))
        match.apply(action, seat, entry.get("rules"))
    return out


def judge(
    kind: GameKind,
    state: State,
    seat: int,
    action: dict[str, Any],
    step: int,
    rand: random.Random,
    iterations: int,
) -> Judged | None:
    """``seat``'s ``action`` in ``state`` judged by the strong player's search; None when
    there was nothing to judge (one action only, every action alike, or the action played
    is one the search does not consider)."""
    result = kind.analysis_search(kind.clone(state), seat, rand, iterations)
    if result.why != "searched":
        return None
    key = freeze(action)
    played = next((c for c in result.children if freeze(c[0]) == key), None)
    best = next(c for c in result.children if freeze(c[0]) == freeze(result.action))
    if played is None or not played[1]:
        return None
    return Judged(
        step=step,
        seat=seat,
        played=action,
        best=result.action,
        before=round(best[2], 4),
        after=round(played[2], 4),
        iterations=result.iterations,
    )


def decision_rand(search_seed: object, step: int) -> random.Random:
    return random.Random(f"analysis:{search_seed}:{step}")


def analyse(
    kind: GameKind,
    options: Options,
    names: list[str],
    seed: int,
    record: Iterable[Mapping[str, Any]],
    budget: Budget,
    *,
    rules: int | None = None,
    search_seed: object = 0,
    clock: Callable[[], float] = time.monotonic,
) -> Analysis:
    """Every decision of the game judged within ``budget``."""
    start = clock()
    deadline = start + budget.seconds
    pending = decisions(kind, options, names, seed, record, rules)
    judged: list[Judged] = []
    spent = 0  # iterations
    searching = 0.0  # seconds spent searching
    for i, d in enumerate(pending):
        now = clock()
        left = deadline - now
        if left <= 0:
            return Analysis(tuple(judged), False, now - start, spent, len(pending) - i)
        iterations = budget.iterations
        if spent and searching > 0:
            # This decision's share of the time left, at the pace so far.
            share = spent / searching * left / (len(pending) - i)
            iterations = min(iterations, max(budget.least, int(share)))
        rand = decision_rand(search_seed, d.step)
        result = judge(kind, d.state, d.seat, d.action, d.step, rand, iterations)
        searching += clock() - now
        if result is not None:
            judged.append(result)
            spent += result.iterations
    return Analysis(tuple(judged), True, clock() - start, spent)


__all__ = [
    "NOTABLE",
    "Analysis",
    "Budget",
    "Judged",
    "analyse",
    "decision_rand",
    "decisions",
    "judge",
]
