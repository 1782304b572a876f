"""Web Push: each device hears of its player's turn, game over and invitations exactly once,
through a real push service on loopback (tests/pushserver.py) that checks the VAPID signature
and decrypts every message with the device's own private key."""

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.utils import timezone
from django.utils.text import Truncator
from py_vapid import Vapid

from accounts.models import User
from games.models import Game, Seat
from games.notifications import delivery, push, push_network, rows
from games.notifications.delivery import Outcome
from games.notifications.events import UNQUEUED_AFTER, notify_turn, sweep_unqueued_notifications
from games.notifications.models import Notification, PushSubscription
from games.notifications.tasks import sweep_notifications
from games.play import events as notify
from games.play import invitations, moves
from games.reads import since
from tests.conftest import PASSWORD
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn
from tests.pushserver import Device, Listener, b64url

Kind = Notification.Kind
Status = Notification.Status
Channel = Notification.Channel


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def game(alice, bob, run_hooks, smtp) -> Game:
    """Alice to set up first: the next turn is Bob's."""
    game = run_hooks(start_game, alice, bob, move_days=3)
    smtp.clear()
    return game


def push_rows(**filters) -> list[Notification]:
    return list(Notification.objects.filter(channel=Channel.PUSH, **filters).order_by("pk"))


def bobs_turn_push_recorded(game: Game, bob, device) -> Notification:
    """Bob's turn comes, and its push to ``device`` is recorded but not sent (no hooks run)."""
    game = play_turn(game)
    row, _ = rows.record(
        Kind.TURN,
        bob,
        game=game,
        turn=Seat.objects.get(game=game, user=bob).wait_version,
        subscription=device.subscription,
    )
    return row


class TestTurnPush:
    def test_it_reaches_the_device_encrypted_and_says_only_the_game_and_a_link(
        self, game, bob, smtp, push_service, run_hooks
    ):
        phone = push_service.device(bob, "phone")

        run_hooks(play_turn, game)  # Alice sets up: Bob's turn

        [message] = push_service.received
        assert message.device == "phone"
        # Then what Alice did since Bob last looked, as his own log says it (games.reads.since).
        told = since.summary(game, Seat.objects.get(game=game, user=bob)).sentence()
        assert told.startswith("Alice ")
        assert message.payload == {
            "title": "Your turn in Guildhall",
            "body": f"Alice vs Bob – game {game.pk}\n{Truncator(told).chars(push.CHAT_BODY)}",
            "url": f"{settings.SITE_URL}/games/{game.pk}/",
            "tag": f"game-{game.pk}",
        }
        assert message.headers["ttl"] == str(push.TTL)
        assert message.headers["topic"] == f"game-{game.pk}"
        assert push_service.errors == []
        [row] = push_rows()
        assert (row.status, row.kind, row.subscription_id) == (
            Status.SENT,
            Kind.TURN,
            phone.subscription.pk,
        )
        phone.subscription.refresh_from_db()
        assert phone.subscription.last_success is not None
        # The email too, as Bob's email preference says.
        assert [m["To"] for m in smtp.messages] == [bob.email]

    def test_a_player_may_choose_push_instead_of_email(
        self, game, bob, smtp, push_service, run_hooks
    ):
        User.objects.filter(pk=bob.pk).update(turn_emails=User.TurnEmails.NEVER)
        push_service.device(bob)

        run_hooks(play_turn, game)

        assert len(push_service.received) == 1
        assert smtp.messages == []

    def test_each_device_gets_it_once_when_the_task_runs_twice(
        self, game, alice, bob, push_service, run_hooks
    ):
        push_service.device(bob, "phone")
        push_service.device(bob, "laptop")
        push_service.device(alice, "alices")  # not her turn

        game = run_hooks(play_turn, game)
        notify_turn.delay(game.pk)
        sweep_notifications()

        assert sorted(r.device for r in push_service.received) == ["laptop", "phone"]
        assert push_service.requests == 2
        assert [r.status for r in push_rows()] == [Status.SENT, Status.SENT]

    def test_the_first_turn_is_pushed_too(self, alice, bob, push_service, run_hooks, smtp):
        # The "game started" email tells the first player to begin; there is no such push.
        push_service.device(alice, "alices")

        game = run_hooks(start_game, alice, bob)

        assert push_service.to("alices")[0]["url"].endswith(f"/games/{game.pk}/")


class TestLostTasks:
    """The broker was down at the commit: the sweep that finds lost emails finds the pushes."""

    @pytest.mark.parametrize("emails", [User.TurnEmails.EACH_TURN, User.TurnEmails.NEVER])
    def test_a_turn_whose_task_was_lost_is_pushed_by_the_sweep(
        self, game, bob, push_service, smtp, emails
    ):
        User.objects.filter(pk=bob.pk).update(turn_emails=emails)
        push_service.device(bob, "phone")
        game = play_turn(game)  # Bob's turn: its hooks never run, as with no broker
        assert push_service.received == [] and push_rows() == []

        with time_machine.travel(timezone.now() + UNQUEUED_AFTER + timedelta(seconds=1)):
            assert sweep_unqueued_notifications() >= 1
            assert sweep_unqueued_notifications() == 0  # found once

        assert [m.device for m in push_service.received] == ["phone"]
        assert len(smtp.messages) == (emails == User.TurnEmails.EACH_TURN)


