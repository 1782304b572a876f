"""Notifications whose task was never queued (the broker was down at the commit) are found
again from the games' state by ``sweep_unqueued_notifications``: nothing is lost.

Without ``django_capture_on_commit_callbacks`` the hooks of a change never run here, which is
what a broker that could not be reached does to them.
"""

import json
import logging
import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

from games.models import Game, Seat
from games.notifications.events import UNQUEUED_AFTER, UNQUEUED_WITHIN, sweep_unqueued_notifications
from games.notifications.models import Notification
from games.play import events, invitations, moves
from guildhall_site.celery import app
from tests import mailserver
from tests.games.helpers import (
    deadline_of,
    players_only,
    random_action,
    start_game,
    time_out,
    to_move,
    wait_version,
)
from tests.games.notifications.helpers import play_turn
from tests.live import free_port

Kind = Notification.Kind
T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
LATER = UNQUEUED_AFTER + timedelta(seconds=1)

smtp = mailserver.smtp  # the fixture


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def game(alice, bob, django_capture_on_commit_callbacks, smtp):
    """Started with its emails sent; Alice is to move."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, move_days=3)
    smtp.clear()
    return game


def subjects(smtp) -> list[tuple[str, str]]:
    return sorted((m["To"], players_only(m["Subject"])) for m in smtp.messages)


def sweep(clock) -> int:
    clock.shift(LATER)
    return sweep_unqueued_notifications()


class TestTurns:
    def test_a_turn_whose_task_was_lost_is_emailed(self, clock, game, bob, smtp):
        game = play_turn(game)  # Bob's turn; its task never ran

        assert sweep(clock) == 1

        assert subjects(smtp) == [(bob.email, f"[{settings.SITE_NAME}] Your turn in Alice vs Bob")]
        row = Notification.objects.get(kind=Kind.TURN, user=bob)
        assert (row.game_id, row.turn, row.status) == (game.pk, wait_version(game), "sent")

    def test_a_turn_already_notified_is_left_alone(
        self, clock, game, smtp, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            play_turn(game)
        smtp.clear()

        assert sweep(clock) == 0
        assert sweep(clock) == 0
        assert smtp.messages == []

    def test_it_waits_for_the_events_own_task_first(self, clock, game, smtp):
        play_turn(game)

        assert sweep_unqueued_notifications() == 0  # at once: the task may still come
        assert smtp.messages == []

    def test_a_turn_days_old_is_left_to_the_reminders(self, clock, game, smtp):
        play_turn(game)
        clock.shift(UNQUEUED_WITHIN)

        assert sweep(clock) == 0

    def test_a_player_who_wants_no_turn_emails_gets_none(self, clock, game, bob, smtp):
        bob.turn_emails = bob.TurnEmails.NEVER
        bob.save()
        play_turn(game)

        assert sweep(clock) == 0
        assert not Notification.objects.filter(user=bob, kind=Kind.TURN).exists()


class TestGames:
    def test_a_game_started_while_the_broker_was_down(self, clock, alice, bob, smtp):
        start_game(alice, bob)

        assert sweep(clock) == 1  # not to Bob, whose answer started it

        assert [to for to, _ in subjects(smtp)] == [alice.email]
        assert all("Alice vs Bob has started" in subject for _, subject in subjects(smtp))
        assert sweep(clock) == 0

    def test_a_game_that_ended_while_the_broker_was_down(self, clock, game, alice, bob, smtp):
        moves.do_concede(game.pk, alice)

        assert sweep(clock) == 1  # not to Alice, who ended it herself

        assert [to for to, subject in subjects(smtp) if "Game over" in subject] == [bob.email]

    def test_a_seat_abandoned_while_the_broker_was_down(
        self, clock, alice, bob, charlie, smtp, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            game = start_game(alice, bob, charlie, move_days=1)
        rand = random.Random(3)
        while True:  # Alice times out three times in a row; the others play
            game.refresh_from_db()
            if to_move(game) == 0:
                clock.move_to(deadline_of(game) + timedelta(seconds=1))
                time_out(game)
            else:
                game = play_turn(game, rand)
            if Seat.objects.get(game=game, number=0).abandoned:
                break
        smtp.clear()
        Notification.objects.filter(kind__in=[Kind.ABANDONED, Kind.TURN]).delete()

        sweep(clock)

        dropped = [to for to, subject in subjects(smtp) if "dropped out" in subject.lower()]
        assert dropped == [bob.email, charlie.email]

    def test_an_invitation_made_while_the_broker_was_down(self, clock, alice, bob, smtp):
        invitations.do_create_invitation(alice, invitees=[bob])

        assert sweep(clock) == 1

        [(to, _subject)] = subjects(smtp)
        assert to == bob.email


def _forget_connections() -> None:
    # The producers of eager tasks hold a connection to the broker of the settings: without
    # this, a task "queued" below would go there, not to the broker of the test. (Not
    # app.close(): it also deregisters the app, and a shared task imported later, such as
    # games.play_computer_turn, then never registers with it.)
    app._pool = None
    app.amqp._producer_pool = None


class TestBrokerDown:
    @pytest.fixture
    def broker_down(self, monkeypatch):
        """Celery queues for real, to a Redis where nothing listens."""
        # Django's loggers keep to their own handler: let the test see what they log.
        monkeypatch.setattr(logging.getLogger("django"), "propagate", True)
        saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url", "broker_transport")}
        _forget_connections()
        app.conf.update(
            task_always_eager=False,
            # The settings name the filesystem transport when no Redis is set: it would win
            # over the URL, and "queue" into a folder that rundemo may have left behind.
            broker_transport=None,
            broker_url=f"redis://127.0.0.1:{free_port()}/0",
            broker_connection_timeout=1,
        )
        yield
        _forget_connections()
        app.conf.update(saved)
        events.broker.reset()  # the next test's broker is not taken for away

    def test_a_board_move_stands_and_its_email_comes_from_the_sweep(
        self,
        game,
        bob,
        smtp,
        client,
        alice,
        broker_down,
        caplog,
        django_capture_on_commit_callbacks,
    ):
        client.force_login(alice)
        action = random_action(game, random.Random(1))
        moves = Game.objects.get(pk=game.pk).version
        with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                reverse("games:board_move", args=[game.pk]),
                {"action": json.dumps(action), "version": game.version},
            )
        assert response.status_code == 302
        assert Game.objects.get(pk=game.pk).version == moves + 1
        # Alice ends her turn: Bob's wait begins, and its notice is queued after the commit.
        with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
            game = play_turn(Game.objects.get(pk=game.pk))
        # The queuing failed, was logged, and did not undo the moves.
        assert "games.tasks.notify_turn not queued" in caplog.text
        assert not Notification.objects.filter(user=bob, kind=Kind.TURN).exists()

        # The broker is back; the beat's sweep runs.
        app.conf.update(task_always_eager=True)
        with time_machine.travel(datetime.now(UTC) + LATER):
            assert sweep_unqueued_notifications() == 1

        assert subjects(smtp) == [(bob.email, f"[{settings.SITE_NAME}] Your turn in Alice vs Bob")]
