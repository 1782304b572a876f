"""How long the demo (``manage.py rundemo``, the README's first command) takes to answer: the
first start (a new database: migrations, demo players) and each restart after it.

    python manage.py bench_restart [--restarts 3] [--uv] [--json]

Each run starts ``rundemo`` on a free port with a SQLite database and broker folder in a
temporary folder (the person's first try: no Redis, no database server), times it until ``/``
answers 200, and stops it as Ctrl-C does. ``--uv`` starts it through ``uv run --locked`` as the
README does (without ``--no-dev``, which would take the development tools out of this
environment). The target: a restart on a quiet machine answers within 5 s (docs/performance.md).
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from games.perf.command import BenchCommand
from games.perf.restart import Demo, python_command, uv_command


class Command(BenchCommand):
    help = "Time the demo's first start and its restarts until / answers 200."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--restarts", type=int, default=3)
        parser.add_argument("--uv", action="store_true", help="Start it through uv run.")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, restarts: int, uv: bool, json: bool, **options: Any) -> None:
        self.as_json = json
        with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
            folder = Path(tmp)
            demo = Demo(folder, uv_command() if uv else python_command(), folder / "demo.log")
            times = []
            for run in range(1 + restarts):
                seconds = demo.start_until_answered()
                demo.stop()
                self.note(f"{'first start' if run == 0 else f'restart {run}'}: {seconds:.2f} s")
                times.append(seconds)
        result: dict[str, Any] = {
            "through": "uv run --locked" if uv else "python",
            "first_start_s": round(times[0], 2),
            "restarts_s": [round(t, 2) for t in times[1:]],
            "restart_median_s": round(statistics.median(times[1:]), 2) if restarts else None,
        }
        self.output(result)

    def report(self, result: dict[str, Any]) -> None:
        self.stdout.write(
            f"rundemo through {result['through']}: first start {result['first_start_s']} s, "
            f"restarts {result['restarts_s']} s (median {result['restart_median_s']} s)"
        )
