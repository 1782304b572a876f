"""Whole games of random-legal play with invariant checks, and the speed benchmark."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from games.core import Match
from games.core.bench import figures, one_core

from . import engine, pyramid
from .game import RENAISSANCE
from .positions import from_json, to_json
from .random_player import choose
from .state import State
from .views import view

SECRET_KEYS = ("rng", "deck", "discard", "seed", "picks")


def others_blank(st: State, viewer: int | None) -> State:
    """``st`` with every other seat's unrevealed submission replaced by a neutral one of
    the same status (submitted or not): the viewer's view must not change."""
    other = st.clone()
    for q, p in enumerate(other.players):
        if q == viewer:
            continue
        stage = other.stage
        if stage == "foundation":
            p.picks = [0, 1, 2, 3, 4] if p.done else []
        elif stage == "action":
            p.picks = []
            p.choice = {"kind": "pass"} if p.done else None
        elif stage == "rm" and p.picks and p.choice is not None:
            p.choice = pyramid.where(pyramid.open_positions(p.cells)[0])
        elif stage == "discard":
            p.picks = []
    return other


def invariants(st: State, scan: bool = True) -> list[str]:
    """Problems with a state, [] when it is sound: conservation of every card (the loading
    check), the JSON round trip, and no other seat's pending choice in any view (``scan``:
    also no secret field in a view's JSON text, the slowest check)."""
    problems = []
    data = to_json(st)
    try:
        if to_json(from_json(json.loads(json.dumps(data)))) != data:
            problems.append("the JSON round trip changed the state")
    except ValueError as error:
        problems.append(f"position: {error}")
    for viewer in [None, *st.seats]:
        seen = view(st, viewer)
        if seen != view(others_blank(st, viewer), viewer):
            problems.append(f"the view of {viewer} shows another seat's pending choice")
        if not scan:
            continue
        text = json.dumps(seen)
        problems.extend(
            f"the view of {viewer} has a {key!r} field"
            for key in SECRET_KEYS
            if f'"{key}":' in text
        )
    return problems


def play(
    players: int, seed: int, rand: random.Random, max_rounds: int, check: bool
) -> tuple[State, list[dict[str, Any]], list[str], float]:
    """One game of random-legal play: (state, record, decisions, problems, engine seconds)."""
    options = RENAISSANCE.parse_options(None, players)
    names = [f"P{i + 1}" for i in range(players)]
    st = engine.new_game(options, names, seed)
    record: list[dict[str, Any]] = []
    problems: list[str] = []
    busy = 0.0
    while st.stage != "over" and st.round <= max_rounds:
        t0 = time.perf_counter()
        waiting = engine.deciders(st)
        if not waiting:
            problems.append(f"nobody decides at round {st.round}, stage {st.stage}")
            break
        seat = min(waiting) if len(waiting) == 1 else rand.choice(sorted(waiting))
        actions = engine.legal_actions(st, seat)
        if not actions:
            problems.append(f"seat {seat} decides with no legal action at round {st.round}")
            break
        action = choose(st, seat, rand, actions)
        engine.apply(st, seat, action)
        busy += time.perf_counter() - t0
        record.append({"player": seat, "action": action})
        if check:
            problems.extend(invariants(st, scan=len(record) % 25 == 0))
    if check:
        replayed = Match(RENAISSANCE, options, names, seed, record).state
        if replayed != st:
            problems.append("replaying the record gave another state")
    return st, record, problems, busy


def run(
    players: int,
    games: int,
    seed: int,
    max_rounds: int = 300,
    check_every: int = 1,
    out: Callable[[str], object] = print,
) -> dict[str, Any]:
    """``games`` random games; with ``check_every`` (1: every game) every invariant after
    every action of that game. decisions_per_s counts the engine's time only (listing,
    choosing and applying), not the checks."""
    rand = random.Random(seed)
    rounds: list[int] = []
    decisions = 0
    violations: list[str] = []
    ended = {"master": 0, "deck_out": 0, "resigned": 0, "round_limit": 0}
    busy = 0.0
    start = time.perf_counter()
    for g in range(games):
        check = bool(check_every) and g % check_every == 0
        st, record, problems, spent = play(players, rand.getrandbits(63), rand, max_rounds, check)
        busy += spent
        decisions += len(record)
        rounds.append(st.round)
        if st.stage == "over":
            master = any(p.cells[pyramid.MASTER] is not None for p in st.players)
            reason = "master" if master else "deck_out"
            ended[reason] += 1
        else:
            ended["round_limit"] += 1
        violations.extend(f"game {g}: {p}" for p in problems)
    elapsed = time.perf_counter() - start
    summary = {
        "games": games,
        "seconds": round(elapsed, 2),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / busy) if busy else 0,
        "decisions_per_game": round(decisions / games, 1),
        "rounds_per_game": {
            "mean": round(statistics.mean(rounds), 1),
            "min": min(rounds),
            "max": max(rounds),
        },
        "ended": ended,
        "violations": len(violations),
    }
    out(json.dumps(summary, indent=2))
    for v in violations[:20]:
        out(f"VIOLATION {v}")
    return {**summary, "violation_list": violations}


def bench(
    seconds: float = 5.0, seed: int = 1, out: Callable[[str], object] = print
) -> dict[str, Any]:
    """Decisions/s (listing + applying, the random choice excluded), state JSON size and
    clone time, pinned to one core."""
    with one_core():
        return _bench(seconds, seed, out)


def _bench(seconds: float, seed: int, out: Callable[[str], object]) -> dict[str, Any]:
    rand = random.Random(seed)
    results = {}
    for players in (1, 2, 4):
        names = [f"P{i + 1}" for i in range(players)]
        decisions = games = 0
        samples: list[State] = []
        engine_time = 0.0
        deadline = time.perf_counter() + seconds / 3
        t0 = time.perf_counter()
        while time.perf_counter() < deadline:
            st = engine.new_game(None, names, rand.getrandbits(63))
            while st.stage != "over" and st.round <= 300:
                a0 = time.perf_counter()
                waiting = engine.deciders(st)
                seat = min(waiting)
                actions = engine.legal_actions(st, seat)
                a1 = time.perf_counter()
                action = choose(st, seat, rand, actions)
                a2 = time.perf_counter()
                engine.apply(st, seat, action)
                engine_time += (a1 - a0) + (time.perf_counter() - a2)
                decisions += 1
                if decisions % 53 == 0:
                    samples.append(st.clone())
            games += 1
        results[f"{players}p"] = figures(
            decisions=decisions,
            engine_seconds=engine_time,
            wall_seconds=time.perf_counter() - t0,
            games=games,
            samples=samples,
            to_json=to_json,
        )
    out(json.dumps(results, indent=2))
    return results


__all__ = ["bench", "invariants", "others_blank", "play", "run"]
