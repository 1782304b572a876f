"""Whole games of random-legal play, with invariant checks; and the speed benchmark."""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from games.core.bench import figures, one_core

from .engine import apply, deciders, legal_actions, new_game
from .errors import PositionError
from .options import Options
from .positions import check, from_json, to_json
from .random_player import choose
from .state import State
from .views import view

SECRET_KEYS = {"rng", "deck", "vp_deck", "seed"}


def invariants(st: State, seat_names: list[str] | None = None) -> list[str]:
    """Problems with a state, [] when it is sound (used by simulate --check and tests)."""
    problems = []
    try:
        check(st)
    except PositionError as e:
        problems.append(f"position: {e}")
    data = to_json(st)
    try:
        if to_json(from_json(json.loads(json.dumps(data)))) != data:
            problems.append("JSON round trip changed the state")
    except PositionError as e:
        problems.append(f"JSON round trip: {e}")
    for viewer in [None, *range(len(st.players))]:
        problems.extend(leaks(st, view(st, viewer), viewer))
    return problems


def leaks(st: State, v: Mapping[str, Any], viewer: int | None) -> list[str]:
    """Hidden information found in a view: other hands, the deck, the seed."""
    found = []
    text = json.dumps(v)
    for key in SECRET_KEYS:
        if f'"{key}"' in text:
            found.append(f"view for {viewer} has a {key!r} field")
    seen_ids = _card_ids(text)
    for q, ps in enumerate(st.players):
        if q == viewer:
            continue
        secret = set(ps.hand) - set(ps.known)
        # A secret hand card may also be visible elsewhere only if it is not: ids are unique.
        shown = secret & seen_ids
        if shown:
            found.append(f"view for {viewer} shows player {q}'s hand cards {sorted(shown)}")
    deck_shown = set(st.deck) & seen_ids
    if deck_shown:
        found.append(f"view for {viewer} shows deck cards {sorted(deck_shown)}")
    d = v.get("decision") if isinstance(v, dict) else None
    if st.simultaneous and isinstance(d, dict) and "player" in d:
        # Another seat's pending choice: only its owner's decision holds it.
        if viewer is None and {"picks", "chosen", "remaining"} & set(d):
            found.append("a spectator's view shows a pending setup choice")
        if viewer is not None and d["player"] != viewer:
            found.append(f"view for {viewer} shows another seat's setup decision")
    return found


_CARD_OBJECT = re.compile(r'"id": (\d+), "profession"')
_CARD_FIELD = re.compile(r'"card": (\d+)')
_CARD_LIST = re.compile(r'"(?:cards|picks)": \[([\d, ]*)\]')


def _card_ids(text: str) -> set[int]:
    """Every profession card id a view's JSON text mentions."""
    ids = {int(x) for x in _CARD_OBJECT.findall(text)}
    ids.update(int(x) for x in _CARD_FIELD.findall(text))
    for group in _CARD_LIST.findall(text):
        ids.update(int(x) for x in group.split(",") if x.strip())
    return ids


def run(
    players: int,
    games: int,
    rules: str,
    seed: int,
    advanced: bool = False,
    max_turns: int = 400,
    check_every: int = 0,
    out: Callable[[str], object] = print,
    setup: str = "sequential",
) -> dict[str, Any]:
    """``games`` random games; in a simultaneous setup the seats' choices interleave at
    random, a seat that has chosen sometimes changing its choice."""
    options = Options(players=players, rules=rules, advanced=advanced, setup=setup)
    names = [f"P{i + 1}" for i in range(players)]
    rand = random.Random(seed)
    decisions = 0
    turns = []
    ended = {"won": 0, "turn_limit": 0}
    violations = []
    start = time.perf_counter()
    for g in range(games):
        st = new_game(options, names, rand.getrandbits(64))
        n = 0
        while st.phase != "over" and st.turn <= max_turns:
            seat = _simultaneous_seat(st, rand) if st.simultaneous else None
            actions = legal_actions(st, seat)
            if not actions:
                violations.append(f"game {g}: no legal action at turn {st.turn}")
                break
            apply(st, choose(st, rand, actions), seat)
            n += 1
            if check_every and n % check_every == 0:
                violations.extend(f"game {g}: {p}" for p in invariants(st))
        decisions += n
        turns.append(st.turn)
        ended["won" if st.phase == "over" else "turn_limit"] += 1
        problems = invariants(st) if check_every else _end_check(st)
        violations.extend(f"game {g}: {p}" for p in problems)
    elapsed = time.perf_counter() - start
    summary = {
        "games": games,
        "seconds": round(elapsed, 2),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "decisions_per_game": round(decisions / games, 1),
        "turns_per_game": {
            "mean": round(statistics.mean(turns), 1),
            "min": min(turns),
            "max": max(turns),
        },
        "ended": ended,
        "violations": len(violations),
    }
    out(json.dumps(summary, indent=2))
    for v in violations[:20]:
        out(f"VIOLATION {v}")
    return {**summary, "violation_list": violations}


def _simultaneous_seat(st: State, rand: random.Random) -> int:
    """A seat to act in a simultaneous setup step: mostly one still choosing, sometimes
    one that has chosen (which then changes its choice)."""
    if rand.random() < 0.15:
        return rand.randrange(len(st.players))
    waiting = deciders(st)
    return waiting[rand.randrange(len(waiting))]


def _end_check(st: State) -> list[str]:
    try:
        check(st)
    except PositionError as e:
        return [f"position: {e}"]
    return []


def bench(
    seconds: float = 5.0, seed: int = 1, out: Callable[[str], object] = print
) -> dict[str, Any]:
    """Decisions/s (listing + apply), games/s, state JSON size and clone time, one core."""
    with one_core():
        return _bench(seconds, seed, out)


def _bench(seconds: float, seed: int, out: Callable[[str], object]) -> dict[str, Any]:
    rand = random.Random(seed)
    results = {}
    for players in (2, 4):
        options = Options(players=players)
        names = [f"P{i + 1}" for i in range(players)]
        decisions = games = 0
        samples = []
        listing = applying = 0.0
        deadline = time.perf_counter() + seconds
        t0 = time.perf_counter()
        while time.perf_counter() < deadline:
            st = new_game(options, names, rand.getrandbits(64))
            while st.phase != "over" and st.turn <= 400:
                a0 = time.perf_counter()
                actions = legal_actions(st)
                a1 = time.perf_counter()
                action = choose(st, rand, actions)
                a2 = time.perf_counter()
                apply(st, action)
                a3 = time.perf_counter()
                listing += a1 - a0
                applying += a3 - a2
                decisions += 1
                if decisions % 97 == 0:
                    samples.append(st.clone())
            games += 1
        results[f"{players}p"] = figures(
            decisions=decisions,
            engine_seconds=listing + applying,
            wall_seconds=time.perf_counter() - t0,
            games=games,
            samples=samples,
            to_json=to_json,
        )
    out(json.dumps(results, indent=2))
    return results


__all__ = ["bench", "invariants", "leaks", "run"]
