"""Notices of messages between players (games.notifications.messages, message_events): the
recipient hears of a new message by email (a real SMTP server) and push as they chose, at most
once a quarter hour per conversation and channel, never while they have the conversation
open, never lost when the mail server or the broker is down a while; nobody but the two
players is ever told of a conversation, and a notice says that conversation's messages
alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.community.blocks import actions as blocks
from games.community.messages import actions as pm
from games.community.models import Conversation
from games.notifications.message_events import SWEEP_AFTER, sweep_unqueued_message_notices
from games.notifications.messages import BATCH
from games.notifications.models import Notification
from games.notifications.tasks import sweep_notifications
from tests.mailserver import html_of, links, path_of, text_of

Kind = Notification.Kind


def message_emails(smtp, to=None) -> list:
    return [
        m
        for m in smtp.messages
        if "sent you" in str(m["Subject"]) and (to is None or m["To"] == to.email)
    ]


def rows(user) -> list[tuple[int, str]]:
    found = Notification.objects.filter(kind=Kind.MESSAGE, user=user, channel="email")
    return [(r.number, r.status) for r in found.order_by("number")]


def reading(conversation: Conversation, user, when) -> None:
    """``user`` has the conversation open at ``when`` (its page marks it read)."""
    field = "a_read_at" if user.pk == conversation.user_a_id else "b_read_at"
    Conversation.objects.filter(pk=conversation.pk).update(**{field: when})


@pytest.fixture
def send(run_hooks):
    """A message sent as the site sends it: its notice queued after the commit (run inline)."""

    def send(sender, recipient, text):
        return run_hooks(pm.do_send, sender, recipient, text)

    return send


class TestTheEmail:
    def test_a_message_reaches_its_recipient_and_nobody_else(
        self, alice, bob, charlie, smtp, send, settings
    ):
        message = send(alice, bob, "Good game! <3 see https://example.org/replay")

        [email] = smtp.messages
        assert email["To"] == bob.email
        assert email["Subject"] == f"[{settings.SITE_NAME}] Alice sent you a message"
        text = text_of(email)
        assert "Alice wrote: Good game! <3 see https://example.org/replay" in text
        assert "Good game! &lt;3" in html_of(email)
        link = next(u for u in links(text) if "/messages/" in u)
        assert path_of(link, settings.SITE_URL) == reverse(
            "accounts:conversation", args=[message.conversation_id]
        )
        assert "/emails/unsubscribe/" in text
        assert email["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert rows(alice) == [] and rows(charlie) == []

    def test_its_link_opens_the_conversation_for_the_recipient_alone(
        self, alice, bob, charlie, smtp, send, settings
    ):
        send(alice, bob, "only for Bob")
        link = next(u for u in links(text_of(smtp.messages[0])) if "/messages/" in u)
        path = path_of(link, settings.SITE_URL)

        for user, status in ((bob, 200), (charlie, 404)):
            client = Client()
            client.force_login(user)
            assert client.get(path).status_code == status

    def test_each_conversation_its_own_notice_with_its_own_messages(
        self, alice, bob, charlie, smtp, send
    ):
        send(alice, bob, "from Alice")
        send(charlie, bob, "from Charlie")

        first, second = message_emails(smtp, bob)
        assert "from Alice" in text_of(first) and "from Charlie" not in text_of(first)
        assert "from Charlie" in text_of(second) and "from Alice" not in text_of(second)
        assert message_emails(smtp, alice) == message_emails(smtp, charlie) == []

    def test_one_notice_a_quarter_hour_then_every_unread_message(self, alice, bob, smtp, send):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            send(alice, bob, "first")
        with time_machine.travel(start + timedelta(minutes=1), tick=False):
            send(alice, bob, "second")
        with time_machine.travel(start + timedelta(minutes=2), tick=False):
            send(alice, bob, "third")
            sweep_notifications()
        with time_machine.travel(start + timedelta(minutes=14), tick=False):
            sweep_notifications()
        assert len(message_emails(smtp)) == 1

        with time_machine.travel(start + BATCH + timedelta(seconds=30), tick=False):
            sweep_notifications()
            sweep_notifications()  # a second sweep sends nothing more

        first, later = message_emails(smtp)
        assert "first" in text_of(first) and "second" not in text_of(first)
        assert later["Subject"] == f"[{settings.SITE_NAME}] Alice sent you 3 messages"
        assert "second" in text_of(later) and "third" in text_of(later)
        assert rows(bob) == [(1, "sent"), (2, "sent")]

    def test_never_while_the_recipient_has_the_conversation_open(self, alice, bob, smtp, send):
        conversation = send(alice, bob, "hello").conversation
        smtp.clear()
        start = timezone.now()
        with time_machine.travel(start + BATCH + timedelta(minutes=1), tick=False):
            now = timezone.now()
            reading(conversation, bob, now - timedelta(seconds=10))  # the page's poll
            send(alice, bob, "are you there?")
        assert message_emails(smtp) == []
        assert rows(bob)[-1] == (2, "deferred")

        # Bob reads it on the page, then leaves: nothing to tell him.
        with time_machine.travel(start + BATCH + timedelta(minutes=2), tick=False):
            client = Client()
            client.force_login(bob)
            client.get(reverse("accounts:conversation", args=[conversation.pk]))
        with time_machine.travel(start + BATCH + timedelta(minutes=20), tick=False):
            sweep_notifications()
        assert message_emails(smtp) == []
        assert rows(bob)[-1] == (2, "skipped")

    def test_sent_once_they_left_without_reading(self, alice, bob, smtp, send):
        conversation = send(bob, alice, "hi Alice").conversation  # Bob wrote: he was there
        start = timezone.now()
        with time_machine.travel(start + timedelta(minutes=1), tick=False):
            send(alice, bob, "hello?")
        assert message_emails(smtp, bob) == []
        with time_machine.travel(start + timedelta(minutes=6), tick=False):
            sweep_notifications()

        [email] = message_emails(smtp, bob)
        assert "hello?" in text_of(email)
        assert conversation.pk == Conversation.objects.get().pk

    def test_not_for_a_recipient_who_turned_them_off(self, alice, bob, smtp, send):
        bob.message_emails = False
        bob.save()

        send(alice, bob, "hi")

        assert smtp.messages == []
        assert not Notification.objects.filter(kind=Kind.MESSAGE).exists()

    def test_the_unsubscribe_link_turns_them_off(self, alice, bob, smtp, send, settings):
        send(alice, bob, "hi")
        link = next(u for u in links(text_of(smtp.messages[0])) if "/unsubscribe/" in u)

        page = Client().get(path_of(link, settings.SITE_URL))
        assert "emails about messages other players send you" in page.content.decode()
        Client().post(path_of(link, settings.SITE_URL))

        assert not User.objects.get(pk=bob.pk).message_emails

    def test_not_for_a_guest(self, alice, smtp, send):
        guest = User.objects.create_user(username="guest_9", is_guest=True)

        send(alice, guest, "welcome!")

        assert smtp.messages == []

    def test_not_once_the_recipient_blocked_the_writer(self, alice, bob, smtp, send):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            conversation = send(bob, alice, "hi").conversation
            reading(conversation, bob, start)
        with time_machine.travel(start + timedelta(minutes=1), tick=False):
            send(alice, bob, "rude words")  # Bob was there a minute ago: deferred
            blocks.do_block(bob, alice)
        with time_machine.travel(start + timedelta(minutes=10), tick=False):
            sweep_notifications()

        assert message_emails(smtp, bob) == []
        assert rows(bob) == [(1, "skipped")]

    def test_not_for_a_message_a_moderator_hid_meanwhile(self, alice, bob, smtp, send):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            conversation = send(bob, alice, "hi").conversation
        with time_machine.travel(start + timedelta(minutes=1), tick=False):
            message = send(alice, bob, "buy cheap pills")
            pm.hide(message.pk)
        with time_machine.travel(start + timedelta(minutes=10), tick=False):
            sweep_notifications()

        assert message_emails(smtp, bob) == []
        assert conversation.pk


class TestNeverLost:
    def test_a_mail_server_down_a_while(self, alice, bob, smtp_down, send):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            send(alice, bob, "while the server is down")
        row = Notification.objects.get(kind=Kind.MESSAGE)
        assert row.status == "queued" and row.attempts == 1

        smtp_down.start()
        with time_machine.travel(start + timedelta(minutes=10), tick=False):
            sweep_notifications()
            sweep_notifications()

        [email] = message_emails(smtp_down)
        assert "while the server is down" in text_of(email)
        assert Notification.objects.get(pk=row.pk).status == "sent"

    def test_a_broker_down_at_the_commit(self, alice, bob, smtp):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            pm.do_send(alice, bob, "lost in the broker")  # no hooks: never queued
        assert smtp.messages == []

        with time_machine.travel(start + SWEEP_AFTER + timedelta(seconds=5), tick=False):
            assert sweep_unqueued_message_notices() == 1
            assert sweep_unqueued_message_notices() == 0
        [email] = message_emails(smtp)
        assert email["To"] == bob.email and "lost in the broker" in text_of(email)

    def test_a_sweep_after_which_nothing_was_lost_finds_nothing(self, alice, bob, smtp, send):
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            send(alice, bob, "told at once")
        with time_machine.travel(start + SWEEP_AFTER + timedelta(seconds=5), tick=False):
            assert sweep_unqueued_message_notices() == 0
        assert len(message_emails(smtp)) == 1

    def test_the_task_run_twice_tells_once(self, alice, bob, smtp, send):
        from games.notifications.message_events import notify_message

        message = send(alice, bob, "once")
        notify_message.delay(message.conversation_id)
        notify_message.delay(message.conversation_id)

        assert len(message_emails(smtp)) == 1


class TestPush:
    def test_a_message_reaches_the_recipients_devices_once_a_quarter_hour(
        self, alice, bob, charlie, smtp, push_service, send
    ):
        push_service.device(bob, "phone")
        push_service.device(charlie, "laptop")
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            message = send(alice, bob, "ping")
        with time_machine.travel(start + timedelta(seconds=5), tick=False):
            send(alice, bob, "ping again")

        [push] = push_service.received
        assert push.device == "phone"
        assert push.payload["title"] == "Alice sent you a message"
        assert push.payload["body"] == "ping"
        assert push.payload["url"].endswith(f"/messages/{message.conversation_id}/")
        assert push.payload["tag"] == f"message-{message.conversation_id}"

        with time_machine.travel(start + BATCH + timedelta(seconds=30), tick=False):
            sweep_notifications()
        assert [m.payload["body"] for m in push_service.received] == ["ping", "ping again"]
        assert {m.device for m in push_service.received} == {"phone"}
        assert push_service.errors == []

    def test_off_for_a_player_who_said_so(self, alice, bob, smtp, push_service, send):
        push_service.device(bob, "phone")
        bob.push_message = False
        bob.save()

        send(alice, bob, "ping")

        assert push_service.received == []

    def test_the_push_panel_offers_it(self, bob, push_service):
        client = Client()
        client.force_login(bob)

        page = client.get(reverse("accounts:edit_profile")).content.decode()

        assert "someone sends me a message" in page
