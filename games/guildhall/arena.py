"""Computer players against each other: win rates with their confidence, and thinking time.

``a`` takes one seat and ``b`` every other; game i puts ``a`` in seat i % players, so each
seat is played equally often. Each game is seeded from the run's seed and its index alone,
so a run with an iteration budget gives the same figures however many processes share it.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass
from functools import partial

from . import bot, easy, random_player, search
from .engine import apply, decision_player, legal_actions, new_game
from .options import Options
from .state import State

LEVELS = ("random", "easy", "normal", "strong")


@dataclass(frozen=True)
class Setup:
    a: str
    b: str
    players: int = 2
    games: int = 200
    seed: int = 1
    budget_ms: int | None = None  # the strong player's; None: its default
    iterations: int | None = None  # the strong player's, instead of a time budget
    rules: str = "yucata"
    setup: str = "sequential"  # or "simultaneous": every seat sets up at once
    max_turns: int = 400  # a game still going then counts as a tie

    def __post_init__(self) -> None:
        for level in (self.a, self.b):
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


def choose(setup: Setup, level: str, st: State, seat: int, rand: random.Random) -> dict:
    if level == "random":
        return random_player.choose(st, rand, seat=seat)
    if level == "easy":
        return easy.choose(st, rand, seat=seat)
    if level == "normal":
        return bot.choose(st, rand, seat=seat)
    return search.choose(st, seat, rand, budget_ms=setup.budget_ms, iterations=setup.iterations)


def play_game(setup: Setup, index: int) -> dict:
    """One game; the thinking time counts only decisions with more than one legal action
    (a forced move costs nothing at any level)."""
    rand = random.Random(f"guildhall-arena:{setup.seed}:{index}")
    players = setup.players
    a_seat = index % players
    levels = [setup.a if q == a_seat else setup.b for q in range(players)]
    options = Options(players=players, rules=setup.rules, setup=setup.setup)
    st = new_game(options, [f"P{q + 1}" for q in range(players)], rand.getrandbits(64))
    rands = [random.Random(rand.getrandbits(64)) for _ in range(players)]
    ms: dict[str, list[float]] = {"a": [], "b": []}
    while st.phase != "over" and st.turn <= setup.max_turns:
        # In a simultaneous setup, the seats still choosing in seat order.
        seat = decision_player(st)
        forced = len(legal_actions(st, seat)) == 1
        start = time.perf_counter()
        action = choose(setup, levels[seat], st, seat, rands[seat])
        if not forced:
            ms["a" if seat == a_seat else "b"].append((time.perf_counter() - start) * 1000)
        apply(st, action, seat)
    winner = None
    if st.phase == "over":
        winner = "a" if st.result[0]["seat"] == a_seat else "b"
    return {"index": index, "a_seat": a_seat, "winner": winner, "turns": st.turn, "ms": ms}


def run(setup: Setup, jobs: int = 1) -> dict:
    started = time.perf_counter()
    one = partial(play_game, setup)
    if jobs > 1:
        with multiprocessing.get_context().Pool(jobs) as pool:
            games = pool.map(one, range(setup.games), chunksize=1)
    else:
        games = [one(i) for i in range(setup.games)]
    return summary(setup, games, time.perf_counter() - started)


def summary(setup: Setup, games: list[dict], seconds: float) -> dict:
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
        "ties": n - a_wins - b_wins,  # games not over after max_turns
        "a_win_rate": round(a_wins / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "ms_per_decision": {
            side: _times([t for g in games for t in g["ms"][side]]) for side in ("a", "b")
        },
        "turns_per_game": round(statistics.mean(g["turns"] for g in games), 1) if n else 0.0,
        "seconds": round(seconds, 1),
    }


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


def _times(ms: list[float]) -> dict:
    if not ms:
        return {"decisions": 0, "median": 0.0, "p99": 0.0, "max": 0.0}
    p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
    return {
        "decisions": len(ms),
        "median": round(statistics.median(ms), 2),
        "p99": round(p99, 2),
        "max": round(max(ms), 2),
    }


def main(setup: Setup, jobs: int, out=print) -> dict:
    result = run(setup, jobs)
    out(json.dumps(result, indent=2))
    return result
