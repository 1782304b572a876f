"""Deliveries: after the commit, signed, to a real receiver on loopback that checks the
signature; retried with backoff; recorded with their answers; a hook failing for a day is
turned off and its owner told; events whose task was lost are found by the sweep."""

import json
import random
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.community.chat import actions as chat
from games.models import Game
from games.webhooks import delivery
from games.webhooks.models import Delivery, Webhook
from games.webhooks.tasks import sweep
from tests.games.api_helpers import Api
from tests.games.helpers import play_one, start_game, user_to_move

pytestmark = pytest.mark.django_db
START = "2026-03-02 10:00:00"


def hook_for(user, receiver, path: str, **body) -> dict:
    made = Api(user).post("/api/v1/webhooks/", {"url": receiver.url(path), **body})
    assert made.status_code == 201, made.json()
    receiver.secrets[path] = made.json()["secret"]
    return made.json()


def other_player(game):
    """The player the game does not wait for now."""
    waiting = user_to_move(game)
    return next(s.user for s in game.seats.select_related("user") if s.user != waiting)


def hand_over(game, run=None):
    """Random moves (their hooks run by ``run``) until the turn passes to the other player."""
    first, rand = user_to_move(game), random.Random(1)
    while user_to_move(game) == first:
        game = (run or (lambda f, *a: f(*a)))(play_one, game, rand)
    return game


def test_a_turn_is_posted_signed_with_no_secret_in_it(alice, bob, receiver, run_hooks):
    game = start_game(alice, bob)
    other = other_player(game)
    hook = hook_for(other, receiver, "/other", events=["turn"])
    game = hand_over(game, run_hooks)

    assert receiver.errors == []
    [got] = receiver.received
    assert got.payload == {
        "event": "turn",
        "game": game.pk,
        "version": game.version,
        "url": f"http://127.0.0.1:8000/api/v1/games/{game.pk}/",
        "created": got.payload["created"],
    }
    assert got.headers["guildhall-event"] == "turn"
    assert got.headers["content-type"] == "application/json"
    text = got.body.decode()
    assert hook["secret"] not in text and str(game.seed) not in text
    row = Delivery.objects.get()
    assert got.headers["guildhall-delivery"] == str(row.pk)
    assert (row.status, row.response_status, row.response_body) == ("delivered", 200, "thanks")

    listed = Api(other).get(f"/api/v1/webhooks/{hook['id']}/deliveries/").json()["results"]
    assert [d["id"] for d in listed] == [row.pk] and listed[0]["payload"] == got.payload


def test_a_wrong_secret_fails_the_receivers_check(alice, bob, receiver, run_hooks):
    """The receiver's check is real: a delivery signed with another secret is refused."""
    game = start_game(alice, bob)
    other = other_player(game)
    hook_for(other, receiver, "/x", events=["turn"])
    receiver.secrets["/x"] = "not the secret at all, no"
    hand_over(game, run_hooks)
    assert receiver.received == [] and receiver.errors == ["bad signature on /x"]
    assert Delivery.objects.get().status == "queued"  # to be tried again


def test_failures_are_retried_with_backoff_then_delivered(alice, bob, receiver, run_hooks):
    with time_machine.travel(START, tick=False) as clock:
        game = start_game(alice, bob)
        other = other_player(game)
        hook = hook_for(other, receiver, "/r", events=["turn"])
        receiver.answers = [500, 503]
        hand_over(game, run_hooks)
        row = Delivery.objects.get()
        assert (row.status, row.attempts, row.response_status) == ("queued", 1, 500)
        assert row.next_attempt_at == timezone.now() + timedelta(minutes=1)
        assert Webhook.objects.get(pk=hook["id"]).failing_since == timezone.now()
        assert sweep() == 0  # not due yet
        clock.shift(60)
        run_hooks(sweep)
        row.refresh_from_db()
        assert (row.status, row.attempts, row.response_status) == ("queued", 2, 503)
        assert row.next_attempt_at == timezone.now() + timedelta(minutes=2)
        clock.shift(120)
        run_hooks(sweep)
        row.refresh_from_db()
        assert (row.status, row.attempts, row.response_status) == ("delivered", 3, 200)
        assert Webhook.objects.get(pk=hook["id"]).failing_since is None
        assert len(receiver.received) == 1


