"""Computer players against each other, for any game: win rates with their confidence,
and thinking time per decision and per turn.

``a`` takes one seat and ``b`` every other; game i puts ``a`` in seat i % players, so each
seat is played equally often. Each game is seeded from the game's name, the run's seed and
its index alone, so a run with an iteration budget gives the same figures however many
processes share it. A game's own ``arena`` module fills in a ``Contest`` and a picklable
``play_game(setup, index)`` for the process pool.
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping
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
    first: int = 0,
    record: str | None = None,
) -> dict[str, Any]:
    """Games ``first`` to ``first + setup.games - 1`` of ``setup``, summed up (``play_game``
    must be picklable for ``jobs`` > 1; ``length`` names what ``Contest.length`` counts).

    With ``record``, a JSON-lines file, each game is written there as it ends, and a game
    the file already holds for this setup is read back instead of played: a long run can be
    stopped and taken up again, or played in ranges (``first``) by several processes, and
    its file summed up at the end. ValueError if the file holds games of another setup."""
    started = time.perf_counter()
    indices = range(first, first + setup.games)
    games = _recorded(record, setup, indices) if record else {}
    todo = [i for i in indices if i not in games]
    fields = _setup_fields(setup)
    for game in _played(play_game, setup, todo, jobs):
        games[game["index"]] = game
        if record:
            with open(record, "a", encoding="utf-8") as file:
                file.write(json.dumps({"setup": fields, **game}) + "\n")
    return summary(setup, [games[i] for i in indices], time.perf_counter() - started, length)


@dataclass(frozen=True)
class _Game:
    """``play_game`` for one setup, as one picklable callable of the game's index."""

    play_game: Callable[[Setup, int], dict[str, Any]]
    setup: Setup

    def __call__(self, index: int) -> dict[str, Any]:
        return self.play_game(self.setup, index)


def _played(
    play_game: Callable[[Setup, int], dict[str, Any]], setup: Setup, todo: list[int], jobs: int
) -> Iterator[dict[str, Any]]:
    """The games of ``todo``, each as it ends."""
    one = _Game(play_game, setup)
    if jobs > 1 and len(todo) > 1:
        with multiprocessing.get_context().Pool(jobs) as pool:
            yield from pool.imap_unordered(one, todo, chunksize=1)
    else:
        yield from map(one, todo)


def _setup_fields(setup: Setup) -> dict[str, Any]:
    """What makes a game: the setup without the number of games (a run taken up again may
    ask for more)."""
    fields = dataclasses.asdict(setup)
    del fields["games"]
    fields["options"] = dict(setup.options)
    return fields


def _recorded(record: str, setup: Setup, indices: range) -> dict[int, dict[str, Any]]:
    """The games of ``indices`` that ``record`` already holds (none if it does not exist)."""
    try:
        file = open(record, encoding="utf-8")
    except FileNotFoundError:
        return {}
    fields = _setup_fields(setup)
    games: dict[int, dict[str, Any]] = {}
    with file:
        for number, line in enumerate(file, 1):
            try:
                game = json.loads(line)
                same = game.pop("setup") == fields
                index = game["index"]
            except (ValueError, KeyError, TypeError, AttributeError):
                raise ValueError(f"{record}, line {number}: not a game of the arena") from None
            if not same:
                raise ValueError(f"{record} holds games of another setup (line {number})")
            if index in indices:
                games[index] = game
    return games


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
    first: int = 0,
    record: str | None = None,
) -> dict[str, Any]:
    result = run(play_game, setup, jobs, length, first, record)
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
