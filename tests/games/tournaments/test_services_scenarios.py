"""Whole tournaments played through the services by the games' computer players, under a
clock that jumps (no real waiting): a 16-player Swiss of 4 rounds and a 9-player round robin
at tables of 3, each with two players dropping out (their time runs out twice: withdrawn,
their games under way conceded, never paired again), and a league season with promotion
and relegation. Every game created once, no repeat pairing where avoidable, byes fair, and
the standings and tie-breaks recomputed here on their own from the tables' places."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from datetime import timedelta
from fractions import Fraction

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.models import Game, Rating, Seat
from games.play import timeouts
from games.tournaments import services, tasks
from games.tournaments.models import Entry, Notice, Round, Table, Tournament
from tests.games.tournaments.helpers import people, play_round, tournament

# Seats in the order of the players (not the operating system's draw): the same games
# every run.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]

F = Fraction


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def sweep(clock, committed, hours: float) -> None:
    """The clock jumps; the time-out sweep, then the tournaments' sweep, as beat runs them."""
    clock.shift(timedelta(hours=hours))
    with committed():
        timeouts.sweep_timeouts()
    with committed():
        tasks.sweep()


def drive(t, clock, committed, rand, absent, until, limit: int = 12) -> None:
    """Everyone present plays; the absent run out of time; until ``until()``. Only the games
    of the rounds under way now: the next round waits for the next call."""
    current = list(
        Round.objects.filter(tournament=t, status="playing").values_list("pk", flat=True)
    )
    for _ in range(limit):
        play_round(t, committed, rand, absent={u.pk for u in absent}, rounds=current)
        t.refresh_from_db()
        if until():
            return
        sweep(clock, committed, 25)
        t.refresh_from_db()
        if until():
            return
    raise AssertionError("the tournament did not get there")


def round_exists(t, number):
    return lambda: (
        Round.objects.filter(tournament=t, number=number).exists()
        or (t.status == Tournament.Status.FINISHED)
    )


# The standings worked out again, on their own -----------------------------------------------


def hand_points(places: dict[int, int]) -> dict[int, Fraction]:
    """At a table of k: 1/(k-1) for each player finished ahead of, half that for each tie."""
    k = len(places)
    return {
        p: F(sum(1 for q in places.values() if q > mine), k - 1)
        + F(sum(1 for q in places.values() if q == mine) - 1, 2 * (k - 1))
        for p, mine in places.items()
    }


def hand_standings(t, bye_value: Fraction):
    tables = list(Table.objects.filter(round__tournament=t, decided=True))
    points: Counter = Counter()
    for table in tables:
        if table.bye:
            points[table.entries[0]] += bye_value
        else:
            for p, v in hand_points({int(k): v for k, v in table.places.items()}).items():
                points[p] += v
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
    return points, buchholz, sb


def check_standings(t, bye_value):
    points, buchholz, sb = hand_standings(t, bye_value)
    rows = services.standings(t)
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    for row in rows:
        assert row.points == points[row.player], row
        assert row.buchholz == buchholz[row.player], row
        assert row.sonneborn_berger == sb[row.player], row
    keys = [(-r.points, -r.buchholz, -r.sonneborn_berger, -r.wins, seeds[r.player]) for r in rows]
    assert keys == sorted(keys)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    t.refresh_from_db()
    assert t.winner_id == Entry.objects.get(pk=rows[0].player).user_id
    return rows


def check_games_once(t):
    """Every table that should play has its own game, and there is no other game."""
    tables = list(Table.objects.filter(round__tournament=t))
    games = [table.game_id for table in tables if table.game_id]
    assert len(games) == len(set(games))
    assert Game.objects.count() == len(games)
    for table in tables:
        assert (table.game_id is None) == (table.bye or table.decided_by == "forfeit")
    rounds = Counter(Round.objects.filter(tournament=t).values_list("season", "division", "number"))
    assert set(rounds.values()) == {1}


