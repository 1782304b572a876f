"""``manage.py bench_analysis``: how long the analysis of a finished game takes, at the site's
budget (``ANALYSIS_ITERATIONS`` a decision, ``ANALYSIS_SECONDS`` a game), on one core as the
computer players' worker runs it (issue 49: a 2-player game of each game within 2 minutes).

For each game of the registry that offers one, it plays ``--games`` whole 2-player games
between a strong and a normal computer player (the strong one at ``--play-iterations``, to
keep the set-up short), then times ``games.core.analysis.analyse`` on each record, as the
task ``games.analyse_game`` runs it, and the words of every judged decision (what the API
answers, ``GameKind.action_words``). It prints a row per game: the records, the decisions
judged, the iterations, whether every decision was judged in time, and the seconds.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.core import GameKind, analysis, bench, registry
from games.core.match import Match


class Command(BaseCommand):
    help = "Time the analysis of finished 2-player games of each game at the site's budget."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1, help="games of each game")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--play-iterations", type=int, default=100)
        parser.add_argument("--iterations", type=int, default=None, help="per decision")
        parser.add_argument("--seconds", type=float, default=None, help="per game")

    def handle(self, *args: Any, **options: Any) -> None:
        budget = analysis.Budget(
            iterations=options["iterations"] or settings.ANALYSIS_ITERATIONS,
            seconds=options["seconds"] or settings.ANALYSIS_SECONDS,
        )
        self.stdout.write(
            f"budget: {budget.iterations} iterations a decision, {budget.seconds:g} s a game "
            "(one core)"
        )
        for kind in registry.all_games():
            if kind.analyst is None:
                continue
            for n in range(options["games"]):
                seed = options["seed"] + n
                row = self._one(kind, seed, options["play_iterations"], budget)
                self.stdout.write(json.dumps(row))

    def _one(
        self, kind: GameKind, seed: int, play_iterations: int, budget: analysis.Budget
    ) -> dict[str, Any]:
        options = kind.parse_options({}, 2)
        names = ["Ann", "Bob"]
        match = Match(kind, options, names, seed)
        rand = random.Random(seed)
        levels = ("strong", "normal") if seed % 2 else ("normal", "strong")
        while kind.phase(match.state) != "over":
            seat = min(kind.deciders(match.state))
            action = kind.choose_at(
                levels[seat], match.state, seat, rand, iterations=play_iterations
            )
            match.apply(action, seat)
        with bench.one_core():
            start = time.perf_counter()
            result = analysis.analyse(
                kind, options, names, seed, match.record, budget, search_seed=seed
            )
            took = time.perf_counter() - start
            start = time.perf_counter()
            states = {
                d.step: d.state
                for d in analysis.decisions(kind, options, names, seed, match.record)
            }
            for d in result.decisions:
                kind.action_words(states[d.step], d.seat, d.played)
                kind.action_words(states[d.step], d.seat, d.best)
            words = time.perf_counter() - start
        return {
            "game": kind.id,
            "seed": seed,
            "records": len(match.record),
            "judged": len(result.decisions),
            "iterations": result.iterations,
            "complete": result.complete,
            "left_out": result.left_out,
            "seconds": round(took, 1),
            "words_seconds": round(words, 2),
            "costly_decisions": sum(len(result.notable(s)) for s in range(2)),
        }
