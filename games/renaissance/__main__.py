"""python -m games.renaissance simulate|bench ..."""

from __future__ import annotations

import argparse
import sys

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
    args = parser.parse_args(argv)
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
