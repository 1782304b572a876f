"""End to end with a real Celery worker on the real Redis (REDIS_URL) and a real SMTP server.

Skipped where there is no Redis; under CI=true a missing Redis stops the run before any test
(tests/conftest.py), so these always run in CI.
"""

import json
import random
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.conf import settings as django_settings
from django.db import OperationalError

import games.notifications.events  # noqa: F401 (the worker must know the tasks before it starts)
import games.notifications.tasks  # noqa: F401
import games.play.computer_moves  # noqa: F401
from games.core import registry
from games.models import Game, Move, Seat
from games.notifications import emails
from games.notifications.models import Notification
from games.play import invitations, moves
from guildhall_site.celery import app
from tests import mailserver
from tests.games.helpers import players_only, random_action, start_game, to_move
from tests.games.notifications.helpers import play_turn

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis: set REDIS_URL"),
    pytest.mark.usefixtures("seats_in_order"),
]

smtp = mailserver.smtp  # the fixtures
smtp_down = mailserver.smtp_down
Kind = Notification.Kind


QUEUES = list(django_settings.TASK_LANES)


@contextmanager
def running_worker(settings, queues: list[str]):
    """A worker thread consuming ``queues`` from Redis; tasks are really queued, not run
    inline."""
    saved = {
        "task_always_eager": app.conf.task_always_eager,
        "broker_url": app.conf.broker_url,
        "broker_transport_options": app.conf.broker_transport_options,
    }
    app.close()  # forget connections to the broker of the other tests
    app.conf.update(
        task_always_eager=False,
        broker_url=settings.REDIS_URL,
        broker_transport_options={},
    )
    broker().delete(*QUEUES)  # what other tests left
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=20, queues=queues
        ):
            yield app
    finally:
        app.close()
        app.conf.update(saved)


def broker() -> redis.Redis:
    return redis.Redis.from_url(django_settings.REDIS_URL)


@pytest.fixture
def worker(settings):
    """A worker serving every lane (the default one, notices, webhooks, the computer
    players')."""
    with running_worker(settings, QUEUES) as running:
        yield running