class TestWhichPushes:
    """The player chooses which kinds reach their devices; emails follow their own choice."""

    def test_turn_pushes_off_means_none_for_a_turn_and_the_email_still(
        self, game, bob, push_service, run_hooks, smtp
    ):
        User.objects.filter(pk=bob.pk).update(push_turn=False)
        push_service.device(bob)

        run_hooks(play_turn, game)

        assert push_service.received == [] and push_rows() == []
        assert [m["To"] for m in smtp.messages] == [bob.email]

    def test_turned_off_after_it_was_recorded_it_is_not_sent(self, game, bob, push_service):
        row = bobs_turn_push_recorded(game, bob, push_service.device(bob))
        User.objects.filter(pk=bob.pk).update(push_turn=False)

        assert delivery.deliver(row.pk) is Outcome.SKIPPED
        assert push_service.requests == 0

    def test_invitations_off_and_game_over_still_on(
        self, alice, bob, charlie, push_service, run_hooks, smtp
    ):
        User.objects.filter(pk=bob.pk).update(push_invitation=False)
        push_service.device(bob, "bobs")
        push_service.device(charlie, "charlies")

        run_hooks(invitations.do_create_invitation, alice, players=3, invitees=[bob, charlie])

        assert [r.device for r in push_service.received] == ["charlies"]
        bob.refresh_from_db()
        assert push.wants(bob, Kind.FINISHED) and not push.wants(bob, Kind.INVITATION)

    def test_the_sweep_of_lost_tasks_respects_it(self, game, bob, push_service, smtp):
        User.objects.filter(pk=bob.pk).update(push_turn=False, turn_emails=User.TurnEmails.NEVER)
        push_service.device(bob)
        play_turn(game)  # its hooks never run

        with time_machine.travel(timezone.now() + UNQUEUED_AFTER + timedelta(seconds=1)):
            assert sweep_unqueued_notifications() == 0

        assert push_service.received == []

    def test_in_the_language_of_the_players_browser(self, game, bob, push_service, run_hooks):
        # No language chosen: the one the browser last asked for, as for emails.
        User.objects.filter(pk=bob.pk).update(language="", browser_language="de")
        push_service.device(bob)

        run_hooks(play_turn, game)

        [message] = push_service.received
        assert message.payload["title"] == "Du bist am Zug in Guildhall"


class TestLookingAtTheGame:
    def test_no_push_when_the_player_saw_the_game_since_the_turn_came(
        self, game, bob, push_service, run_hooks, monkeypatch
    ):
        push_service.device(bob)
        real = notify.turn

        def seen_then_notify(game_id, *known):
            def seen():
                Seat.objects.filter(game_id=game_id, user=bob).update(
                    last_seen_at=timezone.now() + timedelta(seconds=1)
                )

            transaction.on_commit(seen)
            real(game_id, *known)

        monkeypatch.setattr(notify, "turn", seen_then_notify)

        run_hooks(play_turn, game)

        assert push_service.requests == 0
        assert [r.status for r in push_rows()] == [Status.SKIPPED]

    def test_it_waits_while_the_player_was_just_on_the_game_then_sends(
        self, game, bob, push_service, run_hooks
    ):
        push_service.device(bob)
        Seat.objects.filter(game=game, user=bob).update(last_seen_at=timezone.now())

        run_hooks(play_turn, game)  # Bob looked a moment ago, and left before his turn

        assert push_service.requests == 0
        assert [r.status for r in push_rows()] == [Status.DEFERRED]
        with time_machine.travel(timezone.now() + timedelta(minutes=6)):
            sweep_notifications()
        assert len(push_service.received) == 1

    def test_game_over_is_pushed_to_whoever_did_not_see_the_end(
        self, game, alice, bob, push_service, run_hooks
    ):
        while game.status == Game.Status.SETUP:
            game = run_hooks(play_turn, game)
        push_service.device(alice, "alices")
        push_service.device(bob, "bobs")
        # Bob has the board open: seen a minute ago, and by his next poll after the end.
        minute_ago = timezone.now() - timedelta(minutes=1)
        Seat.objects.filter(game=game, user=bob).update(last_seen_at=minute_ago)

        run_hooks(moves.do_concede, game.pk, alice)
        Seat.objects.filter(game=game, user=bob).update(last_seen_at=timezone.now())

        # Alice conceded: she ended the game herself, and hears nothing of it (issue 26.8).
        assert push_service.to("alices") == []
        assert not Notification.objects.filter(kind=Kind.FINISHED, user=alice).exists()
        bobs = Notification.objects.get(kind=Kind.FINISHED, channel=Channel.PUSH, user=bob)
        assert bobs.status == Status.DEFERRED
        with time_machine.travel(timezone.now() + timedelta(minutes=6)):
            sweep_notifications()
        bobs.refresh_from_db()
        assert bobs.status == Status.SKIPPED
        assert push_service.to("bobs") == []


class TestInvitationPush:
    def test_named_invitees_get_it_with_a_link_to_the_lobby(
        self, alice, bob, charlie, push_service, run_hooks, smtp
    ):
        push_service.device(bob, "bobs")
        User.objects.filter(pk=charlie.pk).update(language="de")
        push_service.device(charlie, "charlies")

        run_hooks(invitations.do_create_invitation, alice, players=3, invitees=[bob, charlie])

        assert push_service.to("bobs") == [
            {
                "title": "Invitation to Guildhall",
                "body": "Alice invites you to a game.",
                "url": f"{settings.SITE_URL}/lobby/",
                "tag": push_service.to("bobs")[0]["tag"],
            }
        ]
        # In the player's own language.
        [german] = push_service.to("charlies")
        assert german["title"] == "Einladung zu Guildhall"
        assert german["body"] == "Alice lädt dich zu einer Partie ein."


