"""Quiet hours (accounts.quiet_hours): over a night in two time zones, with a clock that
jumps, the sleeper's clocks stand still, their notices wait for the morning, and the other
players see them asleep."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError

from accounts import quiet_hours
from accounts.quiet_hours import QuietHours
from games.notifications.models import Notification
from games.notifications.tasks import sweep_notifications
from games.play import quiet_hours as quiet_actions
from games.play.errors import Limited
from games.play.timeouts import sweep_timeouts
from tests import mailserver
from tests.conftest import client_for
from tests.games.helpers import deadline_of, start_game, to_move
from tests.games.notifications.helpers import play_turn

pytestmark = pytest.mark.usefixtures("seats_in_order")

smtp = mailserver.smtp  # the fixture
T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)  # 13:00 in Berlin, 07:00 in New York


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def sleepers(alice, bob):
    """Alice sleeps 23-07 in Berlin (22:00-06:00 UTC in March), Bob 22-06 in New York
    (03:00-11:00 UTC)."""
    alice.time_zone, bob.time_zone = "Europe/Berlin", "America/New_York"
    alice.save(update_fields=["time_zone"])
    bob.save(update_fields=["time_zone"])
    quiet_actions.do_set_quiet_hours(alice, 23, 7)
    quiet_actions.do_set_quiet_hours(bob, 22, 6)
    return alice, bob


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2027, 3, day, hour, minute, tzinfo=UTC)


class TestNights:
    def test_a_night_follows_the_zone_and_its_summer_time(self):
        berlin = QuietHours(23, 7, "Europe/Berlin")
        assert quiet_hours.nights(berlin, at(1, 12), at(2, 12)) == [(at(1, 22), at(2, 6))]
        # The clocks go forward in the night of 27 to 28 March: that night is 7 hours.
        assert quiet_hours.nights(berlin, at(27, 12), at(28, 12)) == [(at(27, 22), at(28, 5))]

    def test_asleep_until_the_end_of_the_night(self):
        new_york = QuietHours(22, 6, "America/New_York")
        assert quiet_hours.asleep_until(new_york, at(2, 2, 59)) is None
        assert quiet_hours.asleep_until(new_york, at(2, 3)) == at(2, 11)
        assert quiet_hours.asleep_until(new_york, at(2, 10, 59)) == at(2, 11)
        assert quiet_hours.asleep_until(new_york, at(2, 11)) is None


class TestLimits:
    def test_at_most_ten_hours(self, clock, alice):
        with pytest.raises(ValidationError):
            quiet_actions.do_set_quiet_hours(alice, 21, 8)
        with pytest.raises(ValidationError):
            quiet_actions.do_set_quiet_hours(alice, 23, None)
        alice.refresh_from_db()
        assert alice.quiet_from is None

    def test_changed_at_most_once_a_day(self, clock, alice):
        quiet_actions.do_set_quiet_hours(alice, 23, 7)
        with pytest.raises(Limited):
            quiet_actions.do_set_quiet_hours(alice, 0, 8)
        clock.move_to(T0 + timedelta(days=1))
        quiet_actions.do_set_quiet_hours(alice, 0, 8)
        alice.refresh_from_db()
        assert (alice.quiet_from, alice.quiet_until) == (0, 8)

        quiet_actions.do_set_quiet_hours(alice, None, None)  # off: at any time
        with pytest.raises(Limited):
            quiet_actions.do_set_quiet_hours(alice, 0, 8)  # but not straight back on
        alice.refresh_from_db()
        assert alice.quiet_from is None


class TestClocks:
    def test_deadlines_stand_still_through_each_players_night(self, clock, sleepers):
        alice, bob = sleepers
        game = start_game(alice, bob, move_days=1)
        # 10 hours until her night at 22:00 UTC, then 14 from 06:00.
        assert deadline_of(game) == at(2, 20)

        clock.move_to(T0 + timedelta(hours=1))
        game = play_turn(game)
        assert to_move(game) == 1
        # Bob's turn from 13:00 UTC: 14 hours until his night at 03:00, 10 from 11:00.
        assert deadline_of(game) == at(2, 21)

        clock.move_to(at(2, 20, 59))
        assert sweep_timeouts() == 0  # a clock without nights would have run out at 13:00
        clock.move_to(at(2, 21, 0) + timedelta(seconds=1))
        assert sweep_timeouts() == 1
        assert game.moves.filter(automatic=True, seat=1).exists()

    def test_setting_quiet_hours_moves_the_deadline_of_a_waiting_turn(self, clock, alice, bob):
        game = start_game(alice, bob, move_days=1)
        assert deadline_of(game) == T0 + timedelta(days=1)

        quiet_actions.do_set_quiet_hours(alice, 2, 12)  # UTC: 02:00 to 12:00

        game.refresh_from_db()
        assert deadline_of(game) == T0 + timedelta(days=1, hours=10)


class TestNotices:
    def test_notices_wait_for_the_morning_and_come_once(self, clock, sleepers, smtp, run_hooks):
        alice, bob = sleepers
        clock.move_to(at(1, 22, 30))  # 23:30 in Berlin, 17:30 in New York
        run_hooks(start_game, alice, bob, move_days=3)

        assert alice.email not in [m["To"] for m in smtp.messages]
        assert not Notification.objects.filter(user=bob, status=Notification.Status.DEFERRED)
        held = Notification.objects.filter(user=alice, status=Notification.Status.DEFERRED)
        assert held.exists() and {r.next_attempt_at for r in held} == {at(2, 6)}

        clock.move_to(at(2, 5, 59))
        sweep_notifications()
        assert alice.email not in [m["To"] for m in smtp.messages]

        clock.move_to(at(2, 6, 1))
        sweep_notifications()
        sweep_notifications()
        mine = [m["Subject"] for m in smtp.messages if m["To"] == alice.email]
        assert mine and len(mine) == len(set(mine)) == held.count()

    def test_a_reminder_due_in_the_night_comes_in_the_morning(self, clock, sleepers, smtp):
        from games.notifications.events import sweep_reminders

        alice, bob = sleepers
        alice.reminder_after_hours = 2
        alice.save(update_fields=["reminder_after_hours"])
        clock.move_to(at(1, 20, 30))  # 21:30 in Berlin
        start_game(alice, bob)  # Alice's setup waits
        reminders = Notification.objects.filter(user=alice, kind=Notification.Kind.REMINDER)

        clock.move_to(at(1, 22, 31))  # due, but she sleeps
        sweep_reminders()
        assert [r.next_attempt_at for r in reminders] == [at(2, 6)]
        assert not smtp.to(alice.email)

        clock.move_to(at(2, 6, 1))
        sweep_notifications()
        [reminder] = smtp.to(alice.email)
        assert "Reminder" in reminder["Subject"]
        assert reminders.get().status == Notification.Status.SENT


class TestBoard:
    def test_the_others_see_the_sleeper_asleep_until_morning(self, clock, sleepers):
        alice, bob = sleepers
        game = start_game(alice, bob, move_days=3)
        clock.move_to(at(1, 23))  # Alice's night; Bob (New York) reads times in his zone

        page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
        assert "asleep until 01:00" in page

        clock.move_to(at(2, 6, 30))  # Alice is up; Bob sleeps until 12:00 in Berlin
        page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
        assert "asleep until" not in page
        assert "asleep until 12:00" in client_for(alice).get(f"/games/{game.pk}/").content.decode()


class TestSettings:
    def test_the_settings_page_sets_them_and_refuses_bad_hours(self, clock, alice):
        client = client_for(alice)
        assert 'id="quiet-hours"' in client.get("/accounts/profile/").content.decode()

        answer = client.post("/quiet-hours/", {"start": "21", "end": "9"}, follow=True)
        assert "Quiet hours last from one to 10 hours a day" in answer.content.decode()
        answer = client.post("/quiet-hours/", {"start": "x", "end": "99"})
        assert answer.status_code == 302
        alice.refresh_from_db()
        assert alice.quiet_from is None

        client.post("/quiet-hours/", {"start": "23", "end": "7"})
        alice.refresh_from_db()
        assert (alice.quiet_from, alice.quiet_until) == (23, 7)
