"""python -m games.guildhall simulate|bench|arena|bench-strong ..."""

from __future__ import annotations

import argparse
import sys

from games.core.arena import bench_strong

from . import arena
from .simulate import bench, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.guildhall")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole games with the random-legal player")
    sim.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--rules", default="yucata", choices=("classic", "yucata"))
    sim.add_argument("--advanced", action="store_true")
    sim.add_argument("--setup", default="sequential", choices=("sequential", "simultaneous"))
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--max-turns", type=int, default=400)
    sim.add_argument(
        "--check-every",
        type=int,
        default=0,
        help="check every invariant (conservation, JSON round trip, views) every N decisions",
    )
    b = sub.add_parser("bench", help="decisions/s, games/s, state size and clone time")
    b.add_argument("--seconds", type=float, default=5.0)
    b.add_argument("--seed", type=int, default=1)
    ar = sub.add_parser("arena", help="one computer level against another: win rate, timing")
    ar.add_argument("--a", default="strong", choices=arena.LEVELS, help="the level measured")
    ar.add_argument("--b", default="normal", choices=arena.LEVELS, help="every other seat")
    ar.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ar.add_argument("--games", type=int, default=200)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    ar.add_argument("--budget-ms", type=int, default=None, help="the strong level's time")
    ar.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="the strong level's iterations instead of a time (a reproducible run)",
    )
    ar.add_argument("--rules", default="yucata", choices=("classic", "yucata"))
    ar.add_argument("--max-turns", type=int, default=400)
    bs = sub.add_parser(
        "bench-strong",
        help="the strong computer's seconds per turn and per decision, on one core",
    )
    bs.add_argument("--games", type=int, default=3)
    bs.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    bs.add_argument("--budget-ms", type=int, default=1000, help="per turn (the site's)")
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
            rules=args.rules,
            max_turns=args.max_turns,
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
        bench_strong(arena.play_game, setup)
        return 0
    if args.command == "simulate":
        summary = run(
            args.players,
            args.games,
            args.rules,
            args.seed,
            advanced=args.advanced,
            max_turns=args.max_turns,
            check_every=args.check_every,
            setup=args.setup,
        )
        return 1 if summary["violations"] else 0
    bench(args.seconds, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