def test_a_day_of_failures_turns_the_hook_off_and_tells_its_owner(
    alice, bob, receiver, smtp, run_hooks
):
    with time_machine.travel(START, tick=False) as clock:
        game = start_game(alice, bob)
        other = other_player(game)
        hook = hook_for(other, receiver, "/down", events=["turn", "chat"])
        receiver.stop()  # nobody answers
        hand_over(game, run_hooks)
        for _ in range(30):  # an hour apart at most, for more than a day
            clock.shift(3600)
            run_hooks(sweep)
        stored = Webhook.objects.get(pk=hook["id"])
        assert stored.active is False and stored.disabled_at is not None
        row = Delivery.objects.get()
        assert row.status == "failed" and row.response_status is None
        assert row.error == "unreachable" and row.duration_ms is None
        assert 20 < row.attempts < 40
        [email] = [m for m in smtp.to(other.email) if m["Subject"] == "Your webhook was turned off"]
        assert receiver.url("/down") in email.get_content()
        # Off: new events record nothing for it, until its owner turns it on again.
        run_hooks(chat.do_write, game.pk, user_to_move(game), "hello")
        assert Delivery.objects.count() == 1
        again = Api(other).patch(f"/api/v1/webhooks/{hook['id']}/", {"active": True})
        assert again.json()["active"] is True and again.json()["failing_since"] is None


def test_the_sweep_finds_an_event_whose_task_was_lost(alice, bob, receiver):
    with time_machine.travel(START, tick=False) as clock:
        game = start_game(alice, bob)
        other = other_player(game)
        hook_for(other, receiver, "/lost", events=["turn"])
        hand_over(game)  # committed, but its hooks never ran (the broker was down)
        assert not Delivery.objects.exists()
        clock.shift(90)
        sweep()
        assert [r.payload["event"] for r in receiver.received] == ["turn"]
        sweep()  # once only
        assert len(receiver.received) == 1


def test_a_hook_keeps_its_latest_deliveries(alice, bob, receiver):
    with time_machine.travel(START, tick=False) as clock:
        hook = Webhook.objects.get(pk=hook_for(alice, receiver, "/many")["id"])
        game = start_game(alice, bob)
        for n in range(delivery.KEEP + 5):
            Delivery.objects.create(
                webhook=hook,
                event="chat",
                key=f"chat:{game.pk}:{n}",
                payload={"n": n},
                status="delivered",
                next_attempt_at=timezone.now(),
            )
            clock.shift(1)
        clock.shift(3600)
        row = Delivery.objects.create(
            webhook=hook, event="ping", key="ping:1", payload={}, next_attempt_at=timezone.now()
        )
        delivery.deliver(row.pk)
        assert hook.deliveries.count() == delivery.KEEP
        listed = Api(alice).get(f"/api/v1/webhooks/{hook.pk}/deliveries/", page_size=100)
        assert listed.json()["count"] == delivery.KEEP
        assert listed.json()["results"][0]["id"] == row.pk


def test_a_ping_checks_the_receiver(alice, receiver):
    hook = hook_for(alice, receiver, "/ping")
    answer = Api(alice).post(f"/api/v1/webhooks/{hook['id']}/ping/")
    assert answer.status_code == 202 and answer.json()["status"] == "delivered"
    assert json.loads(receiver.received[0].body)["event"] == "ping"


def test_game_events_invitations_and_chat(alice, bob, receiver, run_hooks):
    hook_for(bob, receiver, "/bob")
    made = run_hooks(
        Api(alice).post, "/api/v1/invitations/", {"players": 2, "invitees": ["bob"]}
    ).json()
    assert [r.payload["event"] for r in receiver.received] == ["invitation"]
    assert receiver.received[0].payload["invitation"] == made["id"]
    run_hooks(Api(bob).post, f"/api/v1/invitations/{made['id']}/accept/")
    game = Game.objects.get(pk=made["id"] and Game.objects.latest("pk").pk)
    events = [r.payload["event"] for r in receiver.received]
    assert events[:2] == ["invitation", "game_started"]
    run_hooks(chat.do_write, game.pk, alice, "good luck")
    assert receiver.received[-1].payload["event"] == "chat"
    assert "good luck" not in receiver.received[-1].body.decode()
    run_hooks(chat.do_write, game.pk, bob, "thanks")  # one's own line: nothing
    assert receiver.received[-1].payload["event"] == "chat"
    assert len([r for r in receiver.received if r.payload["event"] == "chat"]) == 1


def test_a_receiver_that_never_answers_times_out(settings, alice, receiver):
    """A connection that is accepted and never answered costs one timeout, then a retry;
    its owner reads the same as for a closed port (issue 45: the raw error and the time
    told open ports from closed ones)."""
    import socket

    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)  # the kernel accepts; nobody ever reads or answers
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
    answers = []
    try:
        for port in (silent.getsockname()[1], closed.getsockname()[1]):
            path = f"/p{port}"
            hook = hook_for(alice, receiver, path)
            Webhook.objects.filter(pk=hook["id"]).update(url=f"http://127.0.0.1:{port}{path}")
            answer = Api(alice).post(f"/api/v1/webhooks/{hook['id']}/ping/").json()
            assert answer["status"] == "queued" and answer["response_status"] is None
            answers.append({k: answer[k] for k in ("error", "duration_ms", "response_body")})
    finally:
        silent.close()
        closed.close()
    assert answers[0] == answers[1]
    assert answers[0]["error"] == "No answer: the receiver could not be reached."
    assert answers[0]["duration_ms"] is None
