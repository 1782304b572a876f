"""What the tournament pages and the API read: lists, a tournament's standings with their
tie-breaks, its crosstable, and each round's tables and games. Nothing here changes a row.

Only public facts leave: names, places, points, links to games (whose boards show what
each viewer may see). A tournament's invitation code is shown to its organiser alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games.tournaments import services
from games.tournaments.formats.standings import Cell, crosstable, fmt
from games.tournaments.models import Action, Entry, Round, Table, Tournament


def tournaments() -> QuerySet[Tournament]:
    """Every tournament, those open for sign-up first, then running, then over; with the
    number of players signed up."""
    return (
        Tournament.objects.select_related("creator", "winner")
        .annotate(players=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)))
        .order_by("-status", "-starts_at", "-pk")
    )


def by_status(status: str) -> QuerySet[Tournament]:
    return tournaments().filter(status=status)


def entry_of(tournament: Tournament, user: User) -> Entry | None:
    if not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


@dataclass
class StandingRow:
    rank: int
    entry: int
    user: User
    status: str
    points: str
    buchholz: str
    sonneborn_berger: str
    wins: int
    played: int
    byes: int
    seed: int
    cells: list[dict[str, Any] | None] = field(default_factory=list)
    points_value: Fraction = Fraction(0)


@dataclass
class TableView:
    number: int
    players: list[dict[str, Any]]
    game_id: int | None
    bye: bool
    decided: bool
    decided_by: str


@dataclass
class RoundView:
    id: int
    number: int
    season: int
    division: int
    status: str
    started: object
    deadline: object
    tables: list[TableView]


@dataclass
class Stage:
    """One table of standings: the whole tournament, or a league's division this season."""

    season: int
    division: int
    rows: list[StandingRow]
    rounds: int
    tie_breaks: bool


def stages(tournament: Tournament) -> list[Stage]:
    if tournament.is_league:
        return [
            stage(tournament, tournament.season, d) for d in range(1, len(tournament.divisions) + 1)
        ]
    if tournament.status in (Tournament.Status.SIGNUP, Tournament.Status.CANCELLED):
        return []
    return [stage(tournament)]


def stage(tournament: Tournament, season: int = 0, division: int = 0) -> Stage:
    ranked = services.standings(tournament, season, division)
    found, byes = services.results(tournament, season, division)
    played_rounds = (
        Round.objects.filter(tournament=tournament, season=season, division=division)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    cells = crosstable(ranked, found, byes, played_rounds, services.bye_points(tournament))
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    rows = []
    for r in ranked:
        entry = entries[r.player]
        rows.append(
            StandingRow(
                rank=r.rank,
                entry=r.player,
                user=entry.user,
                status=entry.status,
                points=fmt(r.points),
                buchholz=fmt(r.buchholz),
                sonneborn_berger=fmt(r.sonneborn_berger),
                wins=r.wins,
                played=r.played,
                byes=r.byes,
                seed=entry.seed,
                cells=[_cell(c) for c in cells.get(r.player, [])],
                points_value=r.points,
            )
        )
    return Stage(season, division, rows, played_rounds, services.uses_tie_breaks(tournament))


def _cell(cell: Cell | None) -> dict[str, Any] | None:
    if cell is None:
        return None
    return {
        "bye": cell.bye,
        "place": cell.place,
        "table_size": cell.table_size,
        "points": fmt(cell.points),
        "opponents": cell.opponents,
    }


def rounds(tournament: Tournament) -> list[RoundView]:
    """Every round, latest first, with its tables (players with their places) and games."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    out = []
    rows = (
        Round.objects.filter(tournament=tournament)
        .prefetch_related("tables")
        .order_by("-season", "-number", "division")
    )
    for rnd in rows:
        tables = []
        for t in sorted(rnd.tables.all(), key=lambda t: t.number):
            players: list[dict[str, Any]] = [
                {
                    "user": entries[p].user,
                    "place": t.places.get(str(p)) if t.decided else None,
                }
                for p in t.entries
                if p in entries
            ]
            players.sort(key=lambda x: x["place"] or 99)
            tables.append(TableView(t.number, players, t.game_id, t.bye, t.decided, t.decided_by))
        out.append(
            RoundView(
                rnd.pk,
                rnd.number,
                rnd.season,
                rnd.division,
                rnd.status,
                rnd.started,
                rnd.deadline,
                tables,
            )
        )
    return out


def tournament_names(game_ids: list[int]) -> dict[int, tuple[int, str]]:
    """The tournament of each of these games that has one: its id and name."""
    rows = Table.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "round__tournament_id", "round__tournament__name"
    )
    return {game_id: (pk, name) for game_id, pk, name in rows}


def log(tournament: Tournament) -> list[Action]:
    """What the organiser did, latest first (not their messages: those went to the players)."""
    return list(tournament.actions.exclude(kind=Action.Kind.MESSAGE).order_by("-created", "-pk"))
