"""python -m games.renaissance simulate|bench|arena|bench-strong ..."""

from __future__ import annotations

import argparse
import sys

from games.core.arena import bench_strong

from . import arena
from .simulate import bench, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.renaissance")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole games with the random-legal player")
    sim.add_argument("--players", type=int, default=3, choices=(1, 2, 3, 4))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--max-rounds", type=int, default=300)
    sim.add_argument(
        "--check-every",
        type=int,
        default=1,
        help="check every invariant after every action of one game in N (0: never)",
    )
    b = sub.add_parser("bench", help="decisions/s, state size and clone time, one core")
    b.add_argument("--seconds", type=float, default=6.0)
    b.add_argument("--seed", type=int, default=1)
    ar = sub.add_parser("arena", help="one computer level against another: win rate, timing")
    ar.add_argument("--a", default="strong", choices=arena.LEVELS, help="the level measured")
    ar.add_argument("--b", default="normal", choices=arena.LEVELS, help="every other seat")
    ar.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ar.add_argument("--games", type=int, default=200)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    ar.add_argument("--budget-ms", type=int, default=None, help="the strong level's, a step")
    ar.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="the strong level's iterations a step, instead of a time (a reproducible run)",
    )
    ar.add_argument("--max-rounds", type=int, default=200)
    bs = sub.add_parser(
        "bench-strong",
        help="the strong computer's seconds per decision and per step, on one core",
    )
    bs.add_argument("--games", type=int, default=2)
    bs.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    bs.add_argument("--budget-ms", type=int, default=1000, help="per step (the site's)")
    bs.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "arena":
        setup = arena.make_setup(
            args.a,
            args.b,
            players=args.players,
            games=args.games,
            seed=args.seed,
            budget_ms=args.budget_ms,
            iterations=args.iterations,
            max_rounds=args.max_rounds,
        )
        arena.main(setup, args.jobs)
        return 0
    if args.command == "bench-strong":
        setup = arena.make_setup(
            "strong",
            "normal",
            players=args.players,
            games=args.games,
            seed=args.seed,
            budget_ms=args.budget_ms,
        )
        bench_strong(arena.play_game, setup, length="rounds")
        return 0
    if args.command == "simulate":
        summary = run(
            args.players,
            args.games,
            args.seed,
            max_rounds=args.max_rounds,
            check_every=args.check_every,
        )
        return 1 if summary["violations"] else 0
    bench(args.seconds, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
