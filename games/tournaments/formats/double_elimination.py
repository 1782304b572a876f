"""Double elimination at tables of two: a player is out at their second loss.

Every game has a loser: the worse place, and at a draw the worse seed (as a tie at a
knockout's cut). Each round the players still in are grouped by their losses, the winners'
bracket (no loss yet) and the losers' bracket (one loss); each group is paired best seed
against worst, the best seed of an odd group has a bye (the winners' bracket's last
unbeaten player waits while the losers' bracket plays down). When one unbeaten player and
one player with a loss are left, they meet in the final; if the player with a loss wins it,
both have one and they meet again (the bracket reset).

Every round has a game (two players are left while it goes on, and a group of one meets the
other group's one), and every game adds a loss, so an event of ``n`` players ends within
``2n - 1`` rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import Round, Table


def loser(table: Table, places: Mapping[int, int], seed: Mapping[int, int]) -> int:
    """The loser of a game: the worse place, then the worse (higher) seed."""
    return max(table, key=lambda p: (places[p], seed[p]))


def deal(players: Sequence[int], losses: Mapping[int, int]) -> tuple[Round, list[int]]:
    """The next round for ``players`` still in (in seed order, best first) with their
    ``losses`` so far (0 or 1): the tables and the byes."""
    if len(players) < 2:
        return [], list(players)
    unbeaten = [p for p in players if losses.get(p, 0) == 0]
    beaten = [p for p in players if losses.get(p, 0) == 1]
    if len(unbeaten) <= 1 and len(beaten) <= 1:
        return [tuple(unbeaten + beaten)], []  # the final (or its reset)
    tables: Round = []
    byes: list[int] = []
    for group in (unbeaten, beaten):
        if len(group) % 2:
            byes.append(group[0])
            group = group[1:]
        half = len(group) // 2
        tables += [(group[i], group[-1 - i]) for i in range(half)]
    return tables, byes


def still_in(players: Sequence[int], losses: Mapping[int, int]) -> list[int]:
    return [p for p in players if losses.get(p, 0) < 2]
