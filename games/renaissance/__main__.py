"""python -m games.renaissance simulate|bench|arena|bench-strong ..."""

from __future__ import annotations

import argparse
import sys

from games.core.arena_cli import ArenaCommands, add_commands, run_command

from . import arena
from .simulate import bench, run

COMMANDS = ArenaCommands(
    levels=arena.LEVELS,
    length="rounds",
    max_length=200,
    budget_unit="step",
    bench_games=2,
    make_setup=arena.make_setup,
    play_game=arena.play_game,
    arena_options=lambda args: {"max_rounds": args.max_length},
)


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
    add_commands(sub, COMMANDS)
    args = parser.parse_args(argv)
    if run_command(args, COMMANDS):
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
