"""Time limits: the sweep that times out expired turns, abandoned seats, vacations."""

import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client

from games.models import Game, Move, Seat, Vacation
from games.play import timeouts, vacations
from games.play.timeouts import sweep_timeouts
from games.reads import clocks, viewing
from games.reads.movelog import TIMEOUT_LINE
from tests import mailserver
from tests.games.helpers import deadline_of, players_only, start_game, to_move, wait_version
from tests.games.notifications.helpers import play_turn
from tests.mailserver import text_of

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
smtp = mailserver.smtp  # the fixture


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def seat(game, number) -> Seat:
    return Seat.objects.get(game=game, number=number)


def expire(clock, game) -> Game:
    """Let the player to move run out of time, and sweep."""
    game.refresh_from_db()
    clock.move_to(deadline_of(game) + timedelta(seconds=1))
    sweep_timeouts()
    game.refresh_from_db()
    return game


class TestTimeOut:
    def test_the_computer_plays_the_whole_turn_of_a_player_out_of_time(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=2)
        assert deadline_of(game) == T0 + timedelta(days=2)

        game = expire(clock, game)

        moves = list(game.moves.all())
        assert moves and all(m.automatic and m.seat == 0 for m in moves)
        assert to_move(game) == 1  # Alice's setup is done; Bob's turn
        assert deadline_of(game) == T0 + timedelta(days=4, seconds=1)
        assert seat(game, 0).consecutive_timeouts == 1

    def test_nothing_happens_before_the_deadline(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        clock.move_to(deadline_of(game) - timedelta(seconds=1))

        assert sweep_timeouts() == 0
        assert not Move.objects.exists()

    def test_a_game_without_a_time_limit_never_times_out(self, clock, alice, bob):
        game = start_game(alice, bob)
        clock.move_to(T0 + timedelta(days=365))

        assert not game.seats.filter(deadline__isnull=False).exists()
        assert sweep_timeouts() == 0

    def test_a_sweep_run_twice_times_out_once(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        clock.move_to(deadline_of(game) + timedelta(seconds=1))

        assert sweep_timeouts() == 1
        assert sweep_timeouts() == 0
        assert seat(game, 0).consecutive_timeouts == 1

    def test_a_claim_on_a_version_seen_before_a_move_does_nothing(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        seen = (to_move(game), wait_version(game))
        play_turn(game)  # Alice moves in time
        clock.move_to(T0 + timedelta(days=1, seconds=1))

        assert timeouts.do_time_out(game.pk, *seen) is None
        assert not Move.objects.filter(automatic=True).exists()

    def test_the_board_says_the_computer_played(self, clock, alice, bob):
        game = expire(clock, start_game(alice, bob, move_days=1))
        client = Client()
        client.force_login(bob)

        content = client.get(f"/games/{game.pk}/").content.decode()

        assert TIMEOUT_LINE in content

    def test_a_move_in_time_resets_the_count(self, clock, alice, bob):
        game = expire(clock, start_game(alice, bob, move_days=1))  # Alice: 1
        game = play_turn(game)  # Bob sets up
        game = play_turn(game)  # Alice plays in time

        assert seat(game, 0).consecutive_timeouts == 0


class TestAbandon:
    def test_three_timeouts_in_a_row_in_two_player_game_lose_it(
        self, clock, alice, bob, smtp, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob, move_days=1)
        for _ in range(2):
            game = expire(clock, game)  # Alice runs out of time
            game = play_turn(game, random.Random(3))  # Bob plays
        assert seat(game, 0).consecutive_timeouts == 2

        with django_capture_on_commit_callbacks(execute=True):
            game = expire(clock, game)

        alice_seat = seat(game, 0)
        assert alice_seat.abandoned and alice_seat.consecutive_timeouts == 3
        assert game.status == Game.Status.FINISHED
        assert (alice_seat.rank, seat(game, 1).rank) == (2, 1)
        # One email each: the result (no separate "dropped out" for a game that it ended).
        assert sorted(players_only(m["Subject"]) for m in smtp.messages) == [
            f"[{settings.SITE_NAME}] Game over: Alice vs Bob (you finished 1st)",
            f"[{settings.SITE_NAME}] Game over: Alice vs Bob (you finished 2nd)",
        ]

    def test_with_three_players_the_computer_plays_on_and_the_others_are_told(
        self, clock, alice, bob, charlie, smtp, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob, charlie, move_days=1)
        rand = random.Random(4)
        game = play_turn(game, rand)  # Alice sets up
        for _ in range(3):
            with django_capture_on_commit_callbacks(execute=True):
                game = expire(clock, game)  # Bob runs out of time
            if to_move(game) == 2:
                game = play_turn(game, rand)  # Charlie
            if to_move(game) == 0:
                game = play_turn(game, rand)  # Alice

        bob_seat = seat(game, 1)
        assert bob_seat.abandoned
        assert game.is_active
        told = [m for m in smtp.messages if "dropped out" in m["Subject"]]
        assert sorted(m["To"] for m in told) == [alice.email, charlie.email]
        assert "Bob let their time run out three turns in a row" in text_of(told[0])
        # From now on the computer plays Bob at once, and Bob ranks last at the end.
        state = viewing.game_state(game)
        assert 1 in state.resigned
        while game.is_active:
            game = play_turn(game, rand)
            assert to_move(game) != 1
        assert seat(game, 1).rank == 3


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite has no row locks (CI uses PostgreSQL)"
)
@pytest.mark.django_db(transaction=True)
class TestConcurrentSweeps:
    def test_two_sweeps_at_once_time_out_a_turn_once(self, alice, bob):
        game = start_game(alice, bob, move_days=1)
        barrier = threading.Barrier(2)
        done = []

        def sweep():
            try:
                barrier.wait()
                done.append(sweep_timeouts())
            finally:
                connection.close()

        threads = [threading.Thread(target=sweep) for _ in range(2)]
        with time_machine.travel(deadline_of(game) + timedelta(seconds=1)):
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)

        assert sorted(done) == [0, 1]
        assert seat(game, 0).consecutive_timeouts == 1
        game.refresh_from_db()
        assert game.version == game.moves.count()
        assert game.moves.filter(seat=0, automatic=True).count() == game.moves.count()


class TestPushBack:
    def test_without_vacation_the_deadline_is_the_allowance(self):
        assert clocks.push_back(T0, timedelta(days=2), []) == T0 + timedelta(days=2)

    def test_a_vacation_inside_the_turn_adds_its_length(self):
        periods = [(T0 + timedelta(days=1), T0 + timedelta(days=4))]
        assert clocks.push_back(T0, timedelta(days=2), periods) == T0 + timedelta(days=5)

    def test_a_vacation_going_on_when_the_turn_comes_starts_the_clock_at_its_end(self):
        periods = [(T0 - timedelta(days=1), T0 + timedelta(days=3))]
        assert clocks.push_back(T0, timedelta(days=2), periods) == T0 + timedelta(days=5)

    def test_a_vacation_after_the_deadline_changes_nothing(self):
        periods = [(T0 + timedelta(days=3), T0 + timedelta(days=9))]
        assert clocks.push_back(T0, timedelta(days=2), periods) == T0 + timedelta(days=2)

    def test_vacations_before_the_turn_change_nothing(self):
        periods = [(T0 - timedelta(days=9), T0 - timedelta(days=2))]
        assert clocks.push_back(T0, timedelta(days=2), periods) == T0 + timedelta(days=2)

    def test_two_vacations_both_count(self):
        periods = [
            (T0 + timedelta(days=1), T0 + timedelta(days=2)),
            (T0 + timedelta(days=2, hours=12), T0 + timedelta(days=3)),
        ]
        assert clocks.push_back(T0, timedelta(days=2), periods) == T0 + timedelta(days=3, hours=12)


class TestVacation:
    def test_it_pushes_back_the_deadline_of_the_turn_waiting(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=2)
        clock.move_to(T0 + timedelta(days=1))

        vacations.do_start_vacation(alice, 5)

        game.refresh_from_db()
        assert deadline_of(game) == T0 + timedelta(days=7)

    def test_no_time_out_during_the_vacation(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        vacations.do_start_vacation(alice, 3)
        clock.move_to(T0 + timedelta(days=3, hours=23))

        assert sweep_timeouts() == 0
        clock.move_to(T0 + timedelta(days=4, seconds=1))
        assert sweep_timeouts() == 1
        assert game.moves.filter(automatic=True).exists()

    def test_coming_back_early_gives_the_days_back_and_the_clock_runs(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=2)
        vacations.do_start_vacation(alice, 10)
        clock.move_to(T0 + timedelta(days=3))

        vacations.do_stop_vacation(alice)

        game.refresh_from_db()
        assert deadline_of(game) == T0 + timedelta(days=5)
        assert clocks.time_left(alice) == timedelta(days=18)

    def test_a_turn_coming_during_the_vacation_waits_for_its_end(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=2)
        vacations.do_start_vacation(bob, 4)
        clock.move_to(T0 + timedelta(hours=1))

        game = play_turn(game)  # Alice sets up: Bob's turn, while he is away

        assert to_move(game) == 1
        assert deadline_of(game) == T0 + timedelta(days=6)

    def test_at_most_21_days_a_year(self, clock, alice):
        vacations.do_start_vacation(alice, 15)
        clock.move_to(T0 + timedelta(days=20))

        with pytest.raises(ValidationError, match="6 days"):
            vacations.do_start_vacation(alice, 7)
        vacations.do_start_vacation(alice, 6)
        assert clocks.time_left(alice) == timedelta(0)

    def test_a_vacation_over_new_year_counts_in_each_year(self, alice):
        with time_machine.travel(datetime(2027, 12, 30, tzinfo=UTC), tick=False):
            vacations.do_start_vacation(alice, 10)  # 2 days of 2027, 8 of 2028
            assert clocks.time_left(alice) == timedelta(days=19)
        assert clocks.used_in_year(alice, 2028) == timedelta(days=8)

    def test_one_at_a_time(self, clock, alice):
        vacations.do_start_vacation(alice, 2)
        with pytest.raises(ValidationError):
            vacations.do_start_vacation(alice, 2)


class TestVacationPages:
    def test_start_and_stop_from_the_settings_page(self, clock, alice):
        client = Client()
        client.force_login(alice)

        page = client.get("/accounts/profile/").content.decode()
        assert "Start a vacation now" in page and "21 days" in page

        response = client.post("/vacation/start/", {"days": "3"})
        assert response.status_code == 302
        assert Vacation.objects.get(user=alice).end == T0 + timedelta(days=3)
        page = client.get("/accounts/profile/").content.decode()
        assert "You are on vacation until" in page

        client.post("/vacation/stop/")
        assert clocks.current_vacation(alice) is None

    def test_a_bad_number_of_days_is_refused(self, clock, alice):
        client = Client()
        client.force_login(alice)

        client.post("/vacation/start/", {"days": "30"})
        client.post("/vacation/start/", {"days": "soon"})

        assert not Vacation.objects.exists()

    def test_the_others_see_it_on_the_board(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=2)
        vacations.do_start_vacation(bob, 4)
        client = Client()
        client.force_login(alice)

        content = client.get(f"/games/{game.pk}/").content.decode()

        assert "on vacation until 5 Mar, 12:00" in content