class TestPushServiceFailing:
    def test_errors_then_recovery_deliver_exactly_once(self, game, bob, push_service, run_hooks):
        push_service.device(bob, "phone")
        push_service.answers = [503, 429]

        run_hooks(play_turn, game)  # 503: queued again

        [row] = push_rows()
        assert (row.status, row.attempts) == (Status.QUEUED, 1)
        assert "503" in row.note and row.next_attempt_at > timezone.now()
        # A duplicate task before the backoff leaves it alone.
        notify_turn.delay(game.pk)
        assert push_service.requests == 1

        for minutes in (10, 20, 40):  # 429, then accepted, then nothing left to do
            with time_machine.travel(timezone.now() + timedelta(minutes=minutes)):
                sweep_notifications()
                sweep_notifications()

        assert [r.device for r in push_service.received] == ["phone"]
        assert push_service.requests == 3
        row.refresh_from_db()
        assert (row.status, row.attempts) == (Status.SENT, 3)

    def test_a_push_service_that_cannot_be_reached_is_tried_again(
        self, game, bob, push_down, run_hooks
    ):
        push_down.device(bob, "phone")

        run_hooks(play_turn, game)

        [row] = push_rows()
        assert (row.status, row.attempts) == (Status.QUEUED, 1)
        assert "cannot be reached" in row.note
        push_down.start()
        with time_machine.travel(row.next_attempt_at + timedelta(minutes=6)):
            sweep_notifications()
        assert [r.device for r in push_down.received] == ["phone"]
        row.refresh_from_db()
        assert row.status == Status.SENT

    def test_it_gives_up_after_the_last_attempt(self, game, bob, push_service):
        device = push_service.device(bob)
        row = bobs_turn_push_recorded(game, bob, device)
        Notification.objects.filter(pk=row.pk).update(attempts=delivery.MAX_ATTEMPTS - 1)
        push_service.answers = [500]

        assert delivery.deliver(row.pk) is Outcome.FAILED
        assert Notification.objects.get(pk=row.pk).status == Status.FAILED
        assert PushSubscription.objects.filter(pk=device.subscription.pk).exists()

    @pytest.mark.parametrize("status", [400, 403, 413])
    def test_a_refusal_for_good_is_not_retried(self, game, bob, push_service, run_hooks, status):
        device = push_service.device(bob)
        push_service.answers = [status]

        run_hooks(play_turn, game)

        [row] = push_rows()
        assert (row.status, row.attempts) == (Status.FAILED, 1)
        assert str(status) in row.note
        assert PushSubscription.objects.filter(pk=device.subscription.pk).exists()


class TestGoneDevices:
    @pytest.mark.parametrize("status", [404, 410])
    def test_a_device_the_push_service_no_longer_knows_is_deleted(
        self, game, bob, push_service, run_hooks, status
    ):
        old = push_service.device(bob, "old")
        push_service.device(bob, "new")
        push_service.answers = [status]  # the first request, to "old" (created first)

        run_hooks(play_turn, game)

        assert [r.device for r in push_service.received] == ["new"]
        assert not PushSubscription.objects.filter(pk=old.subscription.pk).exists()
        gone, sent = push_rows()
        assert (gone.status, gone.subscription_id) == (Status.FAILED, None)
        assert "gone" in gone.note
        assert sent.status == Status.SENT
        # Nothing is tried again for it.
        with time_machine.travel(timezone.now() + timedelta(hours=2)):
            assert sweep_notifications() == 0
        assert push_service.requests == 2

    def test_a_device_taken_over_by_another_player_gets_no_push_of_the_first(
        self, game, bob, charlie, push_service
    ):
        device = push_service.device(bob)
        row = bobs_turn_push_recorded(game, bob, device)
        PushSubscription.objects.filter(pk=device.subscription.pk).update(user=charlie)

        assert delivery.deliver(row.pk) is Outcome.SKIPPED
        assert push_service.requests == 0


class TestWithoutKeys:
    def test_nothing_is_recorded_or_sent(self, game, bob, push_service, run_hooks, settings, smtp):
        push_service.device(bob)
        settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""

        run_hooks(play_turn, game)

        assert push_rows() == []
        assert push_service.requests == 0
        assert len(smtp.messages) == 1  # the email goes as before

    def test_the_settings_page_offers_nothing_and_subscribing_is_refused(
        self, client, bob, settings
    ):
        settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
        client.force_login(bob)

        page = client.get("/accounts/profile/").content.decode()
        response = client.post("/push/subscribe/", "{}", content_type="application/json")

        assert "data-push-panel" not in page and "push.js" not in page
        assert response.status_code == 404
        assert "not available" in response.json()["error"]


# The settings page and its views ----------------------------------------------------------------


def browser_subscription(device: Device, endpoint: str) -> dict:
    """What a browser's PushSubscription.toJSON() gives."""
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": device.p256dh, "auth": b64url(device.auth)},
    }


SUBSCRIPTION = browser_subscription(Device("valid"), "https://fcm.googleapis.com/fcm/send/x")
NUL_SUBSCRIPTION = {**SUBSCRIPTION, "endpoint": "https://fcm.googleapis.com/fcm/send/\x00"}

CHROME_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


@pytest.fixture
def bobs_client(bob, vapid) -> Client:
    client = Client(enforce_csrf_checks=True, HTTP_USER_AGENT=CHROME_ANDROID)
    assert client.login(username="bob", password=PASSWORD)
    client.get("/accounts/profile/")  # the CSRF cookie
    return client


