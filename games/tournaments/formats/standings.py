"""Standings: points by place at each table, the tie-breaks, and a crosstable.

Points: at a table of ``k`` players the first scores 1, the last 0, and the places between
in equal steps: (k - place) / (k - 1); players who tie share the points of the places they
cover (a draw at two scores 1/2 each). A bye scores ``bye_points`` (1 in a Swiss, as a win;
nothing in a round robin, where everyone sits out as often as the numbers allow).

Tie-breaks, in this order:

1. Buchholz (Swiss and round robin): the sum of the points of every opponent met, once
   for each table shared (a bye adds nothing);
2. Sonneborn-Berger (Swiss and round robin): the sum over the tables and the opponents at
   them of the opponent's points times the result against them (1 ahead of them, 1/2 tied,
   0 behind);
3. wins: the number of tables won outright (a shared first place, a draw, is no win);
4. the seed (the rating at the start, best first): the last word, so that there is always
   a single winner.

A knockout ranks by the round reached, then the place at the last table, then the seed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class TableResult:
    """One table of one round, played: each player's place (1 first, equal places tie)."""

    round: int
    places: Mapping[int, int]


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass
class Row:
    player: int
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    wins: int = 0
    played: int = 0
    byes: int = 0
    rank: int = 0  # 1 is the winner; filled by ``standings``
    # Knockout: the last round the player played in.
    reached: int = 0


def table_points(places: Mapping[int, int]) -> dict[int, Fraction]:
    """Each player's points at one table by place (shared when tied)."""
    k = len(places)
    if k < 2:
        return {p: Fraction(1) for p in places}
    out: dict[int, Fraction] = {}
    for player, place in places.items():
        tied = sum(1 for q in places.values() if q == place)
        # The positions the tie covers: place .. place + tied - 1.
        covered = range(place, place + tied)
        out[player] = sum((Fraction(k - q, k - 1) for q in covered), Fraction(0)) / tied
    return out


def head_to_head(places: Mapping[int, int], a: int, b: int) -> Fraction:
    """``a``'s result against ``b`` at a table they shared."""
    if places[a] < places[b]:
        return Fraction(1)
    if places[a] == places[b]:
        return Fraction(1, 2)
    return Fraction(0)


def scores(
    results: Sequence[TableResult], byes: Sequence[Bye], bye_points: Fraction
) -> dict[int, Fraction]:
    """Every player's points so far."""
    rows = _rows(results, byes, bye_points, [])
    return {p: r.points for p, r in rows.items()}


def _rows(
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    bye_points: Fraction,
    players: Sequence[int],
) -> dict[int, Row]:
    rows: dict[int, Row] = {p: Row(p) for p in players}
    for result in results:
        for player, points in table_points(result.places).items():
            row = rows.setdefault(player, Row(player))
            row.points += points
            row.played += 1
            row.reached = max(row.reached, result.round)
            # A win is a table won alone: a shared first place (a draw at two) is not.
            if result.places[player] == 1 and list(result.places.values()).count(1) == 1:
                row.wins += 1
    for bye in byes:
        row = rows.setdefault(bye.player, Row(bye.player))
        row.points += bye_points
        row.byes += 1
        row.reached = max(row.reached, bye.round)
    return rows


def standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    byes: Sequence[Bye] = (),
    *,
    bye_points: Fraction = Fraction(0),
    tie_breaks: bool = True,
) -> list[Row]:
    """Every player in ``players`` (in seed order: best first) ranked, with their points
    and tie-breaks; ``tie_breaks`` False leaves Buchholz and Sonneborn-Berger out of the
    order (they are still computed)."""
    rows = _rows(results, byes, bye_points, players)
    points = {p: r.points for p, r in rows.items()}
    for result in results:
        for a in result.places:
            row = rows[a]
            for b in result.places:
                if b == a:
                    continue
                row.buchholz += points[b]
                row.sonneborn_berger += head_to_head(result.places, a, b) * points[b]
    seed = {p: i for i, p in enumerate(players)}

    def key(p: int) -> tuple[Fraction | int, ...]:
        r = rows[p]
        breaks = (-r.buchholz, -r.sonneborn_berger) if tie_breaks else ()
        return (-r.points, *breaks, -r.wins, seed.get(p, len(seed)), p)

    order = sorted(rows, key=key)
    for i, p in enumerate(order, 1):
        rows[p].rank = i
    return [rows[p] for p in order]


def knockout_standings(
    players: Sequence[int], results: Sequence[TableResult], byes: Sequence[Bye] = ()
) -> list[Row]:
    """A knockout's ranking: the round reached, then the place at the last table, the
    seed."""
    rows = _rows(results, byes, Fraction(1), players)
    last_place: dict[int, int] = defaultdict(int)
    for result in results:
        for p, place in result.places.items():
            if result.round == rows[p].reached:
                last_place[p] = place
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(
        rows,
        key=lambda p: (-rows[p].reached, last_place[p] or 1, seed.get(p, len(seed)), p),
    )
    for i, p in enumerate(order, 1):
        rows[p].rank = i
    return [rows[p] for p in order]


@dataclass
class Cell:
    """What one player did in one round, for the crosstable."""

    round: int
    bye: bool = False
    place: int | None = None
    table_size: int = 0
    points: Fraction = Fraction(0)
    opponents: list[int] = field(default_factory=list)  # their ranks in the standings


def crosstable(
    ranked: Sequence[Row],
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    rounds: int,
    bye_points: Fraction,
) -> dict[int, list[Cell | None]]:
    """For each player, each round: their table (place, points, opponents by rank), their
    bye, or None (not in that round)."""
    rank = {r.player: r.rank for r in ranked}
    out: dict[int, list[Cell | None]] = {r.player: [None] * rounds for r in ranked}
    for result in results:
        points = table_points(result.places)
        for p, place in result.places.items():
            if p in out and 1 <= result.round <= rounds:
                out[p][result.round - 1] = Cell(
                    round=result.round,
                    place=place,
                    table_size=len(result.places),
                    points=points[p],
                    opponents=sorted(rank[q] for q in result.places if q != p and q in rank),
                )
    for bye in byes:
        if bye.player in out and 1 <= bye.round <= rounds:
            out[bye.player][bye.round - 1] = Cell(round=bye.round, bye=True, points=bye_points)
    return out


def fmt(value: Fraction) -> str:
    """Points as people write them: 2, 2½, 1⅓ ... (halves, thirds and sixths by sign)."""
    whole, rest = divmod(value.numerator, value.denominator)
    fraction = Fraction(rest, value.denominator)
    signs = {
        Fraction(1, 2): "½",
        Fraction(1, 3): "⅓",
        Fraction(2, 3): "⅔",
        Fraction(1, 6): "⅙",
        Fraction(5, 6): "⅚",
        Fraction(1, 4): "¼",
        Fraction(3, 4): "¾",
    }
    if not fraction:
        return str(whole)
    sign = signs.get(fraction)
    if sign is None:
        return f"{float(value):.2f}"
    return f"{whole}{sign}" if whole else sign