class TestSwissOfSixteen:
    def test_four_rounds_with_two_players_dropping_out(self, alice, committed, mailoutbox):
        players = people(14) + people(2, prefix="mail", emails=True)
        first_out = players[3]
        rand = random.Random(11)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = tournament(alice, players, format="swiss", rounds=4)
            assert Entry.objects.filter(tournament=t).count() == 16
            sweep(clock, committed, 25)  # sign-up closes: round 1
            t.refresh_from_db()
            assert t.status == Tournament.Status.RUNNING
            assert Table.objects.filter(round__number=1, bye=False).count() == 8
            # Round 1: the first drops out; round 3: the second.
            drive(t, clock, committed, rand, [first_out], round_exists(t, 2))
            assert Entry.objects.get(tournament=t, user=first_out).status == "withdrawn"
            drive(t, clock, committed, rand, [first_out], round_exists(t, 3))
            # The second to drop out: one who wants emails, with a game in round 3.
            bye = Table.objects.get(round__tournament=t, round__number=3, bye=True).entries[0]
            second_out = next(
                u for u in players[-2:] if Entry.objects.get(tournament=t, user=u).pk != bye
            )
            drive(t, clock, committed, rand, [first_out, second_out], round_exists(t, 4))
            assert Entry.objects.get(tournament=t, user=second_out).status == "withdrawn"
            drive(
                t, clock, committed, rand, [first_out, second_out], lambda: t.status == "finished"
            )
            # The sweep after the end finds nothing to do.
            sweep(clock, committed, 25)

        check_games_once(t)
        entry = {u.pk: Entry.objects.get(tournament=t, user=u).pk for u in players}
        rounds = {
            n: list(Table.objects.filter(round__tournament=t, round__number=n)) for n in range(1, 5)
        }
        # Everyone still in is seated once a round; the withdrawn never again.
        for n, tables in rounds.items():
            seated = Counter(p for table in tables for p in table.entries)
            assert set(seated.values()) == {1}
            expected = 16 - (n > 1) - (n > 3)
            assert len(seated) == expected, n
        assert all(entry[first_out.pk] not in tb.entries for n in (2, 3, 4) for tb in rounds[n])
        assert all(entry[second_out.pk] not in tb.entries for tb in rounds[4])
        # Their games under way were lost: last at their tables.
        for n, who in ((1, first_out), (3, second_out)):
            table = next(tb for tb in rounds[n] if entry[who.pk] in tb.entries)
            assert table.places[str(entry[who.pk])] == 2 and table.decided_by == "game"
            assert Seat.objects.get(game=table.game, user=who).resigned
        # No pair met twice.
        met = Counter(
            tuple(sorted(tb.entries)) for tables in rounds.values() for tb in tables if not tb.bye
        )
        assert set(met.values()) == {1}
        # Byes: one in each round of 15 players, never twice, to a player with the fewest
        # points of those still in at the time.
        byes = {n: [tb.entries[0] for tb in tables if tb.bye] for n, tables in rounds.items()}
        assert [len(byes[n]) for n in (1, 2, 3, 4)] == [0, 1, 1, 0]
        assert len({byes[2][0], byes[3][0]}) == 2
        for n in (2, 3):
            before = Counter()
            for m in range(1, n):
                for tb in rounds[m]:
                    for p, v in (
                        {tb.entries[0]: F(1)}
                        if tb.bye
                        else hand_points({int(k): v for k, v in tb.places.items()})
                    ).items():
                        before[p] += v
            playing = [p for tb in rounds[n] for p in tb.entries]
            assert before[byes[n][0]] == min(before[p] for p in playing)
        # Standings and tie-breaks as worked out here.
        rows = check_standings(t, F(1))
        assert rows[0].points >= 3
        # Rated: the players' ratings moved.
        assert Rating.objects.filter(kind="goofspiel").count() == 16
        # Notices: the two players who want emails heard of every round they played and the end.
        second = Notice.objects.filter(tournament=t, user=second_out)
        assert sorted(second.values_list("kind", flat=True)) == sorted(
            ["round", "round", "round", "withdrawn", "ended"]
        )
        assert all(n.status == "sent" for n in Notice.objects.filter(tournament=t))
        subjects = [m.subject for m in mailoutbox if "Spring open" in m.subject]
        assert any("round 1 has started" in s for s in subjects)
        assert any("you were withdrawn" in s for s in subjects)
        assert any("is over" in s for s in subjects)
        assert mail.outbox is mailoutbox


