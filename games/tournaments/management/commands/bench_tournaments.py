"""Benchmark of the tournaments' pure formats (docs/tournaments.md, issue 44): the time to
pair one Swiss round and to build a round robin's schedule for 16, 64, 256 and 512 entrants.

    python manage.py bench_tournaments [--sizes 16 64 256 512] [--rounds 4]

A Swiss round is paired after ``--rounds`` rounds already played (random results, so the
scores spread and some pairs have met), at tables of 2, 3 and 4; the target is each round
within 30 s on the site's machine (the sweep pairs it under the tournament's row lock). A
round robin's schedule is built at tables of 2 (Berger tables) for every size, and at tables
of 3 and 4 for the sizes a round robin may have (at most ``MAX_ROUND_ROBIN`` players).
No database: the formats are pure.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.tournaments import services
from games.tournaments.formats import Round, round_robin, swiss
from games.tournaments.formats.standings import table_points

TARGET_SECONDS = 30


def _swiss_round(n: int, size: int, played: int, seed: int) -> float:
    """Seconds to pair round ``played + 1`` of a Swiss of ``n`` at tables of ``size``."""
    rand = random.Random(seed)
    players = list(range(n))
    scores: dict[int, Fraction] = {p: Fraction(0) for p in players}
    byes: Counter[int] = Counter()
    history: list[Round] = []
    for _ in range(played):
        tables, bye = swiss.pair(players, scores, history, byes, size)
        for p in bye:
            byes[p] += 1
            scores[p] += 1
        for table in tables:
            order = list(table)
            rand.shuffle(order)
            for p, points in table_points({p: i for i, p in enumerate(order, 1)}).items():
                scores[p] += points
        history.append(tables)
    started = time.perf_counter()
    swiss.pair(players, scores, history, byes, size)
    return time.perf_counter() - started


def _schedule(n: int, size: int) -> float:
    started = time.perf_counter()
    round_robin.schedule(list(range(n)), size, seed=1)
    return time.perf_counter() - started


class Command(BaseCommand):
    help = "Time to pair a Swiss round and to build a round robin schedule, by entrants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256, 512])
        parser.add_argument("--rounds", type=int, default=4, help="Swiss rounds played before")

    def handle(self, *args: Any, **options: Any) -> None:
        sizes: list[int] = options["sizes"]
        played: int = options["rounds"]
        out = self.stdout
        out.write(
            f"Swiss: seconds to pair round {played + 1} (target {TARGET_SECONDS} s; "
            f"Swiss and knockout take up to {services.MAX_PLAYERS} players)"
        )
        out.write(f"{'entrants':>9} {'tables of 2':>12} {'of 3':>8} {'of 4':>8}")
        worst = 0.0
        for n in sizes:
            times = [_swiss_round(n, size, played, n) for size in (2, 3, 4)]
            worst = max(worst, *times)
            out.write(f"{n:>9} {times[0]:>12.2f} {times[1]:>8.2f} {times[2]:>8.2f}")
        verdict = "within" if worst <= TARGET_SECONDS else "OVER"
        out.write(f"slowest Swiss round: {worst:.2f} s, {verdict} the target")
        out.write("")
        most = services.MAX_ROUND_ROBIN
        out.write(
            f"Round robin: seconds to build the schedule (tables of 3 and 4 up to {most} "
            "players, the most a round robin takes; - beyond)"
        )
        out.write(f"{'entrants':>9} {'tables of 2':>12} {'of 3':>8} {'of 4':>8}")
        for n in sorted({*sizes, most}):
            cells = [f"{_schedule(n, 2):>12.2f}"]
            for size in (3, 4):
                cells.append(f"{_schedule(n, size):>8.2f}" if n <= most else f"{'-':>8}")
            out.write(f"{n:>9} {' '.join(cells)}")
