"""Nobody loses on time during maintenance (games.play.maintenance): the sweeps of time-outs
and reminders and the computer players wait while it is on, and when it ends every clock
waiting through it is extended by the time it stood still."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command

from games.models import Move, Seat
from games.notifications.events import sweep_reminders
from games.notifications.models import Notification
from games.play import computer_moves, vacations
from games.play.timeouts import sweep_timeouts
from guildhall_site.upkeep import maintenance
from tests.games.helpers import deadline_of, seat_to_move, start_game

pytestmark = pytest.mark.usefixtures("seats_in_order")

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
SECOND, HOUR, DAY = timedelta(seconds=1), timedelta(hours=1), timedelta(days=1)


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


class TestTimeOuts:
    def test_a_deadline_that_fell_in_the_window_moves_back_by_its_length(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        assert deadline_of(game) == T0 + DAY
        clock.move_to(T0 + 12 * HOUR)
        call_command("maintenance", "on")

        clock.move_to(T0 + DAY + HOUR)  # the deadline has passed, inside the window
        assert sweep_timeouts() == 0
        assert sweep_reminders() == 0
        clock.move_to(T0 + 2 * DAY)  # 36 hours of maintenance
        call_command("maintenance", "off")

        # 12 hours of clock before the window, 12 left after it.
        assert deadline_of(game) == T0 + 2 * DAY + 12 * HOUR
        clock.move_to(T0 + 2 * DAY + SECOND)
        assert sweep_timeouts() == 0
        assert not Move.objects.filter(game=game).exists()
        clock.move_to(T0 + 2 * DAY + 12 * HOUR + SECOND)
        assert sweep_timeouts() == 1

    def test_the_window_still_counts_when_a_vacation_computes_the_deadline_again(
        self, clock, alice, bob
    ):
        game = start_game(alice, bob, move_days=2)
        clock.move_to(T0 + DAY)
        maintenance.switch_on()
        clock.move_to(T0 + DAY + 6 * HOUR)
        call_command("maintenance", "off")
        assert deadline_of(game) == T0 + 2 * DAY + 6 * HOUR

        vacations.do_start_vacation(alice, days=1)  # from now: one more day
        assert deadline_of(game) == T0 + 3 * DAY + 6 * HOUR

    def test_a_sweep_that_ran_before_the_clocks_were_extended_times_out_nobody(
        self, clock, alice, bob
    ):
        game = start_game(alice, bob, move_days=1)
        clock.move_to(T0 + 12 * HOUR)
        maintenance.switch_on()
        clock.move_to(T0 + 2 * DAY)
        maintenance.switch_off()  # (the clocks not yet extended: a sweep comes first)

        assert sweep_timeouts() == 0  # it finds the window itself (clocks.deadline_for)
        assert deadline_of(game) == T0 + 2 * DAY + 12 * HOUR

    def test_a_wait_begun_after_the_window_is_not_extended(self, clock, alice, bob):
        clock.move_to(T0 - DAY)
        maintenance.switch_on()
        clock.move_to(T0 - DAY + HOUR)
        maintenance.switch_off()
        clock.move_to(T0)

        game = start_game(alice, bob, move_days=1)

        assert deadline_of(game) == T0 + DAY


class TestComputerPlayers:
    def test_they_wait_for_the_end_of_maintenance(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        Seat.objects.filter(pk=seat_to_move(game).pk).update(computer_level="normal")
        maintenance.switch_on()

        assert computer_moves.play_computer_turn(game.pk, game.version) is False
        clock.move_to(T0 + HOUR)
        assert computer_moves.sweep_computer_turns() == 0

        maintenance.switch_off()
        assert computer_moves.play_computer_turn(game.pk, game.version) is True


class TestReminders:
    def test_no_deadline_warning_goes_out_during_maintenance(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        maintenance.switch_on()
        clock.move_to(deadline_of(game) - 30 * timedelta(minutes=1))

        assert sweep_reminders() == 0
        assert not Notification.objects.filter(kind=Notification.Kind.DEADLINE_1H).exists()
