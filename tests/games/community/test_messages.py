"""Messages between players (games.community.messages: actions, reads, pages, the API): one
conversation per pair, read by its two players alone; blocking in every path; the limits;
text refused with nothing stored; the unread count in the header, read without a query."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.forms import ProfileForm
from accounts.models import User
from games.community.blocks import actions as blocks
from games.community.messages import actions as pm
from games.community.messages import reads as pm_reads
from games.community.models import Conversation, Message
from games.play import computer_players
from tests.conftest import HTMX, client_for, make_person
from tests.games.api_helpers import Api
from tests.games.helpers import start_game


def conversation_url(c: Conversation) -> str:
    return reverse("accounts:conversation", args=[c.pk])


def write_url(user) -> str:
    return reverse("accounts:message_write", args=[user.username])


def unread(user) -> int:
    return User.objects.get(pk=user.pk).unread_messages


def texts() -> list[str]:
    return list(Message.objects.order_by("pk").values_list("text", flat=True))


class TestSending:
    def test_one_conversation_per_pair_whoever_writes(self, alice, bob):
        first = pm.do_send(alice, bob, "Good game!")
        answer = pm.do_send(bob, alice, "Thanks, another?")

        assert first.conversation_id == answer.conversation_id
        conversation = Conversation.objects.get()
        assert conversation.started_by == alice
        assert conversation.last_message_at == answer.created
        assert texts() == ["Good game!", "Thanks, another?"]

    def test_white_space_around_is_dropped_and_line_breaks_kept(self, alice, bob):
        pm.do_send(alice, bob, "  one\r\ntwo\tthree \n")

        assert texts() == ["one\ntwo\tthree"]

    @pytest.mark.parametrize(
        ("text", "says"),
        [
            ("", "needs some text"),
            (" \n\t\r\n ", "needs some text"),
            ("x" * 2001, r"at most 2000 characters \(this one has 2001\)"),
            ("bell\x07", "control characters"),
            ("nul\x00", "control characters"),
            ("escape\x1b[31m", "control characters"),
            ("lone \ud800 surrogate", "control characters"),
        ],
    )
    def test_bad_text_is_refused_and_nothing_stored(self, alice, bob, text, says):
        with pytest.raises(ValidationError, match=says):
            pm.do_send(alice, bob, text)

        assert not Message.objects.exists()
        assert not Conversation.objects.exists()
        assert unread(bob) == 0

    def test_up_to_2000_characters(self, alice, bob):
        pm.do_send(alice, bob, "x" * 2000)

        assert texts() == ["x" * 2000]

    def test_not_to_oneself(self, alice):
        with pytest.raises(ValidationError, match="cannot write to yourself"):
            pm.do_send(alice, alice, "hello me")
        assert not Message.objects.exists()

    def test_not_to_a_computer_player(self, alice):
        computer = computer_players.account("normal", 1)

        with pytest.raises(ValidationError, match="Computer players do not read messages"):
            pm.do_send(alice, computer, "hello")
        assert not Message.objects.exists()

    def test_not_to_an_account_that_cannot_log_in(self, alice, bob):
        bob.is_active = False
        bob.save(update_fields=["is_active"])

        with pytest.raises(ValidationError, match="You cannot write to Bob."):
            pm.do_send(alice, bob, "hello")

    def test_a_guest_saves_the_account_first(self, alice):
        guest = User.objects.create_user(username="guest_1", is_guest=True)

        with pytest.raises(ValidationError, match="Save your account first"):
            pm.do_send(guest, alice, "hello")


class TestBlocking:
    def test_a_blocked_player_cannot_write_and_is_not_told_why(self, alice, bob):
        blocks.do_block(bob, alice)

        with pytest.raises(ValidationError) as refused:
            pm.do_send(alice, bob, "why?")

        # The same words as for an account nobody can write to: nothing says "blocked".
        assert refused.value.messages == ["You cannot write to Bob."]
        assert not Message.objects.exists()

    def test_not_even_in_a_conversation_they_had(self, alice, bob):
        pm.do_send(alice, bob, "hi")
        blocks.do_block(bob, alice)

        with pytest.raises(ValidationError, match="You cannot write to Bob."):
            pm.do_send(alice, bob, "hello??")
        assert texts() == ["hi"]

    def test_the_blocker_unblocks_to_write(self, alice, bob):
        blocks.do_block(bob, alice)

        with pytest.raises(ValidationError, match="You blocked Alice: unblock them"):
            pm.do_send(bob, alice, "go away")
        blocks.do_unblock(bob, alice)
        pm.do_send(alice, bob, "sorry")
        assert texts() == ["sorry"]

    def test_the_blockers_unread_count_leaves_the_blocked_players_messages_out(self, alice, bob):
        pm.do_send(alice, bob, "one")
        pm.do_send(alice, bob, "two")
        assert unread(bob) == 2

        blocks.do_block(bob, alice)

        assert unread(bob) == 0
        blocks.do_unblock(bob, alice)
        assert unread(bob) == 2

    def test_a_message_that_raced_the_block_is_not_shown_to_the_blocker(self, alice, bob):
        pm.do_send(alice, bob, "before")
        blocks.do_block(bob, alice)
        conversation = Conversation.objects.get()
        # Written as the block was made (the send had checked a moment before).
        Message.objects.create(conversation=conversation, sender=alice, text="raced")

        assert [m.text for m in pm_reads.visible(conversation, bob)] == ["before"]
        assert [m.text for m in pm_reads.visible(conversation, alice)] == ["before", "raced"]
        page = client_for(bob).get(conversation_url(conversation)).content.decode()
        assert "before" in page and "raced" not in page

    def test_the_profile_page_refuses_with_the_same_words(self, alice, bob):
        blocks.do_block(bob, alice)

        page = client_for(alice).get(write_url(bob))
        posted = client_for(alice).post(write_url(bob), {"text": "hello"})

        assert "You cannot write to Bob." in page.content.decode()
        assert posted.status_code == 400
        assert "You cannot write to Bob." in posted.content.decode()
        assert "block" not in posted.content.decode().split("<main", 1)[1].lower()
        assert not Message.objects.exists()

    def test_the_api_refuses_with_the_same_words(self, alice, bob):
        blocks.do_block(bob, alice)

        refused = Api(alice).post("/api/v1/me/messages/", {"to": "bob", "text": "hello"})

        assert refused.status_code == 400
        assert refused.json()["fields"] == {"to": ["You cannot write to Bob."]}
        assert not Message.objects.exists()


class TestNewConversationsADay:
    def test_a_new_account_starts_few(self, alice, bob, charlie, dave, settings):
        settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY = 2
        for other in (bob, charlie):
            pm.do_send(alice, other, "hello")

        with pytest.raises(pm.Limited, match="A new account may start 2 conversations a day"):
            pm.do_send(alice, dave, "hello")
        assert not Conversation.objects.filter(user_b=dave).exists()
        # Answering, or writing again where one wrote before, starts nothing.
        pm.do_send(alice, bob, "again")
        pm.do_send(dave, alice, "hi Alice")
        pm.do_send(alice, dave, "hi Dave")
        assert Message.objects.count() == 5

    def test_an_older_account_starts_more_and_a_day_later_again(
        self, alice, bob, charlie, dave, settings
    ):
        settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY = 1
        settings.CONVERSATIONS_PER_DAY = 2
        User.objects.filter(pk=alice.pk).update(date_joined=timezone.now() - timedelta(days=8))
        alice.refresh_from_db()
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            pm.do_send(alice, bob, "hello")
            pm.do_send(alice, charlie, "hello")
            with pytest.raises(pm.Limited, match="You may start 2 conversations a day") as limited:
                pm.do_send(alice, dave, "hello")
        assert 86_000 < limited.value.retry_after <= 86_401

        with time_machine.travel(start + timedelta(days=1, seconds=1), tick=False):
            pm.do_send(alice, dave, "hello")
        assert Conversation.objects.filter(user_b=dave).exists()

    def test_the_page_answers_429_and_keeps_the_text(self, alice, bob, charlie, settings):
        settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY = 1
        pm.do_send(alice, bob, "hello")

        refused = client_for(alice).post(write_url(charlie), {"text": "hi Charlie"})

        assert refused.status_code == 429
        page = refused.content.decode()
        assert "A new account may start 1 conversation a day" in page
        assert "hi Charlie</textarea>" in page
        assert Message.objects.count() == 1

    def test_the_api_answers_429(self, alice, bob, charlie, settings):
        settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY = 1
        pm.do_send(alice, bob, "hello")

        refused = Api(alice).post("/api/v1/me/messages/", {"to": "charlie", "text": "hi"})

        assert refused.status_code == 429
        assert refused.json()["code"] == "throttled"
        assert "A new account may start 1 conversation a day" in refused.json()["message"]
        assert int(refused["Retry-After"]) > 86_000
        assert Message.objects.count() == 1


class TestThrottles:
    def test_too_many_messages_per_user(self, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "messages": "2/minute"}
        client = client_for(alice)
        for text in ("one", "two"):
            assert client.post(write_url(bob), {"text": text}).status_code == 302

        refused = client.post(write_url(bob), {"text": "three"})

        assert refused.status_code == 429
        assert "Too many requests: try again in" in refused.content.decode()
        assert texts() == ["one", "two"]
        # The API counts with the pages.
        api = Api(alice).post("/api/v1/me/messages/", {"to": "bob", "text": "four"})
        assert api.status_code == 429
        assert texts() == ["one", "two"]

    def test_too_many_messages_per_address(self, alice, bob, charlie, dave, settings):
        settings.API_THROTTLE_RATES = {
            **settings.API_THROTTLE_RATES,
            "messages_address": "3/minute",
        }
        sent = [
            client_for(user).post(write_url(dave), {"text": "hi"}).status_code
            for user in (alice, bob, charlie, alice)
        ]

        assert sent == [302, 302, 302, 429]
        assert Message.objects.count() == 3

    def test_reading_is_not_limited(self, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "messages": "1/minute"}
        conversation = pm.do_send(alice, bob, "hi").conversation
        client = client_for(bob)

        for _ in range(3):
            assert client.get(conversation_url(conversation)).status_code == 200
        assert client.get(reverse("accounts:inbox")).status_code == 200


class TestOnlyTheTwoPlayersRead:
    @pytest.fixture
    def conversation(self, alice, bob) -> Conversation:
        pm.do_send(alice, bob, "a secret between us")
        return Conversation.objects.get()

    def test_the_page_and_its_parts_are_404_for_anyone_else(self, conversation, charlie):
        client = client_for(charlie)
        url = conversation_url(conversation)
        answers = [
            client.get(url),
            client.get(url, {"part": "messages", "after": "0"}, headers=HTMX),
            client.get(url, {"before": "999"}),
            client.post(url, {"text": "let me in"}),
            client.post(url, {"text": "let me in"}, headers=HTMX),
        ]

        assert [a.status_code for a in answers] == [404] * 5
        assert all("a secret between us" not in a.content.decode() for a in answers)
        assert texts() == ["a secret between us"]

    def test_a_visitor_logs_in_first(self, conversation):
        answer = Client().get(conversation_url(conversation))

        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]

    def test_the_api_is_404_for_anyone_else(self, conversation, charlie):
        api = Api(charlie)
        base = f"/api/v1/me/conversations/{conversation.pk}/"

        assert api.get(base).status_code == 404
        assert api.post(base + "read/").status_code == 404
        listed = api.get("/api/v1/me/conversations/").json()
        assert listed["count"] == 0
        assert all("secret" not in r.content.decode() for _m, _p, r in api.responses)

    def test_the_inbox_lists_ones_own_alone(self, conversation, alice, charlie):
        assert (
            "a secret between us"
            in client_for(alice).get(reverse("accounts:inbox")).content.decode()
        )
        page = client_for(charlie).get(reverse("accounts:inbox")).content.decode()
        assert "a secret between us" not in page and "No messages yet" in page

    def test_a_moderators_hidden_message_shows_no_text_anywhere(self, conversation, alice, bob):
        message = Message.objects.get()
        assert pm.hide(message.pk) == 1
        assert pm.hide(message.pk) == 0

        for user in (alice, bob):
            client = client_for(user)
            assert "a secret" not in client.get(conversation_url(conversation)).content.decode()
            assert "a secret" not in client.get(reverse("accounts:inbox")).content.decode()
            data = Api(user).get(f"/api/v1/me/conversations/{conversation.pk}/").json()
            assert data["results"][0] | {"created": None} == {
                "id": message.pk,
                "conversation": conversation.pk,
                "sender": "alice",
                "mine": user == alice,
                "text": "",
                "hidden": True,
                "created": None,
            }
        assert unread(bob) == 0

    def test_only_the_recipient_reports_a_message(self, conversation, alice, bob, charlie):
        message = Message.objects.get()

        assert pm_reads.reportable(bob, str(message.pk)) == (
            message.pk,
            alice,
            "a secret between us",
        )
        assert pm_reads.reportable(alice, str(message.pk)) is None  # one's own
        assert pm_reads.reportable(charlie, str(message.pk)) is None
        assert pm_reads.reportable(bob, "x1") is None
        pm.hide(message.pk)
        assert pm_reads.reportable(bob, str(message.pk)) is None


class TestThePages:
    def test_send_a_message_from_the_profile(self, alice, bob):
        client = client_for(alice)
        profile = client.get(reverse("games:profile", args=["bob"])).content.decode()
        assert f'href="{write_url(bob)}">Send a message</a>' in profile

        form = client.get(write_url(bob))
        assert form.status_code == 200 and "A message to Bob" in form.content.decode()
        sent = client.post(write_url(bob), {"text": "Good game!"})

        conversation = Conversation.objects.get()
        assert sent.status_code == 302
        assert sent["Location"] == conversation_url(conversation) + "#message-form"
        # Once they have a conversation, "Send a message" opens it.
        again = client.get(write_url(bob))
        assert again.status_code == 302 and again["Location"] == sent["Location"]

    def test_no_button_on_ones_own_page_or_a_computers(self, alice):
        computer = computer_players.account("normal", 1)
        client = client_for(alice)

        for user in (alice, computer):
            page = client.get(reverse("games:profile", args=[user.username])).content.decode()
            assert "Send a message" not in page

    def test_the_conversation_oldest_to_newest_in_the_readers_zone(self, alice, bob):
        bob.time_zone = "Asia/Tokyo"
        bob.save()
        written = datetime(2026, 3, 1, 10, 5, tzinfo=UTC)
        with time_machine.travel(written, tick=False):
            pm.do_send(alice, bob, "first")
        with time_machine.travel(written + timedelta(minutes=1), tick=False):
            pm.do_send(bob, alice, "second")
            pm.do_send(alice, bob, "third")
        conversation = Conversation.objects.get()

        page = client_for(bob).get(conversation_url(conversation)).content.decode()

        # Shown newest first in the page's order, which the box (column-reverse) turns into
        # oldest at the top, newest at the bottom beside the form.
        assert page.index("third") < page.index("second") < page.index("first")
        assert "1 Mar 2026, 19:05" in page  # 10:05 UTC in Tokyo
        assert "pm-box" in page and 'id="message-form"' in page
        assert page.index("pm-box") < page.index('id="message-form"')

    def test_text_is_escaped_links_are_links_and_never_html(self, alice, bob):
        pm.do_send(
            alice, bob, "<b>bold</b> <script>alert(1)</script> see https://example.org/x\nok"
        )
        conversation = Conversation.objects.get()

        page = client_for(bob).get(conversation_url(conversation)).content.decode()

        assert "<b>bold</b>" not in page and "<script>alert(1)" not in page
        assert "&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert (
            '<a href="https://example.org/x" rel="nofollow">https://example.org/x</a><br>ok' in page
        )

    def test_htmx_sends_and_answers_the_messages_and_an_empty_form(self, alice, bob):
        conversation = pm.do_send(alice, bob, "hi").conversation
        client = client_for(bob)

        answer = client.post(conversation_url(conversation), {"text": "hello back"}, headers=HTMX)

        assert answer.status_code == 200
        html = answer.content.decode()
        assert 'id="pm-messages"' in html and "hello back" in html
        assert 'hx-swap-oob="true"' in html and "hello back</textarea>" not in html
        assert "<html" not in html
        assert texts() == ["hi", "hello back"]

    @pytest.mark.parametrize("htmx", [True, False])
    def test_bad_text_is_refused_with_a_message_and_kept_in_the_form(self, alice, bob, htmx):
        conversation = pm.do_send(alice, bob, "hi").conversation
        headers = HTMX if htmx else {}

        answer = client_for(bob).post(
            conversation_url(conversation), {"text": "x" * 2001}, headers=headers
        )

        assert answer.status_code == 400
        html = answer.content.decode()
        assert "at most 2000 characters (this one has 2001). Nothing was sent." in html
        if htmx:  # the form in place of the one that sent it
            assert answer["HX-Retarget"] == "#message-form" and "<html" not in html
        assert "x" * 2001 + "</textarea>" in html
        assert texts() == ["hi"]

    def test_a_post_without_text_is_400(self, alice, bob):
        conversation = pm.do_send(alice, bob, "hi").conversation

        answer = client_for(bob).post(conversation_url(conversation), {})

        assert answer.status_code == 400 and texts() == ["hi"]

    def test_the_poll_brings_new_messages_and_204_otherwise(self, alice, bob):
        conversation = pm.do_send(alice, bob, "hi").conversation
        newest = Message.objects.get().pk
        client = client_for(bob)
        poll = {"part": "messages", "after": str(newest)}

        assert client.get(conversation_url(conversation), poll, headers=HTMX).status_code == 204
        pm.do_send(alice, bob, "are you there?")
        answer = client.get(conversation_url(conversation), poll, headers=HTMX)

        assert answer.status_code == 200 and "are you there?" in answer.content.decode()
        assert unread(bob) == 0  # the poll read it

    def test_earlier_messages_a_page_further(self, alice, bob, monkeypatch):
        monkeypatch.setattr(pm_reads, "PAGE", 2)
        # Texts no token of the page (CSRF, nonce) can hold by chance, as "m3" could.
        for text in ("first-of-three", "second-of-three", "third-of-three"):
            conversation = pm.do_send(alice, bob, text).conversation
        client = client_for(bob)

        page = client.get(conversation_url(conversation)).content.decode()
        assert "third-of-three" in page and "second-of-three" in page
        assert "first-of-three" not in page
        earliest = Message.objects.get(text="second-of-three").pk
        older = client.get(conversation_url(conversation), {"before": str(earliest)})
        assert "first-of-three" in older.content.decode()
        assert "third-of-three" not in older.content.decode()

    def test_the_inbox_newest_first_unread_marked(self, alice, bob, charlie):
        pm.do_send(bob, alice, "from bob")
        pm.do_send(charlie, alice, "from charlie")
        pm.do_send(charlie, alice, "again")
        pm.do_send(alice, bob, "my answer")

        page = client_for(alice).get(reverse("accounts:inbox")).content.decode()

        assert page.index("Bob") < page.index("charlie")
        assert "You: my answer" in page  # Alice answered Bob: read
        assert page.count("pm-unread") == 1 and "2 new" in page and "again" in page

    def test_a_message_as_a_guest_to_save_the_account(self, alice):
        guest = User.objects.create_user(username="guest_2", is_guest=True)

        page = client_for(guest).get(write_url(alice)).content.decode()

        assert "Save your account first" in page and "<textarea" not in page


class TestUnreadCount:
    def test_counted_when_sent_and_read_when_opened(self, alice, bob):
        pm.do_send(alice, bob, "one")
        pm.do_send(alice, bob, "two")
        conversation = Conversation.objects.get()
        assert (unread(alice), unread(bob)) == (0, 2)

        client = client_for(bob)
        home = client.get(reverse("accounts:inbox")).content.decode()
        assert "2 unread messages" in home

        client.get(conversation_url(conversation))
        assert unread(bob) == 0
        assert "unread message" not in client.get(reverse("accounts:inbox")).content.decode()

    def test_answering_reads_the_conversation(self, alice, bob):
        conversation = pm.do_send(alice, bob, "one").conversation
        pm.do_send(bob, alice, "answer")

        assert (unread(alice), unread(bob)) == (1, 0)
        assert pm_reads.unread_in(conversation, bob).count() == 0

    def test_the_header_costs_no_query(self, alice, bob):
        pm.do_send(alice, bob, "one")
        client = client_for(bob)
        url = reverse("accounts:api_tokens")
        client.get(url)

        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as with_count:
            page = client.get(url).content.decode()
        User.objects.filter(pk=bob.pk).update(unread_messages=0)
        with CaptureQueriesContext(connection) as without:
            quiet = client.get(url).content.decode()

        assert "1 unread message" in page and "unread message" not in quiet
        assert len(with_count) == len(without) >= 2
        assert not any("accounts_message" in q["sql"] for q in with_count.captured_queries)

    def test_a_cached_page_shows_each_readers_own_count(self, alice, bob, settings):
        settings.PAGE_CACHE_SECONDS = 600
        game = start_game(alice, bob)
        board = reverse("games:board", args=[game.pk])
        client = client_for(bob)
        assert "unread message" not in client.get(board).content.decode()

        pm.do_send(alice, bob, "your move!")
        # The same board from the cache, with the count as of now.
        assert "1 unread message" in client.get(board).content.decode()

    def test_a_settings_form_saving_the_user_keeps_the_count(self, alice, bob):
        stale = User.objects.get(pk=bob.pk)  # read before the message came
        pm.do_send(alice, bob, "hello")

        form = ProfileForm(
            {"display_name": "Bobby", "time_zone": "UTC", "language": "", "turn_emails": "never"},
            instance=stale,
        )
        assert form.is_valid(), form.errors
        form.save()
        stale.save()

        assert unread(bob) == 1
        assert User.objects.get(pk=bob.pk).display_name == "Bobby"

    def test_the_api_marks_read(self, alice, bob):
        conversation = pm.do_send(alice, bob, "one").conversation
        api = Api(bob)
        assert api.get("/api/v1/me/").json()["unread_messages"] == 1

        listed = api.get("/api/v1/me/conversations/").json()
        assert listed["results"][0]["unread"] == 1
        # Reading through the API marks nothing: it is said with POST .../read/.
        api.get(f"/api/v1/me/conversations/{conversation.pk}/")
        assert unread(bob) == 1
        marked = api.post(f"/api/v1/me/conversations/{conversation.pk}/read/")

        assert marked.status_code == 200 and marked.json() == {"unread_messages": 0}
        assert unread(bob) == 0
        assert api.get("/api/v1/me/conversations/").json()["results"][0]["unread"] == 0


class TestTheApi:
    def test_send_list_read(self, alice, bob):
        api = Api(alice)

        sent = api.post("/api/v1/me/messages/", {"to": "bob", "text": "Good game!"})

        assert sent.status_code == 201
        message = Message.objects.get()
        assert sent.json() | {"created": None} == {
            "id": message.pk,
            "conversation": message.conversation_id,
            "sender": "alice",
            "mine": True,
            "text": "Good game!",
            "hidden": False,
            "created": None,
        }
        pm.do_send(bob, alice, "Thanks!")
        listed = api.get("/api/v1/me/conversations/").json()
        assert listed["count"] == 1
        assert listed["results"][0] | {"last_message_at": None} == {
            "id": message.conversation_id,
            "username": "bob",
            "name": "Bob",
            "unread": 1,
            "last_message_at": None,
        }
        read = api.get(f"/api/v1/me/conversations/{message.conversation_id}/").json()
        assert [m["text"] for m in read["results"]] == ["Thanks!", "Good game!"]

    def test_paginated(self, alice, bob):
        for n in range(3):
            conversation = pm.do_send(alice, bob, f"m{n}").conversation
        api = Api(bob)
        url = f"/api/v1/me/conversations/{conversation.pk}/"

        first = api.get(url, page_size="2").json()
        second = api.get(url, page_size="2", page="2").json()

        assert first["count"] == 3
        assert [m["text"] for m in first["results"]] == ["m2", "m1"]
        assert [m["text"] for m in second["results"]] == ["m0"]
        assert api.get(url, page="9").status_code == 404  # past the last page

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"to": "bob", "text": "   "}, "text"),
            ({"to": "bob", "text": "x" * 2001}, "text"),
            ({"to": "bob", "text": "a\x07b"}, "text"),
            ({"to": "bob", "text": 7}, "text"),
            ({"to": "nobody", "text": "hi"}, "to"),
            ({"to": "alice", "text": "hi"}, "to"),
            ({"text": "hi"}, "to"),
        ],
    )
    def test_refused_and_nothing_stored(self, alice, bob, body, field):
        refused = Api(alice).post("/api/v1/me/messages/", body)

        assert refused.status_code == 400
        assert field in refused.json()["fields"]
        assert not Message.objects.exists()

    def test_not_found(self, alice):
        api = Api(alice)
        assert api.get("/api/v1/me/conversations/999999/").status_code == 404
        assert api.post("/api/v1/me/conversations/999999/read/").status_code == 404


class TestQueries:
    """The pages' queries do not grow with what they list (zulip's counted queries)."""

    def queries(self, client, url) -> int:
        connection.queries_log.clear()  # a full log (9000) would count nothing
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        assert len(captured) >= 3  # the session, the user, the page's own
        return len(captured)

    def test_the_inbox_reads_a_page_of_conversations_in_the_same_queries(self, alice, db):
        client = client_for(alice)
        url = reverse("accounts:inbox")
        others = [make_person(f"p{n}") for n in range(12)]
        for other in others[:2]:
            pm.do_send(other, alice, "hi")
        client.get(url)  # a first request stores what the browser asks for
        few = self.queries(client, url)
        for other in others[2:]:
            pm.do_send(other, alice, "hi")
            pm.do_send(alice, other, "hello")

        assert self.queries(client, url) == few

    def test_a_conversation_reads_its_messages_in_the_same_queries(self, alice, bob):
        for n in range(2):
            conversation = pm.do_send(bob, alice, f"m{n}").conversation
        client = client_for(alice)
        url = conversation_url(conversation)
        self.queries(client, url)  # read: the next ones write nothing
        few = self.queries(client, url)
        for n in range(30):
            pm.do_send(bob if n % 2 else alice, alice if n % 2 else bob, f"more {n}")
        client.get(url)

        assert self.queries(client, url) == few


class TestReportedToTheModerators:
    def test_the_recipient_reports_a_message_and_a_moderator_hides_it(self, alice, bob, charlie):
        from games.community.moderation import actions
        from games.play.errors import NotFound

        conversation = pm.do_send(alice, bob, "buy cheap pills").conversation
        message = Message.objects.get()
        with pytest.raises(NotFound):  # not a message of theirs
            actions.do_report(charlie, "message", str(message.pk), "spam")
        report = actions.do_report(bob, "message", str(message.pk), "spam")
        assert (report.author, report.text) == (alice, "buy cheap pills")

        moderator = make_person("mod", is_staff=True)
        assert actions.hide(moderator, report)

        assert Message.objects.get().hidden
        assert unread(bob) == 0
        for user in (alice, bob):
            page = client_for(user).get(conversation_url(conversation)).content.decode()
            assert "buy cheap pills" not in page
            assert "hidden by the moderators" in page