def wait_until(condition, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


class TestWorker:
    def test_a_move_emails_the_next_player_through_the_worker(self, worker, alice, bob, smtp):
        # Queued on commit: "game started" to Alice (Bob started it by taking his seat).
        game = start_game(alice, bob)
        smtp.wait_for(1)

        play_turn(game)  # Alice sets up: "your turn" to Bob

        messages = smtp.wait_for(2)
        assert [m["To"] for m in messages[1:]] == [bob.email]
        assert (
            players_only(messages[1]["Subject"])
            == f"[{settings.SITE_NAME}] Your turn in Alice vs Bob"
        )
        wait_until(  # marked sent just after the mail server took it
            lambda: Notification.objects.filter(
                kind=Kind.TURN, user=bob, status=Notification.Status.SENT
            ).exists()
        )

    def test_a_mail_server_that_is_down_makes_the_task_retry(
        self, worker, alice, bob, smtp_down, settings
    ):
        settings.NOTIFICATION_RETRY_SECONDS = 1
        game = start_game(alice, bob, move_days=3)

        game = play_turn(game)  # committed whatever the mail server does

        assert to_move(Game.objects.get(pk=game.pk)) == 1
        wait_until(
            lambda: (
                Notification.objects.filter(kind=Kind.TURN, user=bob, attempts__gte=1)
                .exclude(status=Notification.Status.SENDING)
                .exists()
            )
        )
        smtp_down.start()  # the server comes back; the task's retry delivers
        wait_until(
            lambda: Notification.objects.filter(
                kind=Kind.TURN, user=bob, status=Notification.Status.SENT
            ).exists()
        )
        row = Notification.objects.get(kind=Kind.TURN, user=bob)
        assert row.attempts >= 2
        assert [m["To"] for m in smtp_down.messages if "Your turn" in m["Subject"]] == [bob.email]

    def test_retries_go_on_past_celerys_default_limit(
        self, worker, alice, bob, smtp_down, settings
    ):
        # Celery stops a task after 3 retries unless told otherwise; a mail server down for a
        # while must not leave the email to wait for the next sweep. One task, one email.
        settings.NOTIFICATION_RETRY_SECONDS = 0  # a second between tries (the minimum)
        invitations.do_create_invitation(alice, invitees=[bob])

        invitation = Notification.objects.filter(kind=Kind.INVITATION, user=bob)
        wait_until(lambda: invitation.filter(attempts__gte=6).exists(), timeout=30)
        smtp_down.start()
        wait_until(lambda: invitation.filter(status=Notification.Status.SENT).exists())
        assert [m["To"] for m in smtp_down.messages] == [bob.email]

    def test_a_row_whose_sending_raised_is_tried_again_by_the_tasks_retry(
        self, worker, alice, bob, smtp, settings, monkeypatch, caplog
    ):
        # A database hiccup while deciding the email (or the soft time limit): the task retries
        # after the backoff. No beat runs here, so without the retry the row would wait for
        # the sweep of stalled rows, minutes later.
        settings.NOTIFICATION_RETRY_SECONDS = 1
        prepare, tries = emails.prepare, []

        def hiccup(row, now):
            tries.append(row.pk)
            if len(tries) == 1:
                raise OperationalError("server closed the connection unexpectedly")
            return prepare(row, now)

        monkeypatch.setattr(emails, "prepare", hiccup)
        invitations.do_create_invitation(alice, invitees=[bob])

        invitation = Notification.objects.filter(kind=Kind.INVITATION, user=bob)
        wait_until(lambda: invitation.filter(status=Notification.Status.SENT).exists(), 20)
        assert invitation.get().attempts == 2 and len(set(tries)) == 1
        assert [m["To"] for m in smtp.messages] == [bob.email]
        # The operator sees what raised, with its traceback.
        [told] = [r for r in caplog.records if "the task retries" in r.getMessage()]
        assert told.exc_info and "server closed the connection" in str(told.exc_info[1])


class TestComputerPlayers:
    # The worker's moves and Alice's write the same rows at once: SQLite in memory (the
    # tests' database without DATABASE_URL) refuses that with "table is locked" at once.
    @pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
        reason="needs PostgreSQL: set DATABASE_URL (CI does)",
    )
    def test_the_computers_moves_arrive_through_the_worker(self, worker, alice, settings):
        settings.COMPUTER_BUDGET_MS = 50
        levels = registry.get("guildhall").computer_levels
        invitation = invitations.do_create_invitation(
            alice, players=3, computers=[levels[-1], levels[0]]
        )
        game = Game.objects.get(pk=invitation.game_id)
        mine = Seat.objects.get(game=game, user=alice)
        rand = random.Random(3)

        for _ in range(12):  # Alice's decisions; the two computers answer in the worker
            wait_until(lambda: Seat.objects.filter(pk=mine.pk, deciding=True).exists(), timeout=60)
            game.refresh_from_db()
            moves.do_submit_action(
                game.pk, alice, random_action(game, rand, mine.number), game.version
            )

        computers = Move.objects.filter(game=game).exclude(seat=mine.number)
        assert computers.count() >= 4
        assert {m.seat for m in computers} == {0, 1, 2} - {mine.number}


