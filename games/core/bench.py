"""What every game's ``bench`` measures the same way: pinned to one core, the decisions per
second, the state's JSON size and the time to clone a state."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar


class Clonable(Protocol):
    def clone(self) -> object: ...


S = TypeVar("S", bound=Clonable)  # a game's state


@contextmanager
def one_core() -> Iterator[None]:
    """Run the block on one core (where the system allows it), as a worker process would."""
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        if pinned:
            os.sched_setaffinity(0, cores)


def clone_us(samples: Sequence[Clonable], reps: int = 20) -> float:
    """Microseconds to ``clone()`` one of ``samples``, on average."""
    start = time.perf_counter()
    for _ in range(reps):
        for s in samples:
            s.clone()
    return (time.perf_counter() - start) / (reps * len(samples)) * 1e6


def figures(
    *,
    decisions: int,
    engine_seconds: float,
    wall_seconds: float,
    games: int,
    samples: Sequence[S],
    to_json: Callable[[S], dict[str, Any]],
) -> dict[str, Any]:
    """One row of a bench: ``samples`` are states taken along the way."""
    sizes = [len(json.dumps(to_json(s), separators=(",", ":"))) for s in samples]
    return {
        "decisions_per_s": round(decisions / engine_seconds),
        "decisions_per_s_wall_incl_random_choice": round(decisions / wall_seconds),
        "games_per_s": round(games / wall_seconds, 2),
        "state_json_bytes": {"mean": round(statistics.mean(sizes)), "max": max(sizes)},
        "clone_us": round(clone_us(samples), 2),
    }
