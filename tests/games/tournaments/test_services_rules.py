"""The rules a director reads in docs/tournaments.md, each checked on the services: a player
is withdrawn after 2 time-outs (even when nobody moved between them), "wins" are tables won
alone, and how a vacation meets a round's deadline (the deadline stands: the game is
adjudicated; the vacation spares the player time-outs, so withdrawal)."""

from __future__ import annotations

import random
from datetime import timedelta
from fractions import Fraction

import pytest
import time_machine
from django.utils import timezone

from games.models import Seat
from games.play import timeouts, vacations
from games.tournaments import services, tasks
from games.tournaments.formats.standings import TableResult, standings
from games.tournaments.models import Entry, Round, Table, Tournament
from tests.games.tournaments.helpers import people, play_round, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def sweeps(clock, committed, hours: float) -> None:
    clock.shift(timedelta(hours=hours))
    with committed():
        timeouts.sweep_timeouts()
    with committed():
        tasks.sweep()


def start_now(t: Tournament, committed, clock) -> Tournament:
    clock.move_to(t.starts_at + timedelta(seconds=1))
    with committed():
        tasks.sweep()
    t.refresh_from_db()
    return t


class TestWithdrawal:
    def test_two_players_who_never_move_are_withdrawn_after_two_time_outs(self, alice, committed):
        """Issue 44: a player who never moved was withdrawn after 3 time-outs. When both
        players of a game run out of time, a seat's second time-out can be the move right
        after its first: it is still a second wait."""
        players = people(4)
        t = tournament(alice, players, rounds=3, move_days=1, round_days=7)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            games = [tb.game for tb in Table.objects.filter(round__tournament=t, bye=False)]
            # The first time-outs in seat order, the second in the other order: the last
            # seat's second time-out is then the move right after its first.
            for order in ((0, 1), (1, 0)):
                clock.shift(timedelta(hours=25))
                for game in games:
                    for number in order:
                        seat = Seat.objects.get(game=game, number=number)
                        with committed():
                            timeouts.do_time_out(game.pk, number, seat.wait_version)
                if order == (0, 1):
                    with committed():
                        tasks.sweep()
                    assert set(services.timeouts(t).values()) == {1}
                    assert not Entry.objects.filter(tournament=t, status="withdrawn").exists()
            with committed():
                tasks.sweep()
        counts = services.timeouts(t)
        assert set(counts.values()) == {2}
        assert Entry.objects.filter(tournament=t, status="withdrawn").count() == 4
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED


class TestWins:
    def test_a_draw_and_a_shared_first_place_are_no_wins(self):
        results = [
            TableResult(1, {1: 1, 2: 1}),  # a draw at two
            TableResult(2, {1: 1, 3: 1, 4: 3}),  # first shared at three
            TableResult(3, {1: 1, 2: 2}),  # won
        ]
        rows = {r.player: r for r in standings([1, 2, 3, 4], results)}
        assert rows[1].wins == 1
        assert rows[2].wins == rows[3].wins == rows[4].wins == 0
        assert rows[1].points == Fraction(1, 2) + Fraction(3, 4) + 1


class TestVacations:
    def test_a_round_deadline_is_not_moved_by_a_vacation(self, alice, committed):
        """A vacation pushes back its player's time per move (no time-out, so no
        withdrawal), not the round's deadline: the game is adjudicated then, as for
        everyone else at the tables; the organiser may extend the round instead."""
        players = people(4)
        t = tournament(alice, players, rounds=2, move_days=1, round_days=3)
        away = players[3]
        rand = random.Random(4)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            vacations.do_start_vacation(away, 10)
            play_round(t, committed, rand, absent={away.pk})
            for _ in range(3):
                sweeps(clock, committed, 25)
        entry = Entry.objects.get(tournament=t, user=away)
        table = next(
            tb
            for tb in Table.objects.filter(round__tournament=t, round__number=1)
            if entry.pk in tb.entries
        )
        assert table.decided and table.decided_by == "deadline"
        assert entry.status == Entry.Status.ACTIVE and services.timeouts(t).get(entry.pk, 0) == 0
        assert not Seat.objects.filter(user=away, consecutive_timeouts__gt=0).exists()
        assert Round.objects.filter(tournament=t, number=2).exists()


class Reversed:
    """A draw of seats that always puts the players the other way round."""

    def shuffle(self, users):
        users.reverse()


class TestSeatOrder:
    def test_first_seats_are_shared_over_a_swiss(self, alice, committed, monkeypatch):
        """Issue 44: starting a game drew its seats at random; a tournament now gives them
        so that everyone moves first about as often as second. The draw is made to put the
        players the wrong way round every time: the tournament's order must win."""
        from games.play import invitations

        monkeypatch.setattr(invitations, "seat_random", Reversed())
        players = people(6)
        t = tournament(alice, players, rounds=4)
        rand = random.Random(7)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            for _ in range(4):
                play_round(t, committed, rand)
                t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        by_entry = dict(Entry.objects.filter(tournament=t).values_list("pk", "user_id"))
        for table in Table.objects.filter(round__tournament=t, round__number=1):
            seated = Seat.objects.filter(game=table.game).order_by("number")
            assert [s.user_id for s in seated] == [by_entry[p] for p in table.entries]
        for user in players:
            seats = list(
                Seat.objects.filter(
                    user=user, game__tournament_table__round__tournament=t
                ).values_list("number", flat=True)
            )
            assert len(seats) == 4 and 1 <= seats.count(0) <= 3, (user, seats)

    def test_a_round_robin_at_two_keeps_bergers_order(self, alice, committed, monkeypatch):
        from games.play import invitations
        from games.tournaments.formats import round_robin

        monkeypatch.setattr(invitations, "seat_random", Reversed())

        players = people(4)
        t = tournament(alice, players, format="round_robin", rounds=0, max_players=24)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
        first = Table.objects.get(round__tournament=t, round__number=1, number=1)
        expected = round_robin.berger(services.stage_players(t))[0][0]
        by_entry = dict(Entry.objects.filter(tournament=t).values_list("pk", "user_id"))
        seats = Seat.objects.filter(game=first.game).order_by("number")
        assert [s.user_id for s in seats] == [by_entry[p] for p in expected]