def post_json(client: Client, path: str, data) -> object:
    body = data if isinstance(data, str | bytes) else json.dumps(data)
    token = client.cookies["csrftoken"].value
    return client.post(path, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)


class TestSettingsPage:
    def test_the_panel_offers_push_with_the_sites_key(self, bobs_client, vapid):
        page = bobs_client.get("/accounts/profile/").content.decode()

        assert "data-push-panel" in page
        assert f'data-vapid-key="{vapid.VAPID_PUBLIC_KEY}"' in page
        assert "No device receives your push notifications yet." in page

    def test_the_panel_in_german(self, bobs_client, bob):
        User.objects.filter(pk=bob.pk).update(language="de")

        page = bobs_client.get("/accounts/profile/").content.decode()

        assert "Push-Benachrichtigungen auf diesem Gerät einschalten" in page
        assert "Noch kein Gerät empfängt deine Push-Benachrichtigungen." in page
        assert "Turn on push notifications" not in page
        # The kinds of push end the sentence, in lower case where German has it.
        assert "Schick meinen Geräten eine Push-Benachrichtigung, wenn" in page
        assert "> ich am Zug bin</label>" in page and "> eine Partie endet</label>" in page

    def test_subscribing_adds_the_device_to_the_list(self, bobs_client, bob):
        endpoint = "https://fcm.googleapis.com/fcm/send/abc:def"

        response = post_json(
            bobs_client, "/push/subscribe/", browser_subscription(Device("x"), endpoint)
        )

        assert response.status_code == 201
        device = PushSubscription.objects.get(user=bob)
        assert (device.endpoint, device.label) == (endpoint, "Chrome · Android")
        assert response.json() == {"id": device.pk, "label": "Chrome · Android"}
        listed = bobs_client.get("/push/devices/").content.decode()
        assert "Chrome · Android" in listed and f"/push/devices/{device.pk}/remove/" in listed

    def test_subscribing_again_renews_the_same_device(self, bobs_client, bob, charlie):
        endpoint = "https://updates.push.services.mozilla.com/wpush/v2/gAAAA"
        PushSubscription.objects.create(user=charlie, endpoint=endpoint, p256dh="x", auth="y")
        data = browser_subscription(Device("x"), endpoint)

        post_json(bobs_client, "/push/subscribe/", data)
        post_json(bobs_client, "/push/subscribe/", data)

        [device] = PushSubscription.objects.all()
        assert device.user == bob and device.p256dh == data["keys"]["p256dh"]

    def test_without_the_csrf_token_it_is_refused(self, bobs_client):
        data = browser_subscription(Device("x"), "https://fcm.googleapis.com/a")
        response = bobs_client.post(
            "/push/subscribe/", json.dumps(data), content_type="application/json"
        )

        assert response.status_code == 403
        assert not PushSubscription.objects.exists()

    def test_a_visitor_must_log_in(self, client, vapid):
        response = client.post("/push/subscribe/", "{}", content_type="application/json")

        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    @pytest.mark.parametrize(
        ("body", "message"),
        [
            ("not json", "JSON object"),
            ("[1, 2]", "JSON object"),
            ("null", "JSON object"),
            (b"\xff\xfe", "JSON object"),
            ({"endpoint": "http://fcm.googleapis.com/a"}, "https"),
            ({"endpoint": "https://127.0.0.1/a"}, "https"),
            ({"endpoint": "https://localhost/a"}, "https"),
            ({"endpoint": "https://fcm.googleapis.com:99999/a"}, "https"),
            ({"endpoint": 5}, "https"),
            ({"endpoint": "https://fcm.googleapis.com/a" + "a" * 1000}, "https"),
            ({"endpoint": "https://fcm.googleapis.com/a"}, "keys"),
            ({"endpoint": "https://fcm.googleapis.com/a", "keys": []}, "keys"),
            (
                {
                    "endpoint": "https://fcm.googleapis.com/a",
                    "keys": {"p256dh": "abc", "auth": "x"},
                },
                "keys",
            ),
            (
                {
                    "endpoint": "https://fcm.googleapis.com/a",
                    "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
                },
                "keys",
            ),
            # Each answered 500 once (issue 31): a RecursionError, PostgreSQL's DataError.
            ('{"endpoint": ' + "[" * 2000 + "]" * 2000 + "}", "JSON object"),
            (NUL_SUBSCRIPTION, "JSON object"),
            ('{"endpoint": "https://fcm.googleapis.com/\\ud800"}', "JSON object"),
        ],
    )
    def test_bad_input_is_refused_with_a_message(self, bobs_client, body, message):
        response = post_json(bobs_client, "/push/subscribe/", body)

        assert response.status_code == 400
        assert message in response.json()["error"]
        assert not PushSubscription.objects.exists()

    def test_a_huge_body_is_refused(self, bobs_client):
        response = post_json(bobs_client, "/push/subscribe/", "x" * 5000)

        assert response.status_code == 413

    def test_a_player_has_at_most_so_many_devices(self, bobs_client, bob):
        for n in range(push.MAX_DEVICES):
            PushSubscription.objects.create(
                user=bob, endpoint=f"https://fcm.googleapis.com/{n}", p256dh="x", auth="y"
            )
        data = browser_subscription(Device("x"), "https://fcm.googleapis.com/new")

        response = post_json(bobs_client, "/push/subscribe/", data)

        assert response.status_code == 400
        assert "remove one of them first" in response.json()["error"]

    def test_the_kinds_of_push_are_all_on_at_first(self, bobs_client):
        page = bobs_client.get("/accounts/profile/").content.decode()

        assert "Send a push notification to my devices when" in page
        for name in ("push_turn", "push_finished", "push_invitation"):
            assert f'name="{name}" id="id_{name}" checked' in page

    def test_choosing_the_kinds_of_push(self, bobs_client, bob):
        token = bobs_client.cookies["csrftoken"].value

        response = bobs_client.post(
            "/push/preferences/",
            {"push_turn": "on"},
            HTTP_X_CSRFTOKEN=token,
            HTTP_HX_REQUEST="true",
        )

        assert response.status_code == 200
        assert "Saved." in response.content.decode()
        bob.refresh_from_db()
        assert (bob.push_turn, bob.push_finished, bob.push_invitation) == (True, False, False)

    def test_choosing_them_without_javascript_goes_back_to_the_settings(self, bobs_client, bob):
        token = bobs_client.cookies["csrftoken"].value

        response = bobs_client.post("/push/preferences/", {}, HTTP_X_CSRFTOKEN=token)

        assert response.status_code == 302
        assert response["Location"] == "/accounts/profile/#push"
        bob.refresh_from_db()
        assert not bob.push_turn

    def test_removing_a_device(self, bobs_client, bob, charlie):
        mine = PushSubscription.objects.create(
            user=bob, endpoint="https://fcm.googleapis.com/b", p256dh="x", auth="y", label="Firefox"
        )
        theirs = PushSubscription.objects.create(
            user=charlie, endpoint="https://fcm.googleapis.com/c", p256dh="x", auth="y"
        )
        token = bobs_client.cookies["csrftoken"].value

        not_mine = bobs_client.post(
            f"/push/devices/{theirs.pk}/remove/", HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
        )
        removed = bobs_client.post(
            f"/push/devices/{mine.pk}/remove/", HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
        )
        huge = bobs_client.post(
            "/push/devices/99999999999999999999/remove/", HTTP_X_CSRFTOKEN=token
        )

        assert not_mine.status_code == 404
        assert PushSubscription.objects.filter(pk=theirs.pk).exists()
        assert removed.status_code == 200
        assert "No device receives your push notifications yet." in removed.content.decode()
        assert not PushSubscription.objects.filter(pk=mine.pk).exists()
        assert huge.status_code == 404

    def test_removing_without_javascript_goes_back_to_the_settings(self, bobs_client, bob):
        mine = PushSubscription.objects.create(
            user=bob, endpoint="https://fcm.googleapis.com/b", p256dh="x", auth="y"
        )
        token = bobs_client.cookies["csrftoken"].value

        response = bobs_client.post(
            f"/push/devices/{mine.pk}/remove/", {"csrfmiddlewaretoken": token}
        )

        assert response.status_code == 302
        assert response["Location"] == "/accounts/profile/#push"
        assert not PushSubscription.objects.exists()


