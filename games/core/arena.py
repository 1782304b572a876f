"""Computer players against each other, for any game: win rates with their confidence,
and thinking time per decision and per turn.

``a`` takes one seat and ``b`` every other; game i puts ``a`` in seat i % players, so each
seat is played equally often. Each game is seeded from the game's name, the run's seed and
its index alone, so a run with an iteration budget gives the same figures however many
processes share it. A game's own ``arena`` module fills in a ``Contest`` and a picklable
``play_game(setup, index)`` for the process pool.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .bench import one_core
from .protocol import GameKind

# A level's choice: (state, seat, rand, setup) -> action.
Chooser = Callable[[Any, int, random.Random, "Setup"], dict[str, Any]]


@dataclass(frozen=True)
class Contest:
    """What the arena needs of a game."""

    kind: GameKind
    levels: Mapping[str, Chooser]  # weakest first
    # How far a game has gone (Guildhall's turns, Renaissance Man's rounds): a game still
    # going at ``Setup.max_length`` is a tie.
    length: Callable[[Any], int]
    # Names the turn a decision belongs to (with its seat): a turn's thinking time is the
    # sum of its decisions'.
    turn: Callable[[Any], Hashable]


@dataclass(frozen=True)
class Setup:
    a: str
    b: str
    players: int = 2
    games: int = 200
    seed: int = 1
    budget_ms: int | None = None  # the strong player's, per turn; None: its default
    iterations: int | None = None  # the strong player's, instead of a time budget
    max_length: int = 400  # turns or rounds (``Contest.length``)
    options: Mapping[str, Any] = field(default_factory=dict)  # the game's, as JSON


class SetupFields(TypedDict, total=False):
    """The fields of ``Setup`` that a game's ``make_setup`` passes on as they are."""

    players: int
    games: int
    seed: int
    budget_ms: int | None
    iterations: int | None


def play(contest: Contest, setup: Setup, index: int) -> dict[str, Any]:
    """One game. The thinking time per decision counts only decisions with more than one
    legal action (a forced move costs nothing at any level); a turn's counts them all."""
    kind = contest.kind
    for level in (setup.a, setup.b):
        if level not in contest.levels:
            raise ValueError(f"unknown level {level!r}: one of {', '.join(contest.levels)}")
    rand = random.Random(f"{kind.id}-arena:{setup.seed}:{index}")
    players = setup.players
    a_seat = index % players
    levels = [setup.a if q == a_seat else setup.b for q in range(players)]
    options = kind.parse_options(dict(setup.options), players)
    st = kind.new_state(options, [f"P{q + 1}" for q in range(players)], rand.getrandbits(64))
    rands = [random.Random(rand.getrandbits(64)) for _ in range(players)]
    ms: dict[str, list[float]] = {"a": [], "b": []}
    turns: dict[tuple[Hashable, int], float] = {}
    # What each side did, by the action's kind (how two levels play differently: more
    # recruits, fewer discards...).
    kinds: dict[str, Counter[str]] = {"a": Counter(), "b": Counter()}
    while kind.phase(st) != "over" and contest.length(st) <= setup.max_length:
        # In a step of simultaneous choices, the seats still choosing in seat order.
        seat = min(kind.deciders(st))
        forced = len(kind.legal_actions(st, seat)) == 1
        turn = (contest.turn(st), seat)
        start = time.perf_counter()
        action = contest.levels[levels[seat]](st, seat, rands[seat], setup)
        spent = (time.perf_counter() - start) * 1000
        side = "a" if seat == a_seat else "b"
        if not forced:
            ms[side].append(spent)
        turns[turn] = turns.get(turn, 0.0) + spent
        kinds[side][str(action["kind"])] += 1
        kind.apply(st, seat, action)
    winner = None
    if kind.phase(st) == "over":
        result = kind.result(st)
        assert result is not None  # a game over has its result
        first = {row["seat"] for row in result if row["rank"] == 1}
        if first == {a_seat}:
            winner = "a"
        elif a_seat not in first:
            winner = "b"  # a shared win of ``a`` with a ``b`` seat is a tie
    turn_ms = {
        "a": [t for (_, q), t in turns.items() if q == a_seat],
        "b": [t for (_, q), t in turns.items() if q != a_seat],
    }
    return {
        "index": index,
        "a_seat": a_seat,
        "winner": winner,
        "over": kind.phase(st) == "over",  # else cut at ``max_length``
        "length": contest.length(st),
        "ms": ms,
        "turn_ms": turn_ms,
        "actions": {side: dict(counts) for side, counts in kinds.items()},
    }


