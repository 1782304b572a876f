"""Issue 44's "done when": an event of each format with 16 entrants runs to its end through the
tasks (inline after each commit, as the worker runs them) with a mix of results and draws (the
games' computer players), a player who never moves (timed out twice: withdrawn), and an
organiser's correction or entered result; its final standings and winner equal those worked
out again here, on their own, from the tables' places."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from datetime import timedelta
from fractions import Fraction

import pytest
import time_machine
from django.utils import timezone

from games.play import timeouts
from games.tournaments import organiser, services, tasks
from games.tournaments.models import Entry, Round, Table, Tournament
from tests.games.tournaments.helpers import people, play_round, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]
F = Fraction


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def hand_points(places: dict[int, int]) -> dict[int, Fraction]:
    """At a table of k: 1/(k-1) for each player finished ahead of, half that for a tie."""
    k = len(places)
    return {
        p: F(sum(1 for q in places.values() if q > mine), k - 1)
        + F(sum(1 for q in places.values() if q == mine) - 1, 2 * (k - 1))
        for p, mine in places.items()
    }


def hand_ranking(tables: list[Table], players: list[int], seeds: dict, bye_value) -> list[int]:
    points: Counter = Counter()
    wins: Counter = Counter()
    for table in tables:
        if table.bye:
            points[table.entries[0]] += bye_value
            continue
        places = {int(k): v for k, v in table.places.items()}
        for p, v in hand_points(places).items():
            points[p] += v
        firsts = [p for p, v in places.items() if v == 1]
        if len(firsts) == 1:
            wins[firsts[0]] += 1
    buchholz: Counter = Counter()
    sb: Counter = Counter()
    for table in tables:
        if table.bye:
            continue
        places = {int(k): v for k, v in table.places.items()}
        for a, b in itertools.permutations(places, 2):
            buchholz[a] += points[b]
            result = 1 if places[a] < places[b] else (F(1, 2) if places[a] == places[b] else 0)
            sb[a] += result * points[b]
    return sorted(players, key=lambda p: (-points[p], -buchholz[p], -sb[p], -wins[p], seeds[p], p))


def hand_knockout(tables: list[Table], players: list[int], seeds: dict) -> list[int]:
    reached: Counter = Counter()
    last: dict[int, int] = {}
    for table in sorted(tables, key=lambda t: t.round.number):
        for p in table.entries:
            reached[p] = table.round.number
            last[p] = 1 if table.bye else table.places[str(p)]
    return sorted(players, key=lambda p: (-reached[p], last.get(p, 1), seeds[p], p))


def correct_one(t: Tournament, alice) -> None:
    """The organiser reverses the first decided game of the first round (or, in a knockout,
    enters the result of a table still playing)."""
    r1 = Round.objects.filter(tournament=t, number=1).order_by("division").first()
    table = next(tb for tb in r1.tables.order_by("number") if not tb.bye and tb.game_id)
    names = dict(Entry.objects.filter(tournament=t).values_list("pk", "user__username"))
    order = sorted(table.entries, key=lambda p: table.places.get(str(p), 0), reverse=True)
    places = {names[p]: i for i, p in enumerate(order, 1)}
    organiser.do_set_result(
        t.pk, alice, round_id=r1.pk, table=table.number, places=places, reason="Appeal upheld"
    )


FORMATS = [
    ("swiss", {"rounds": 4}),
    ("round_robin", {"table_size": 4, "max_players": 24, "min_players": 4}),
    ("double_robin", {"table_size": 4, "max_players": 24, "min_players": 4}),
    ("knockout", {}),
    ("double_elim", {}),
    ("league", {"table_size": 4, "rounds": 1, "min_players": 6}),
]


@pytest.mark.parametrize(("format", "fields"), FORMATS, ids=[f for f, _ in FORMATS])
def test_sixteen_entrants_to_the_end(alice, committed, format, fields):
    players = people(16)
    absent = players[5]
    t = tournament(alice, players, format=format, **{"rounds": 0, **fields}, round_days=7)
    rand = random.Random(16)
    corrected = False
    with time_machine.travel(timezone.now(), tick=False) as clock:
        clock.move_to(t.starts_at + timedelta(seconds=1))
        with committed():
            tasks.sweep()
        t.refresh_from_db()
        for _ in range(80):
            if format in ("knockout", "double_elim") and not corrected:
                with committed():
                    correct_one(t, alice)  # entered before the game ends
                corrected = True
            play_round(t, committed, rand, absent={absent.pk})
            t.refresh_from_db()
            if not corrected and Round.objects.filter(tournament=t, status="done").exists():
                with committed():
                    correct_one(t, alice)
                corrected = True
            if t.status == Tournament.Status.FINISHED:
                break
            clock.shift(timedelta(hours=25))
            with committed():
                timeouts.sweep_timeouts()
            with committed():
                tasks.sweep()
            t.refresh_from_db()
            if t.status == Tournament.Status.FINISHED:
                break
    t.refresh_from_db()  # a correction made after the end names the winner again
    assert t.status == Tournament.Status.FINISHED and corrected
    gone = Entry.objects.get(tournament=t, user=absent)
    assert gone.status in (Entry.Status.WITHDRAWN, Entry.Status.OUT)
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    if format == "league":
        division = services.stage_players(t, 1, 1)
        tables = list(
            Table.objects.filter(
                round__tournament=t, round__season=1, round__division=1
            ).select_related("round")
        )
        order = {p: i for i, p in enumerate(division)}
        expected = hand_ranking(tables, division, order, F(0))
        ranked = [r.player for r in services.standings(t, 1, 1)]
    else:
        tables = list(Table.objects.filter(round__tournament=t).select_related("round"))
        everyone = sorted(seeds, key=seeds.get)
        if format in ("knockout", "double_elim"):
            expected = hand_knockout(tables, everyone, seeds)
        else:
            bye_value = F(1) if format == "swiss" else F(0)
            expected = hand_ranking(tables, everyone, seeds, bye_value)
        ranked = [r.player for r in services.standings(t)]
    assert ranked == expected
    winner = Entry.objects.get(pk=expected[0]).user_id
    assert t.winner_id == winner
    assert Table.objects.filter(round__tournament=t, decided_by="organiser").exists()