class TestRenewal:
    """The browser replaced a subscription; its service worker or its next page posts the old
    endpoint and the new subscription, with no login and no CSRF token."""

    @pytest.fixture
    def browser(self, vapid) -> Client:
        return Client(enforce_csrf_checks=True)

    def renew(
        self,
        browser: Client,
        old: str | None,
        new: dict,
        status: int = 202,
        auth: str | None = None,
        **extra,
    ):
        """As the browser of ``old`` asks: with its subscription's auth secret, unless
        ``auth`` names another."""
        if auth is None:
            found = PushSubscription.objects.filter(endpoint=old or "").first()
            auth = found.auth if found else "bm90IGEgc2VjcmV0IGF0IGFsbA"
        body = json.dumps({"old_endpoint": old, "old_auth": auth, "subscription": new})
        response = browser.post("/push/renew/", body, content_type="application/json", **extra)
        assert response.status_code == status, response.content
        return response

    def test_the_device_moves_to_the_new_address_and_gets_the_next_turn_there(
        self, game, bob, push_service, browser, run_hooks, monkeypatch
    ):
        old = push_service.device(bob, "old")
        new = push_service.devices["new"] = Device("new")
        # The test's push service is on loopback, which no browser's is.
        monkeypatch.setattr(push, "_valid_endpoint", lambda endpoint: True)

        response = self.renew(
            browser,
            old.subscription.endpoint,
            browser_subscription(new, push_service.url + "/push/new"),
        )

        [device] = PushSubscription.objects.all()
        assert response.json() == {}  # nothing said of the device
        assert device.pk == old.subscription.pk
        assert (device.user, device.label) == (bob, old.subscription.label)
        assert (device.endpoint, device.p256dh) == (push_service.url + "/push/new", new.p256dh)
        run_hooks(play_turn, game)
        assert [r.device for r in push_service.received] == ["new"]
        assert push_service.errors == []

    def test_a_pending_push_goes_to_the_new_address(
        self, game, bob, push_service, browser, monkeypatch
    ):
        old = push_service.device(bob, "old")
        new = push_service.devices["new"] = Device("new")
        row = bobs_turn_push_recorded(game, bob, old)
        monkeypatch.setattr(push, "_valid_endpoint", lambda endpoint: True)

        self.renew(
            browser,
            old.subscription.endpoint,
            browser_subscription(new, push_service.url + "/push/new"),
        )

        assert delivery.deliver(row.pk) is Outcome.SENT
        assert [r.device for r in push_service.received] == ["new"]

    def test_asking_again_changes_nothing(self, bob, browser):
        old = "https://fcm.googleapis.com/old"
        PushSubscription.objects.create(user=bob, endpoint=old, p256dh="x", auth="y")
        new = browser_subscription(Device("x"), "https://fcm.googleapis.com/new")

        first = self.renew(browser, old, new)
        # The worker renewed it; the next page asks too, and so would a stranger with the new
        # address and other keys: the device stays as the first answer left it.
        again = self.renew(browser, old, browser_subscription(Device("y"), new["endpoint"]))

        assert first.json() == again.json()
        [device] = PushSubscription.objects.all()
        assert (device.endpoint, device.p256dh) == (new["endpoint"], new["keys"]["p256dh"])

    def test_the_same_browser_subscribed_again_meanwhile_is_one_device(self, bob, browser):
        old, new = "https://fcm.googleapis.com/old", "https://fcm.googleapis.com/new"
        kept = PushSubscription.objects.create(user=bob, endpoint=old, p256dh="x", auth="y")
        PushSubscription.objects.create(user=bob, endpoint=new, p256dh="x", auth="y")

        self.renew(browser, old, browser_subscription(Device("x"), new))

        assert list(PushSubscription.objects.values_list("pk", "endpoint")) == [(kept.pk, new)]

    def test_an_address_no_device_has_changes_nothing_and_is_answered_the_same(self, bob, browser):
        PushSubscription.objects.create(
            user=bob, endpoint="https://fcm.googleapis.com/a", p256dh="x", auth="y"
        )
        new = browser_subscription(Device("x"), "https://fcm.googleapis.com/new")
        other = browser_subscription(Device("y"), "https://fcm.googleapis.com/other")

        guessed = self.renew(browser, "https://fcm.googleapis.com/guess", new)
        renewed = self.renew(browser, "https://fcm.googleapis.com/a", other)

        assert guessed.content == renewed.content == b"{}"
        assert PushSubscription.objects.get().endpoint == "https://fcm.googleapis.com/other"

    def test_another_players_device_is_never_taken_over(self, bob, charlie, browser):
        # Bob knows his own endpoint and has learnt Charlie's: he asks to renew his device to
        # Charlie's address. Charlie's device stays his, with his keys.
        mine = PushSubscription.objects.create(
            user=bob, endpoint="https://fcm.googleapis.com/bobs", p256dh="x", auth="y"
        )
        theirs = PushSubscription.objects.create(
            user=charlie, endpoint="https://fcm.googleapis.com/charlies", p256dh="c", auth="c"
        )

        response = self.renew(
            browser, mine.endpoint, browser_subscription(Device("x"), theirs.endpoint)
        )

        assert response.json() == {}
        assert set(PushSubscription.objects.values_list("pk", "user", "endpoint", "p256dh")) == {
            (mine.pk, bob.pk, mine.endpoint, "x"),
            (theirs.pk, charlie.pk, theirs.endpoint, "c"),
        }

    def test_knowing_the_endpoint_is_not_enough(self, bob, charlie, browser):
        """Issue 45: whoever knew a device's endpoint moved it to an address of theirs. Only
        its browser holds the old subscription's auth secret."""
        theirs = PushSubscription.objects.create(
            user=charlie,
            endpoint="https://fcm.googleapis.com/charlies",
            p256dh="c",
            auth="c2VjcmV0",
        )
        mine = browser_subscription(Device("x"), "https://fcm.googleapis.com/bobs-new")

        answers = [
            self.renew(browser, theirs.endpoint, mine, auth=guess).content
            for guess in ("d3Jvbmc", "", "c2VjcmV0X", None)
        ]
        refused = browser.post(
            "/push/renew/",
            json.dumps({"old_endpoint": theirs.endpoint, "subscription": mine}),
            content_type="application/json",
        )

        assert answers == [b"{}"] * 4 and refused.status_code == 202
        # Only the last, with the secret (as Charlie's own browser sends it), moved it.
        assert PushSubscription.objects.get().endpoint == mine["endpoint"]
        theirs.refresh_from_db()
        theirs.endpoint = "https://fcm.googleapis.com/charlies"
        theirs.save()
        for guess in ("d3Jvbmc", 7, ["c2VjcmV0"]):
            body = {"old_endpoint": theirs.endpoint, "old_auth": guess, "subscription": mine}
            browser.post("/push/renew/", json.dumps(body), content_type="application/json")
        assert PushSubscription.objects.get().endpoint == theirs.endpoint

    def test_the_answer_tells_nobody_whether_a_device_exists(self, bob, browser):
        known = "https://fcm.googleapis.com/known"
        PushSubscription.objects.create(user=bob, endpoint=known, p256dh="x", auth="y")

        answers = [
            self.renew(browser, None, browser_subscription(Device("x"), endpoint)).content
            for endpoint in (known, "https://fcm.googleapis.com/unknown")
        ]

        assert answers == [b"{}", b"{}"]
        assert PushSubscription.objects.get().endpoint == known

    def test_an_address_asking_too_often_is_told_to_wait(self, bob, browser, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "push_renew": "5/hour"}
        new = browser_subscription(Device("x"), "https://fcm.googleapis.com/new")
        for n in range(5):
            self.renew(browser, f"https://fcm.googleapis.com/guess{n}", new)

        refused = self.renew(browser, "https://fcm.googleapis.com/guess", new, status=429)
        elsewhere = self.renew(
            browser, "https://fcm.googleapis.com/guess", new, REMOTE_ADDR="192.0.2.7"
        )

        assert "Too many requests" in refused.json()["error"]
        assert int(refused["Retry-After"]) > 0
        assert elsewhere.status_code == 202

    @pytest.mark.parametrize(
        ("body", "status", "message"),
        [
            ("not json", 400, "JSON object"),
            ("[]", 400, "JSON object"),
            ({"old_endpoint": "https://fcm.googleapis.com/a"}, 400, "JSON object"),
            (
                {"old_endpoint": "https://fcm.googleapis.com/a", "subscription": {"endpoint": "x"}},
                400,
                "https",
            ),
            ({"old_endpoint": ["x"], "subscription": "x" * 5000}, 413, "too long"),
            # Each answered 500 once (issue 31): a RecursionError, PostgreSQL's DataError.
            ('{"old_endpoint": ' + "[" * 2000 + "]" * 2000 + "}", 400, "JSON object"),
            (
                {"old_endpoint": "https://fcm.googleapis.com/a\x00", "subscription": SUBSCRIPTION},
                400,
                "JSON object",
            ),
            (
                {"old_endpoint": "https://fcm.googleapis.com/a", "subscription": NUL_SUBSCRIPTION},
                400,
                "JSON object",
            ),
            ('{"old_endpoint": "\\ud800", "subscription": {}}', 400, "JSON object"),
        ],
    )
    def test_bad_input_is_refused_and_changes_nothing(self, bob, browser, body, status, message):
        PushSubscription.objects.create(
            user=bob, endpoint="https://fcm.googleapis.com/a", p256dh="x", auth="y"
        )
        body = body if isinstance(body, str) else json.dumps(body)

        response = browser.post("/push/renew/", body, content_type="application/json")

        assert response.status_code == status
        assert message in response.json()["error"]
        assert PushSubscription.objects.get().p256dh == "x"

    def test_without_keys_there_is_nothing_to_renew(self, client, db, settings):
        settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""

        response = client.post("/push/renew/", "{}", content_type="application/json")

        assert response.status_code == 404

    def test_the_worker_and_every_page_know_where_to_renew(self, client, db):
        assert "pushsubscriptionchange" in client.get("/sw.js").content.decode()
        assert 'var RENEW_URL = "/push/renew/";' in client.get("/sw.js").content.decode()
        page = client.get("/accounts/login/").content.decode()
        assert 'data-push-renew="/push/renew/"' in page