def run(
    play_game: Callable[[Setup, int], dict[str, Any]],
    setup: Setup,
    jobs: int = 1,
    length: str = "turns",
) -> dict[str, Any]:
    """Every game of ``setup``, summed up (``play_game`` must be picklable for ``jobs`` >
    1; ``length`` names what ``Contest.length`` counts)."""
    started = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context().Pool(jobs) as pool:
            args = [(setup, i) for i in range(setup.games)]
            games = pool.starmap(play_game, args, chunksize=1)
    else:
        games = [play_game(setup, i) for i in range(setup.games)]
    return summary(setup, games, time.perf_counter() - started, length)


def summary(
    setup: Setup, games: list[dict[str, Any]], seconds: float, length: str = "turns"
) -> dict[str, Any]:
    n = len(games)
    a_wins = sum(g["winner"] == "a" for g in games)
    b_wins = sum(g["winner"] == "b" for g in games)
    lo, hi = wilson(a_wins, n)
    return {
        "a": setup.a,
        "b": setup.b,
        "players": setup.players,
        "games": n,
        "seed": setup.seed,
        "budget_ms": setup.budget_ms,
        "iterations": setup.iterations,
        "a_wins": a_wins,
        "b_wins": b_wins,
        "ties": n - a_wins - b_wins,  # not over after max_length, or a shared win
        # Still going at max_length: the computers' choices must end every game (issue 49).
        "capped": sum(not g.get("over", True) for g in games),
        "a_win_rate": round(a_wins / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "ms_per_decision": {
            side: times([t for g in games for t in g["ms"][side]]) for side in ("a", "b")
        },
        "s_per_turn": {
            side: times([t / 1000 for g in games for t in g["turn_ms"][side]], key="turns")
            for side in ("a", "b")
        },
        f"{length}_per_game": round(statistics.mean(g["length"] for g in games), 1) if n else 0.0,
        "actions_per_game": actions_per_game(games, setup.players),
        "seconds": round(seconds, 1),
    }


def actions_per_game(games: list[dict[str, Any]], players: int) -> dict[str, dict[str, float]]:
    """The actions one seat of each side took in a game, on average, by kind (``b``'s
    summed over its seats and divided by their number)."""
    out: dict[str, dict[str, float]] = {}
    for side, seats in (("a", 1), ("b", players - 1)):
        total: Counter[str] = Counter()
        for g in games:
            total.update(g["actions"][side])
        share = len(games) * seats
        out[side] = {kind: round(total[kind] / share, 2) for kind in sorted(total)} if share else {}
    return out


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (better than p ± 1.96 s.e. near 0
    and 1 and for few games)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def times(values: list[float], key: str = "decisions", percentile: int = 99) -> dict[str, Any]:
    """How many, the median, the ``percentile`` (as "p99", "p90", ...) and max, rounded."""
    name = f"p{percentile}"
    if not values:
        return {key: 0, "median": 0.0, name: 0.0, "max": 0.0}
    high = values[0]
    if len(values) > 1:
        high = statistics.quantiles(values, n=100, method="inclusive")[percentile - 1]
    return {
        key: len(values),
        "median": round(statistics.median(values), 3),
        name: round(high, 3),
        "max": round(max(values), 3),
    }


def main(
    play_game: Callable[[Setup, int], dict[str, Any]],
    setup: Setup,
    jobs: int,
    length: str = "turns",
    out: Callable[[str], object] = print,
) -> dict[str, Any]:
    result = run(play_game, setup, jobs, length)
    out(json.dumps(result, indent=2))
    return result


def bench_strong(
    play_game: Callable[[Setup, int], dict[str, Any]],
    setup: Setup,
    length: str = "turns",
    out: Callable[[str], object] = print,
) -> dict[str, Any]:
    """The thinking time of ``setup.a`` (the strong computer, with the site's budget) on
    one core, game after game: seconds per turn and per decision, median, p90 and max."""
    with one_core():
        started = time.perf_counter()
        games = [play_game(setup, i) for i in range(setup.games)]
        seconds = time.perf_counter() - started
    turns = [t / 1000 for g in games for t in g["turn_ms"]["a"]]
    decisions = [t / 1000 for g in games for t in g["ms"]["a"]]
    result = {
        "level": setup.a,
        "against": setup.b,
        "players": setup.players,
        "games": len(games),
        "budget_ms_per_turn": setup.budget_ms,
        "a_wins": sum(g["winner"] == "a" for g in games),
        "s_per_turn": times(turns, "turns", percentile=90),
        "s_per_decision": times(decisions, "decisions", percentile=90),
        f"{length}_per_game": round(statistics.mean(g["length"] for g in games), 1),
        "seconds": round(seconds, 1),
    }
    out(json.dumps(result, indent=2))
    return result
