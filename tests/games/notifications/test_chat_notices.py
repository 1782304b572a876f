"""Notices of a game's chat (games.notifications.chat, due._check_chat): the players who are
not looking hear of new lines by email and push, at most once a quarter hour per game and
channel, never while they have the game open; the turn email and the digest say them too; a
notice whose task was lost is found by the sweep, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from games.community.blocks import actions as blocks
from games.community.chat import actions as chat
from games.models import Game, Seat
from games.notifications.due import CHAT_BATCH
from games.notifications.events import UNQUEUED_AFTER, sweep_unqueued_notifications
from games.notifications.models import Notification
from games.notifications.tasks import sweep_notifications
from tests.games.helpers import players_only, start_game
from tests.games.notifications.helpers import play_turn
from tests.mailserver import html_of, text_of

Kind = Notification.Kind

pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def game(alice, bob, run_hooks, smtp) -> Game:
    game = run_hooks(start_game, alice, bob)
    smtp.clear()
    return game


def chat_emails(smtp, to=None) -> list:
    return [
        m
        for m in smtp.messages
        if "wrote in" in str(m["Subject"]) and (to is None or m["To"] == to.email)
    ]


def seen(game: Game, user, when=None) -> None:
    Seat.objects.filter(game=game, user=user).update(last_seen_at=when or timezone.now())


class TestTheEmail:
    def test_a_line_reaches_the_other_player_and_not_its_author(
        self, game, alice, bob, smtp, run_hooks
    ):
        run_hooks(chat.do_write, game.pk, alice, "sorry, away till Monday <3")

        [message] = chat_emails(smtp)
        assert message["To"] == bob.email
        assert (
            players_only(message["Subject"])
            == f"[{settings.SITE_NAME}] Alice wrote in Alice vs Bob"
        )
        assert "Alice wrote: sorry, away till Monday <3" in text_of(message)
        assert "sorry, away till Monday &lt;3" in html_of(message)
        assert "/emails/unsubscribe/" in text_of(message)

    def test_one_notice_a_quarter_hour_then_the_lines_since(
        self, game, alice, bob, smtp, run_hooks
    ):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            run_hooks(chat.do_write, game.pk, alice, "first")
        with time_machine.travel(start + timedelta(minutes=1), tick=False):
            run_hooks(chat.do_write, game.pk, alice, "second")
        with time_machine.travel(start + timedelta(minutes=2), tick=False):
            run_hooks(chat.do_write, game.pk, alice, "third")
            sweep_notifications()
        assert len(chat_emails(smtp)) == 1  # "first" only, so far

        with time_machine.travel(start + timedelta(minutes=14), tick=False):
            sweep_notifications()
        assert len(chat_emails(smtp)) == 1
        with time_machine.travel(start + CHAT_BATCH + timedelta(seconds=30), tick=False):
            sweep_notifications()
            sweep_notifications()  # a second sweep sends nothing more

        first, later = chat_emails(smtp)
        assert "first" in text_of(first) and "second" not in text_of(first)
        assert "New in the chat (3 lines)" in text_of(later)  # all unseen, newest included
        assert "Alice wrote: third" in text_of(later)
        rows = Notification.objects.filter(kind=Kind.CHAT, user=bob).order_by("turn")
        assert [(r.turn, r.status) for r in rows] == [(1, "sent"), (2, "sent")]

    def test_never_while_the_player_looks_at_the_game(self, game, alice, bob, smtp, run_hooks):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            seen(game, bob, start - timedelta(seconds=10))  # the board's poll: Bob is there
            run_hooks(chat.do_write, game.pk, alice, "are you there?")
        assert chat_emails(smtp) == []
        assert Notification.objects.get(kind=Kind.CHAT, user=bob).status == "deferred"

        # Bob reads it on the board, then leaves: nothing to tell him.
        with time_machine.travel(start + timedelta(seconds=20), tick=False):
            seen(game, bob)
        with time_machine.travel(start + timedelta(minutes=10), tick=False):
            sweep_notifications()
        assert chat_emails(smtp) == []
        assert Notification.objects.get(kind=Kind.CHAT, user=bob).status == "skipped"

    def test_deferred_while_looking_sent_when_they_left_without_seeing_it(
        self, game, alice, bob, smtp, run_hooks
    ):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            seen(game, bob, start - timedelta(minutes=1))  # the tab was open a minute ago
            run_hooks(chat.do_write, game.pk, alice, "hello?")
        with time_machine.travel(start + timedelta(minutes=6), tick=False):
            sweep_notifications()
        [message] = chat_emails(smtp)
        assert "hello?" in text_of(message)

    def test_not_for_a_player_who_turned_chat_emails_off(self, game, alice, bob, smtp, run_hooks):
        bob.chat_emails = False
        bob.save()

        run_hooks(chat.do_write, game.pk, alice, "hi")

        assert chat_emails(smtp) == []
        assert not Notification.objects.filter(kind=Kind.CHAT).exists()

    def test_not_for_a_player_who_blocked_the_author(self, game, alice, bob, smtp, run_hooks):
        blocks.do_block(bob, alice)

        run_hooks(chat.do_write, game.pk, alice, "hi")

        assert chat_emails(smtp) == []

    def test_a_spectator_hears_nothing(self, game, alice, bob, charlie, smtp, run_hooks):
        run_hooks(chat.do_write, game.pk, alice, "hi")

        assert [m["To"] for m in chat_emails(smtp)] == [bob.email]

    def test_a_moderator_hid_the_line_before_it_went(self, game, alice, bob, smtp, run_hooks):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            seen(game, bob, start - timedelta(minutes=1))
            line = run_hooks(chat.do_write, game.pk, alice, "buy cheap pills")
        line.hidden = True
        line.save()
        with time_machine.travel(start + timedelta(minutes=6), tick=False):
            sweep_notifications()

        assert chat_emails(smtp) == []


class TestInOtherEmails:
    def test_the_turn_email_says_what_was_written(self, game, alice, bob, smtp, run_hooks):
        bob.chat_emails = False  # the turn email alone says it
        bob.save()
        run_hooks(chat.do_write, game.pk, alice, "your move, take your time")

        run_hooks(play_turn, game)  # Alice sets up: Bob's turn

        [turn] = [m for m in smtp.messages if "Your turn" in str(m["Subject"])]
        assert "Alice wrote: your move, take your time" in text_of(turn)
        assert "your move, take your time" in html_of(turn)

    def test_lines_already_seen_are_not_repeated(self, game, alice, bob, smtp, run_hooks):
        bob.chat_emails = False
        bob.save()
        run_hooks(chat.do_write, game.pk, alice, "old news")
        seen(game, bob, timezone.now() + timedelta(seconds=1))

        with time_machine.travel(timezone.now() + timedelta(minutes=10), tick=False):
            run_hooks(play_turn, game)

        [turn] = [m for m in smtp.messages if "Your turn" in str(m["Subject"])]
        assert "old news" not in text_of(turn)


class TestTheSweep:
    def test_a_line_whose_task_was_lost_is_told_once(self, game, alice, bob, smtp):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            chat.do_write(game.pk, alice, "lost in the broker")  # no hooks: never queued
        assert chat_emails(smtp) == []

        with time_machine.travel(start + UNQUEUED_AFTER + timedelta(seconds=5), tick=False):
            assert sweep_unqueued_notifications() == 1
            assert sweep_unqueued_notifications() == 0
        [message] = chat_emails(smtp)
        assert "lost in the broker" in text_of(message)

    def test_a_sweep_after_which_nothing_was_lost_finds_nothing(
        self, game, alice, bob, smtp, run_hooks
    ):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            run_hooks(chat.do_write, game.pk, alice, "told at once")
        with time_machine.travel(start + UNQUEUED_AFTER + timedelta(seconds=5), tick=False):
            assert sweep_unqueued_notifications() == 0
        assert len(chat_emails(smtp)) == 1


class TestPush:
    def test_a_line_reaches_the_devices_once_a_quarter_hour(
        self, game, alice, bob, smtp, push_service, run_hooks
    ):
        push_service.device(bob, "phone")
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            run_hooks(chat.do_write, game.pk, alice, "ping")
        with time_machine.travel(start + timedelta(seconds=5), tick=False):
            run_hooks(chat.do_write, game.pk, alice, "ping again")

        [message] = push_service.received
        assert message.device == "phone"
        assert message.payload["title"] == "Alice wrote in Guildhall"
        assert message.payload["body"] == "ping"
        assert message.payload["url"].endswith(f"/games/{game.pk}/#chat")

        with time_machine.travel(start + CHAT_BATCH + timedelta(seconds=30), tick=False):
            sweep_notifications()
        assert [m.payload["body"] for m in push_service.received] == ["ping", "ping again"]
        assert push_service.errors == []

    def test_off_for_a_player_who_said_so(self, game, alice, bob, smtp, push_service, run_hooks):
        push_service.device(bob, "phone")
        bob.push_chat = False
        bob.save()

        run_hooks(chat.do_write, game.pk, alice, "ping")

        assert push_service.received == []
