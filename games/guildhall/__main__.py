"""python -m games.guildhall simulate|bench|arena|bench-strong ..."""

from __future__ import annotations

import argparse
import sys

from games.core.arena_cli import ArenaCommands, add_commands, run_command

from . import arena
from .simulate import bench, run

COMMANDS = ArenaCommands(
    levels=arena.LEVELS,
    length="turns",
    max_length=400,
    budget_unit="turn",
    bench_games=3,
    make_setup=arena.make_setup,
    play_game=arena.play_game,
    arena_options=lambda args: {"rules": args.rules, "max_turns": args.max_length},
)


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
    ar = add_commands(sub, COMMANDS)
    ar.add_argument("--rules", default="yucata", choices=("classic", "yucata"))
    args = parser.parse_args(argv)
    if run_command(args, COMMANDS):
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