class TestQueues:
    @pytest.mark.parametrize("flood", ["computer", "webhooks"])
    def test_emails_never_wait_behind_another_lanes_flood(self, settings, alice, bob, smtp, flood):
        """Each lane has a queue and workers of its own: a crowd of computer moves (200
        games against the strong computer once delayed emails by three minutes) or of
        webhook deliveries waiting leaves the emails' worker free."""
        from games.webhooks.tasks import deliver_webhook

        game = start_game(alice, bob)
        smtp.clear()
        with running_worker(settings, [settings.NOTICES_QUEUE]):
            for _ in range(50):
                if flood == "computer":
                    games.play.computer_moves.play_computer_turn.delay(game.pk, game.version)
                else:
                    deliver_webhook.delay(10**9)
            invitations.do_create_invitation(alice, invitees=[bob])

            [invitation] = smtp.wait_for(1, timeout=10)

        assert invitation["To"] == bob.email
        # Not one task of the flood was taken by the emails' worker, nor queued on its lane.
        assert broker().llen(flood) == 50
        left = [json.loads(m)["headers"]["task"] for m in broker().lrange("notices", 0, -1)]
        assert not {"games.play_computer_turn", "games.webhooks.deliver"} & set(left)
        broker().delete(flood)

    def test_each_kind_of_task_has_its_lane(self, settings):
        from guildhall_site.celery import app as celery_app

        def lane(name: str) -> str:
            return celery_app.amqp.router.route({}, name)["queue"].name

        assert {lane(name) for name in celery_app.tasks if not name.startswith("celery.")} <= set(
            settings.TASK_LANES
        )
        assert lane("games.play_computer_turn") == "computer"
        for name in ("game_event", "invitation_event", "deliver"):
            assert lane(f"games.webhooks.{name}") == "webhooks"
        # Every task that tells a person something by email or push.
        for name in (
            "games.tasks.notify_turn",
            "games.tasks.notify_invitation",
            "games.tasks.notify_message",
            "games.tasks.notify_chat",
            "games.notifications.tasks.send_notification",
            "games.moderation.email_notice",
            "tournaments.send_notices",
        ):
            assert lane(name) == "notices", name
        # The clock's work: time-outs and the sweeps, on the default lane with beat.
        for name in (
            "games.tasks.sweep_timeouts",
            "games.tasks.sweep_reminders",
            "games.tasks.sweep_unqueued_notifications",
            "games.webhooks.sweep",
            "games.tasks.send_daily_digests",
        ):
            assert lane(name) == "celery", name

    def test_the_procfile_has_a_worker_for_each_lane_alone(self):
        procfile = Path(django_settings.BASE_DIR, "docs", "Procfile").read_text()
        served = []
        for line in procfile.splitlines():
            words = line.split()
            if "worker" in words and "--queues" in words:
                served.append(words[words.index("--queues") + 1].split(","))
        routed = {route["queue"] for route in django_settings.CELERY_TASK_ROUTES.values()}

        assert sorted(served) == sorted([lane] for lane in django_settings.TASK_LANES)
        assert routed | {"celery"} == set(django_settings.TASK_LANES)


class TestChatNotices:
    def test_lines_are_told_once_a_quarter_hour_through_the_worker(self, worker, alice, bob, smtp):
        from datetime import timedelta

        from django.utils import timezone

        from games.community.chat import actions as chat
        from games.notifications.tasks import sweep_notifications

        game = start_game(alice, bob)
        smtp.wait_for(1)  # "game started" to Alice (Bob started it)
        chat.do_write(game.pk, alice, "first line")  # queues its task on commit

        [told] = [m for m in smtp.wait_for(2)[1:]]
        assert told["To"] == bob.email and "first line" in mailserver.text_of(told)
        rows = Notification.objects.filter(kind=Kind.CHAT, user=bob)
        for text in ("second line", "third line"):
            chat.do_write(game.pk, alice, text)
        wait_until(lambda: rows.filter(status="deferred").exists())
        time.sleep(0.5)
        assert len(smtp.messages) == 2  # the later lines wait for the quarter hour

        # A quarter hour later (the clocks of the rows moved back), the sweep tells the rest.
        earlier = timezone.now() - timedelta(minutes=16)
        rows.filter(status="sent").update(sent_at=earlier)
        rows.filter(status="deferred").update(next_attempt_at=earlier)
        sweep_notifications.delay()

        later = smtp.wait_for(3)[2]
        assert "third line" in mailserver.text_of(later)
        wait_until(lambda: not rows.exclude(status="sent").exists())  # marked just after
        assert sorted(rows.values_list("turn", "status")) == [(1, "sent"), (2, "sent")]
        time.sleep(0.5)
        assert len(smtp.messages) == 3