class TestRoundRobinOfNine:
    def test_tables_of_three_with_two_players_dropping_out(self, alice, committed):
        players = people(9)
        first_out, second_out = players[2], players[6]
        rand = random.Random(5)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = tournament(
                alice, players, format="round_robin", table_size=3, min_players=3, max_players=12
            )
            sweep(clock, committed, 25)
            t.refresh_from_db()
            assert t.rounds == 4
            drive(t, clock, committed, rand, [], round_exists(t, 2))
            drive(t, clock, committed, rand, [first_out], round_exists(t, 3))
            drive(t, clock, committed, rand, [first_out, second_out], round_exists(t, 4))
            drive(
                t, clock, committed, rand, [first_out, second_out], lambda: t.status == "finished"
            )

        check_games_once(t)
        ids = {u.pk: Entry.objects.get(tournament=t, user=u).pk for u in players}
        # The schedule: every pair at one table exactly once, tables of 3, nobody sits out.
        schedule = t.schedule
        met = Counter(
            pair
            for r in schedule
            for table in r
            for pair in itertools.combinations(sorted(table), 2)
        )
        assert len(met) == 36 and set(met.values()) == {1}
        tables = defaultdict(list)
        for table in Table.objects.filter(round__tournament=t).select_related("round", "game"):
            tables[table.round.number].append(table)
        for n in range(1, 5):
            assert sorted(sorted(tb.entries) for tb in tables[n]) == sorted(
                sorted(tb) for tb in schedule[n - 1]
            )
            assert not any(tb.bye for tb in tables[n])
        # After their withdrawal, a dropout's tables play without them, who are last there
        # (both dropouts at one table: tied last).
        out = {str(ids[first_out.pk]), str(ids[second_out.pk])}
        for who, since in ((first_out, 3), (second_out, 4)):
            for n in range(since, 5):
                table = next(tb for tb in tables[n] if ids[who.pk] in tb.entries)
                mine = table.places[str(ids[who.pk])]
                present = [v for p, v in table.places.items() if p not in out]
                assert mine == max(table.places.values()) and mine > max(present)
                if table.game is not None:
                    assert who.pk not in set(table.game.seats.values_list("user_id", flat=True))
        check_standings(t, F(0))


class TestLeague:
    def test_a_season_then_up_and_down(self, alice, committed):
        players = people(13)
        newcomer, leaver = people(1, prefix="new")[0], players[0]
        rand = random.Random(2)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = tournament(alice, players, format="league", table_size=3, rounds=3, min_players=6)
            sweep(clock, committed, 25)
            t.refresh_from_db()
            assert t.season == 1 and [len(d) for d in t.divisions] == [6, 7]
            first = [list(d) for d in t.divisions]
            # Joining during the season: from the next one on.
            services.do_join(t.pk, newcomer)
            for _ in range(10):
                if t.season == 2:
                    break
                current = set(
                    Round.objects.filter(tournament=t, status="playing").values_list(
                        "pk", flat=True
                    )
                )
                drive(
                    t,
                    clock,
                    committed,
                    rand,
                    [],
                    lambda current=current: (
                        not Round.objects.filter(pk__in=current, status="playing").exists()
                    ),
                )
            # Standings of season 1, as its divisions ended (the page reads them again).
            from games.tournaments.formats import round_robin

            expected = sum(len(round_robin.schedule(d, 3, seed=t.pk)) for d in first)
            assert Round.objects.filter(tournament=t, season=1).count() == expected
        t.refresh_from_db()
        ranked = []
        for d in (1, 2):
            found, byes = services.results(t, 1, d)
            from games.tournaments.formats.standings import standings as rank

            ranked.append([r.player for r in rank(first[d - 1], found, byes)])
        top, bottom = t.divisions[0], t.divisions[1]
        # The best two of the lower division went up, the worst two of the top went down.
        assert set(ranked[1][:2]) <= set(top)
        assert set(ranked[0][-2:]) <= set(bottom)
        assert set(ranked[0][:4]) <= set(top)
        new_entry = Entry.objects.get(tournament=t, user=newcomer).pk
        assert new_entry in t.divisions[-1]
        assert sum(len(d) for d in t.divisions) == 14
        # Season 2 is under way in every division; the champion of season 1 is recorded.
        assert Round.objects.filter(tournament=t, season=2, number=1).count() == 2
        assert t.winner_id == Entry.objects.get(pk=ranked[0][0]).user_id
        # A player who leaves concedes their games and is out of the next season.
        services.do_leave(t.pk, leaver)
        assert Entry.objects.get(tournament=t, user=leaver).status == "left"
        assert not Game.objects.filter(
            status__in=Game.ACTIVE, seats__user=leaver, seats__resigned=False
        ).exists()
