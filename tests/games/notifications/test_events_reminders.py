"""Reminders, weekly reminders, deadline warnings and daily digests, with time travel."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings

from games.models import Seat
from games.notifications.events import send_daily_digests, sweep_reminders
from games.notifications.models import Notification
from games.play import vacations
from tests.games.helpers import players_only, start_game
from tests.games.notifications.helpers import play_turn
from tests.mailserver import text_of

Kind = Notification.Kind
T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def subjects(smtp) -> list[tuple[str, str]]:
    return [
        (m["To"], players_only(m["Subject"].removeprefix(settings.ACCOUNT_EMAIL_SUBJECT_PREFIX)))
        for m in smtp.messages
    ]


class TestReminder:
    def test_it_comes_after_the_chosen_hours_once(self, clock, alice, bob, smtp):
        alice.reminder_after_hours = 12
        alice.save()
        start_game(alice, bob)  # Alice's setup waits

        clock.move_to(T0 + timedelta(hours=11, minutes=59))
        sweep_reminders()
        assert smtp.messages == []

        clock.move_to(T0 + timedelta(hours=12))
        sweep_reminders()
        sweep_reminders()
        clock.move_to(T0 + timedelta(hours=30))
        sweep_reminders()

        assert subjects(smtp) == [
            (alice.email, "Reminder: Alice vs Bob is waiting for you"),
        ]
        assert "has been waiting for your move since Monday 1 March, 12:00" in text_of(
            smtp.messages[0]
        )

    def test_none_without_a_chosen_time(self, clock, alice, bob, smtp):
        start_game(alice, bob, move_days=14)
        clock.move_to(T0 + timedelta(days=3))

        sweep_reminders()

        assert smtp.messages == []

    def test_it_waits_while_the_player_is_on_the_game(self, clock, alice, bob, smtp):
        from games.notifications.tasks import sweep_notifications

        alice.reminder_after_hours = 2
        alice.save()
        game = start_game(alice, bob)
        clock.move_to(T0 + timedelta(hours=3))
        Seat.objects.filter(game=game, user=alice).update(last_seen_at=T0 + timedelta(hours=3))

        sweep_reminders()
        assert smtp.messages == []

        clock.move_to(T0 + timedelta(hours=3, minutes=6))
        sweep_notifications()
        assert [m["To"] for m in smtp.messages] == [alice.email]

    def test_none_during_a_vacation(self, clock, alice, bob, smtp):
        from games.notifications.tasks import sweep_notifications

        alice.reminder_after_hours = 2
        alice.save()
        start_game(alice, bob)
        vacations.do_start_vacation(alice, 2)
        clock.move_to(T0 + timedelta(hours=5))

        sweep_reminders()
        assert smtp.messages == []

        clock.move_to(T0 + timedelta(days=2, minutes=1))
        sweep_notifications()
        assert [m["To"] for m in smtp.messages] == [alice.email]


class TestWeeklyReminder:
    def test_a_game_without_time_limit_reminds_each_week(self, clock, alice, bob, smtp):
        start_game(alice, bob)

        clock.move_to(T0 + timedelta(days=6, hours=23))
        sweep_reminders()
        assert smtp.messages == []
        for day in (7, 8, 14):
            clock.move_to(T0 + timedelta(days=day))
            sweep_reminders()

        assert subjects(smtp) == [
            (alice.email, "Alice vs Bob has waited for you for 1 week"),
            (alice.email, "Alice vs Bob has waited for you for 2 weeks"),
        ]

    def test_a_game_with_a_time_limit_has_none(self, clock, alice, bob, smtp):
        start_game(alice, bob, move_days=14)
        clock.move_to(T0 + timedelta(days=8))

        sweep_reminders()

        assert not [m for m in smtp.messages if "waited" in m["Subject"]]


class TestDeadlineWarnings:
    def test_24_hours_and_1_hour_before(self, clock, alice, bob, smtp):
        start_game(alice, bob, move_days=3)

        for hours in (47, 48, 49, 70, 71, 71.5):
            clock.move_to(T0 + timedelta(hours=hours))
            sweep_reminders()

        assert subjects(smtp) == [
            (alice.email, "24 hours left to move in Alice vs Bob"),
            (alice.email, "1 hour left to move in Alice vs Bob"),
        ]
        assert "your time runs out on Thursday 4 March, 12:00" in text_of(smtp.messages[0])

    def test_a_one_day_game_has_only_the_last_hour_warning(self, clock, alice, bob, smtp):
        start_game(alice, bob, move_days=1)

        for minutes in (1, 60 * 23 + 1):
            clock.move_to(T0 + timedelta(minutes=minutes))
            sweep_reminders()

        assert subjects(smtp) == [(alice.email, "1 hour left to move in Alice vs Bob")]

    def test_in_the_players_time_zone(self, clock, alice, bob, smtp):
        alice.time_zone = "America/New_York"
        alice.save()
        start_game(alice, bob, move_days=2)
        clock.move_to(T0 + timedelta(hours=25))

        sweep_reminders()

        assert "your time runs out on Wednesday 3 March, 07:00" in text_of(smtp.messages[0])

    def test_none_for_a_player_who_turned_them_off(self, clock, alice, bob, smtp):
        alice.deadline_emails = False
        alice.save()
        start_game(alice, bob, move_days=2)
        clock.move_to(T0 + timedelta(hours=47, minutes=30))

        sweep_reminders()

        assert smtp.messages == []


class TestDailyDigest:
    def test_once_a_day_from_seven_in_the_morning_listing_the_games(
        self, clock, alice, bob, charlie, smtp
    ):
        alice.turn_emails = "daily_digest"
        alice.time_zone = "Europe/Berlin"
        alice.save()
        one = start_game(alice, bob)
        two = start_game(alice, charlie, move_days=2)
        smtp.clear()

        clock.move_to(datetime(2027, 3, 2, 5, 59, tzinfo=UTC))  # 06:59 in Berlin
        send_daily_digests()
        assert smtp.messages == []

        clock.move_to(datetime(2027, 3, 2, 6, 0, tzinfo=UTC))
        send_daily_digests()
        clock.move_to(datetime(2027, 3, 2, 20, 0, tzinfo=UTC))
        send_daily_digests()
        assert subjects(smtp) == [(alice.email, "2 games are waiting for your move")]
        text = text_of(smtp.messages[0])
        assert f"/games/{one.pk}/" in text and f"/games/{two.pk}/" in text
        assert "Alice vs charlie" in text and "time runs out Wednesday 3 March, 13:00" in text

        clock.move_to(datetime(2027, 3, 3, 6, 5, tzinfo=UTC))
        send_daily_digests()
        assert len(smtp.messages) == 2

    def test_digest_readers_get_no_email_per_turn(
        self, alice, bob, smtp, django_capture_on_commit_callbacks
    ):
        bob.turn_emails = "daily_digest"
        bob.save()
        with django_capture_on_commit_callbacks(execute=True):
            game = start_game(alice, bob)
            play_turn(game)  # Bob's turn now

        assert [m["To"] for m in smtp.messages if "Your turn" in m["Subject"]] == []
        assert not Notification.objects.filter(kind=Kind.TURN).exists()

    def test_no_digest_when_nothing_waits(self, clock, alice, bob, smtp):
        alice.turn_emails = "daily_digest"
        alice.save()
        clock.move_to(datetime(2027, 3, 2, 9, 0, tzinfo=UTC))

        assert send_daily_digests() == 0
