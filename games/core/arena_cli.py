"""The ``arena`` and ``bench-strong`` commands of a game's ``python -m games.<game>``: the same
options for every game, with the game's own length (Guildhall's turns, Renaissance Man's
rounds) and any options of its own added by the game to the parsers returned."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import arena
from .arena import Setup


@dataclass(frozen=True)
class ArenaCommands:
    """What differs between games' commands."""

    levels: Sequence[str]
    # ``Contest.length``'s unit, plural ("turns", "rounds"): names --max-<length>.
    length: str
    max_length: int
    # What the strong player's budget is spent on ("turn", "step").
    budget_unit: str
    bench_games: int
    # The game's ``make_setup(a, b, **fields)``.
    make_setup: Callable[..., Setup]
    play_game: Callable[[Setup, int], dict[str, Any]]
    # The game's own arena options, read from the parsed arguments (max length included), as
    # keywords of ``make_setup``.
    arena_options: Callable[[argparse.Namespace], Mapping[str, Any]]


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], commands: ArenaCommands
) -> argparse.ArgumentParser:
    """Adds ``arena`` and ``bench-strong``; returns the arena's parser for the game's options."""
    unit = commands.budget_unit
    ar = sub.add_parser("arena", help="one computer level against another: win rate, timing")
    ar.add_argument("--a", default="strong", choices=commands.levels, help="the level measured")
    ar.add_argument("--b", default="normal", choices=commands.levels, help="every other seat")
    ar.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ar.add_argument("--games", type=int, default=200)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    ar.add_argument(
        "--first", type=int, default=0, help="the index of the first game (games are seeded by it)"
    )
    ar.add_argument(
        "--record",
        metavar="FILE",
        help="write each game to this JSON-lines file as it ends; games it holds are not "
        "played again (a run stopped can be taken up, ranges summed up)",
    )
    ar.add_argument(
        "--budget-ms", type=int, default=None, help=f"the strong level's time, a {unit}"
    )
    ar.add_argument(
        "--iterations",
        type=int,
        default=None,
        help=f"the strong level's iterations a {unit}, instead of a time (a reproducible run)",
    )
    ar.add_argument(
        f"--max-{commands.length}",
        dest="max_length",
        metavar="N",
        type=int,
        default=commands.max_length,
        help=f"a game still going after this many {commands.length} counts as a tie",
    )
    bs = sub.add_parser(
        "bench-strong",
        help=f"the strong computer's seconds per {unit} and per decision, on one core",
    )
    bs.add_argument("--games", type=int, default=commands.bench_games)
    bs.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    bs.add_argument("--budget-ms", type=int, default=1000, help=f"per {unit} (the site's)")
    bs.add_argument("--seed", type=int, default=1)
    return ar


def run_command(args: argparse.Namespace, commands: ArenaCommands) -> bool:
    """Runs ``arena`` or ``bench-strong`` if that is the command; False for any other."""
    if args.command == "arena":
        setup = commands.make_setup(
            args.a,
            args.b,
            players=args.players,
            games=args.games,
            seed=args.seed,
            budget_ms=args.budget_ms,
            iterations=args.iterations,
            **commands.arena_options(args),
        )
        if args.first < 0:
            raise SystemExit("arena: --first must be 0 or more")
        try:
            arena.main(
                commands.play_game,
                setup,
                args.jobs,
                length=commands.length,
                first=args.first,
                record=args.record,
            )
        except ValueError as error:
            raise SystemExit(f"arena: {error}") from None
        return True
    if args.command == "bench-strong":
        setup = commands.make_setup(
            "strong",
            "normal",
            players=args.players,
            games=args.games,
            seed=args.seed,
            budget_ms=args.budget_ms,
        )
        arena.bench_strong(commands.play_game, setup, length=commands.length)
        return True
    return False
