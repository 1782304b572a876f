"""Each notification is sent once: tasks run twice, workers that die, mail servers down."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Game
from games.notifications import delivery, rows
from games.notifications.delivery import Outcome
from games.notifications.events import notify_turn
from games.notifications.models import Notification
from games.notifications.tasks import send_notification, sweep_notifications
from tests.games.helpers import start_game, to_move, wait_version
from tests.games.notifications.helpers import play_turn

Kind = Notification.Kind
Status = Notification.Status


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def bobs_turn(alice, bob) -> Game:
    """Alice has set up: Bob's turn (no hooks ran: each test sends by hand)."""
    return play_turn(start_game(alice, bob, move_days=3))


def turn_row(game, user) -> Notification:
    return Notification.objects.get(kind=Kind.TURN, game=game, user=user)


class TestTwice:
    def test_the_same_task_run_twice_sends_one_email(self, bobs_turn, bob, smtp):
        notify_turn.delay(bobs_turn.pk)
        notify_turn.delay(bobs_turn.pk)

        assert [m["To"] for m in smtp.messages] == [bob.email]
        assert turn_row(bobs_turn, bob).status == Status.SENT

    def test_sending_a_row_twice_sends_it_once(self, bobs_turn, bob, smtp):
        row, created = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))
        assert created

        send_notification.delay(row.pk)
        send_notification.delay(row.pk)
        again, created = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))

        assert not created and again.pk == row.pk
        assert len(smtp.messages) == 1

    def test_a_row_held_by_a_live_worker_is_left_alone(self, bobs_turn, bob, smtp):
        row, _ = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))
        Notification.objects.filter(pk=row.pk).update(
            status=Status.SENDING, lease_until=timezone.now() + timedelta(minutes=5)
        )

        assert delivery.deliver(row.pk) is Outcome.BUSY
        assert sweep_notifications() == 0
        assert smtp.messages == []

    def test_a_queued_row_is_left_to_its_task_until_it_has_stalled(
        self, bobs_turn, bob, smtp, settings
    ):
        settings.NOTIFICATION_STALLED_SECONDS = 90
        row, _ = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))

        with time_machine.travel(row.created + timedelta(seconds=85), tick=False):
            assert sweep_notifications() == 0
        with time_machine.travel(row.created + timedelta(seconds=95), tick=False):
            assert sweep_notifications() == 1

        assert [m["To"] for m in smtp.messages] == [bob.email]
        assert Notification.objects.get(pk=row.pk).status == Status.SENT

    def test_a_row_whose_worker_died_is_sent_after_the_lease_with_the_same_message_id(
        self, bobs_turn, bob, smtp
    ):
        row, _ = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))
        # A worker claimed it and died before the mail server had the email.
        Notification.objects.filter(pk=row.pk).update(
            status=Status.SENDING, attempts=1, lease_until=timezone.now() + delivery.LEASE
        )

        with time_machine.travel(timezone.now() + delivery.LEASE + timedelta(seconds=1)):
            assert sweep_notifications() == 1

        [message] = smtp.messages
        assert message["Message-ID"] == rows.message_id(row)
        row.refresh_from_db()
        assert (row.status, row.attempts) == (Status.SENT, 2)

    def test_a_turn_that_passed_before_sending_is_skipped(self, bobs_turn, bob, smtp):
        row, _ = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))
        play_turn(bobs_turn)  # Bob moved before the email went out

        assert delivery.deliver(row.pk) is Outcome.SKIPPED
        assert smtp.messages == []


class TestMailServerDown:
    def test_the_move_is_committed_and_the_email_waits(
        self, alice, bob, smtp_down, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob, move_days=3)

        with django_capture_on_commit_callbacks(execute=True):
            game = play_turn(game)  # the hook runs; the mail server does not answer

        game.refresh_from_db()
        assert to_move(game) == 1 and game.moves.exists()
        row = turn_row(game, bob)
        assert (row.status, row.attempts) == (Status.QUEUED, 1)
        assert row.next_attempt_at > timezone.now()
        assert "refused" in row.note or "Connection" in row.note

    def test_it_is_sent_once_the_server_is_back(self, bobs_turn, bob, smtp_down):
        notify_turn.delay(bobs_turn.pk)
        row = turn_row(bobs_turn, bob)
        smtp_down.start()

        # Inline (no worker) the sweep retries it, a little after its next attempt was due.
        later = row.next_attempt_at + timedelta(minutes=6)
        with time_machine.travel(later):
            sweep_notifications()
            sweep_notifications()

        assert [m["To"] for m in smtp_down.messages] == [bob.email]
        row.refresh_from_db()
        assert (row.status, row.attempts) == (Status.SENT, 2)

    def test_the_backoff_doubles_up_to_an_hour(self, settings):
        settings.NOTIFICATION_RETRY_SECONDS = 60
        delays = [delivery.backoff(n) for n in range(1, 9)]

        for delay, expected in zip(delays, [60, 120, 240, 480, 960, 1920, 3600, 3600], strict=True):
            assert expected * 0.9 <= delay <= expected * 1.1

    def test_it_gives_up_after_the_last_attempt(self, bobs_turn, bob, smtp_down):
        row, _ = rows.record(Kind.TURN, bob, game=bobs_turn, turn=wait_version(bobs_turn))
        Notification.objects.filter(pk=row.pk).update(attempts=delivery.MAX_ATTEMPTS - 1)

        assert delivery.deliver(row.pk) is Outcome.FAILED
        assert Notification.objects.get(pk=row.pk).status == Status.FAILED

    def test_an_address_the_server_refuses_for_good_is_not_retried(self, bobs_turn, bob, smtp):
        smtp.refuse.add(bob.email)

        notify_turn.delay(bobs_turn.pk)

        row = turn_row(bobs_turn, bob)
        assert (row.status, row.attempts) == (Status.FAILED, 1)
        assert "No such mailbox" in row.note