# Where pushes may go (SSRF) ----------------------------------------------------------------------

# Endpoints that name this machine or the network behind it, however spelled, or no push
# service at all: each was accepted once (issue 31), and the worker connected there.
NOT_A_PUSH_SERVICE = [
    "https://127.1:8444/a",
    "https://0177.0.0.1:8444/c",
    "https://127.0.0.1.:9/x",
    "https://localhost.:9/x",
    "https://10.1/x",
    "https://169.254.169.254.nip.io/x",
    "https://2130706433/x",
    "https://0x7f.1/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://localhost/x",
    "https://fcm.googleapis.com@127.0.0.1/x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://evil.example/fcm.googleapis.com/x",
    "https://fcm.googleapis.com./x",
    "https://fcm.googleapis.com/a b",
]

BROWSERS_ENDPOINTS = [
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
    "https://web.push.apple.com/QGtQ7r",
    "https://api.push.apple.com/3/device/x",
]


class TestWherePushesGo:
    @pytest.mark.parametrize("endpoint", NOT_A_PUSH_SERVICE)
    def test_subscribing_refuses_an_endpoint_of_no_push_service(self, bobs_client, endpoint):
        data = browser_subscription(Device("x"), endpoint)

        response = post_json(bobs_client, "/push/subscribe/", data)

        assert response.status_code == 400
        assert "https" in response.json()["error"]
        assert not PushSubscription.objects.exists()

    @pytest.mark.parametrize("endpoint", NOT_A_PUSH_SERVICE)
    def test_renewing_refuses_them_too(self, bob, endpoint, vapid):
        old = "https://fcm.googleapis.com/old"
        PushSubscription.objects.create(user=bob, endpoint=old, p256dh="x", auth="y")
        body = {"old_endpoint": old, "subscription": browser_subscription(Device("x"), endpoint)}

        response = Client().post("/push/renew/", json.dumps(body), content_type="application/json")

        assert response.status_code == 400
        assert PushSubscription.objects.get().endpoint == old

    @pytest.mark.parametrize("endpoint", BROWSERS_ENDPOINTS)
    def test_the_browsers_push_services_are_accepted(self, bobs_client, endpoint):
        data = browser_subscription(Device("x"), endpoint)

        response = post_json(bobs_client, "/push/subscribe/", data)

        assert response.status_code == 201
        assert PushSubscription.objects.get().endpoint == endpoint

    @pytest.mark.parametrize(
        ("host", "listening_on"),
        [
            ("127.1", "127.0.0.1"),
            ("0177.0.0.1", "127.0.0.1"),
            ("2130706433", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"),
            ("localhost", "127.0.0.1"),  # a name that resolves inside
            ("10.1", None),  # 10.0.0.1: refused before any attempt, not timed out
        ],
    )
    def test_a_host_that_resolves_inside_is_never_connected_to(
        self, game, bob, vapid, run_hooks, settings, host, listening_on
    ):
        # Even where the settings let that host through (a deployment that trusts "*", or
        # names a host whose DNS now points inside): the address is checked on connecting.
        settings.PUSH_SERVICE_HOSTS = ["*", host.strip("[]")]
        listener = Listener(listening_on) if listening_on else None
        port = listener.port if listener else 9
        device = Device("inside")
        PushSubscription.objects.create(
            user=bob,
            endpoint=f"https://{host}:{port}/push/inside",
            p256dh=device.p256dh,
            auth=b64url(device.auth),
        )
        try:
            run_hooks(play_turn, game)
        finally:
            if listener:
                listener.close()

        [row] = push_rows()
        assert (row.status, row.attempts) == (Status.FAILED, 1)  # for good: not retried
        assert "not a public address" in row.note
        assert listener is None or listener.connections == 0

    @pytest.mark.parametrize(
        ("host", "listening_on"), [("[::1]", "::1"), ("[::ffff:127.0.0.1]", "127.0.0.1")]
    )
    def test_nor_an_ipv6_address_inside(
        self, game, bob, vapid, run_hooks, settings, host, listening_on
    ):
        # Refused before connecting: VAPID signs no audience with an IPv6 address.
        settings.PUSH_SERVICE_HOSTS = [host.strip("[]")]
        listener = Listener(listening_on)
        device = Device("inside")
        PushSubscription.objects.create(
            user=bob,
            endpoint=f"https://{host}:{listener.port}/push/inside",
            p256dh=device.p256dh,
            auth=b64url(device.auth),
        )
        try:
            run_hooks(play_turn, game)
        finally:
            listener.close()

        [row] = push_rows()
        assert (row.status, row.attempts) == (Status.FAILED, 1)
        assert listener.connections == 0

    def test_a_stored_endpoint_of_no_push_service_is_not_sent_to(
        self, game, bob, vapid, listener, run_hooks
    ):
        # A device recorded before the hosts were checked: its pushes go nowhere.
        device = Device("old")
        PushSubscription.objects.create(
            user=bob,
            endpoint=f"http://127.0.0.1:{listener.port}/push/old",
            p256dh=device.p256dh,
            auth=b64url(device.auth),
        )

        run_hooks(play_turn, game)

        [row] = push_rows()
        assert row.status == Status.FAILED and "not a push service" in row.note
        assert listener.connections == 0

    def test_a_redirect_is_an_answer_not_a_place_to_go(
        self, game, bob, push_service, listener, run_hooks
    ):
        push_service.device(bob, "phone")
        push_service.answers = [(307, {"Location": f"http://127.0.0.1:{listener.port}/inside"})]

        run_hooks(play_turn, game)

        [row] = push_rows()
        assert row.status == Status.FAILED and "307" in row.note
        assert listener.connections == 0

    @pytest.mark.parametrize(
        ("address", "allowed"),
        [
            ("142.250.74.106", True),
            ("2a00:1450:4001:82a::200a", True),
            ("127.0.0.1", False),
            ("10.0.0.1", False),
            ("172.16.5.4", False),
            ("192.168.1.1", False),
            ("169.254.169.254", False),
            ("100.64.0.1", False),  # shared (carrier-grade NAT)
            ("0.0.0.0", False),
            ("224.0.0.1", False),
            ("240.0.0.1", False),
            ("255.255.255.255", False),
            ("::", False),
            ("::1", False),
            ("fe80::1%2", False),
            ("fc00::1", False),
            ("ff02::1", False),
            ("::ffff:10.0.0.1", False),
            ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
            ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
            ("64:ff9b::8efa:4a6a", True),  # NAT64 of a public address
        ],
    )
    def test_which_addresses_are_public(self, address, allowed):
        assert push_network.address_allowed(address) is allowed

    def test_networks_named_in_the_settings_are_let_through(self, settings):
        settings.PUSH_ALLOWED_NETWORKS = ["10.8.0.0/16"]

        assert push_network.address_allowed("10.8.1.2")
        assert not push_network.address_allowed("10.9.1.2")


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (CHROME_ANDROID, "Chrome · Android"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Safari · iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
            "Firefox · Windows",
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like "
            "Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            "Edge · macOS",
        ),
        ("", ""),
    ],
)
def test_device_labels(agent, label):
    assert push.device_label(agent) == label


# The keys ----------------------------------------------------------------------------------------


def test_generate_vapid_keys_prints_a_pair_that_works(capsys):
    call_command("generate_vapid_keys")

    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    public, private = lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"]
    raw = Vapid.from_string(private).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert b64url(raw) == public


def test_settings_refuse_half_a_key_pair():
    env = {**os.environ, "VAPID_PUBLIC_KEY": "abc", "VAPID_PRIVATE_KEY": ""}
    env["DJANGO_SETTINGS_MODULE"] = "guildhall_site.settings"
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        capture_output=True,
        text=True,
    )

    assert done.returncode != 0 and "VAPID_PRIVATE_KEY" in done.stderr


# The web app --------------------------------------------------------------------------------------


def test_the_manifest_makes_an_installable_app(client, db):
    from django.contrib.staticfiles import finders

    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["theme_color"] == "#2b2118"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = icon["src"].removeprefix(settings.STATIC_URL)
        with open(finders.find(path), "rb") as file:
            assert file.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_service_worker_is_served_from_the_root_and_never_cached(client, db):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    text = response.content.decode()
    assert '"/static/site/site.css"' in text
    assert 'addEventListener("push"' in text
    csp = response["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp


def test_every_page_links_the_manifest_and_registers_the_worker(client, db):
    page = client.get("/accounts/login/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#2b2118">' in page
    assert "site/icons/apple-touch-icon.png" in page
    assert 'data-service-worker="/sw.js"' in page
