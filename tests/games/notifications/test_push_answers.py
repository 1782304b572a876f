"""Answering from the notification (games.notifications.push_answers): a turn's push with
one obvious answer carries it as a button; its token makes the move once, from that device,
while the game is where the push found it. Replayed, forged, late, expired or another
device's tokens change nothing (4xx)."""

import json
from datetime import timedelta

import pytest
import time_machine

from games.models import Game, Seat
from games.play import moves
from games.reads import viewing
from tests.conftest import client_for
from tests.games.helpers import deciding, start_game

pytestmark = pytest.mark.usefixtures("seats_in_order")

ANSWER_URL = "/push/answer/"


def bid_all(game: Game, users, run_hooks=None) -> Game:
    """Every seat bids its lowest card (the last bid through ``run_hooks``, when given)."""
    for number in deciding(game):
        card = min(viewing.game_state(game).hands[number])
        submit = (moves.do_submit_action, game.pk, users[number], {"kind": "bid", "card": card})
        last = number == deciding(game)[-1]
        game = (
            run_hooks(*submit, game.version)
            if run_hooks and last
            else submit[0](*submit[1:], game.version)
        )
    return game


def post(client, token: str, endpoint: str):
    body = json.dumps({"token": token, "endpoint": endpoint})
    return client.post(ANSWER_URL, body, content_type="application/json")


def frozen(game: Game) -> tuple:
    game.refresh_from_db()
    seats = tuple(Seat.objects.filter(game=game).values_list("deciding", "decision_version"))
    return game.version, game.snapshot, game.drafts, seats


def test_a_push_answers_the_one_obvious_decision_once(alice, bob, push_service, run_hooks):
    client = client_for(bob)  # any client: the token and the device are the proof
    phone = push_service.device(bob, "phone")
    laptop = push_service.device(bob, "laptop")
    hers = push_service.device(alice, "hers")
    game = start_game(alice, bob, kind="goofspiel", cards=3)
    game = bid_all(game, [alice, bob])
    game = bid_all(game, [alice, bob], run_hooks)  # the last round: one card each

    [on_phone] = push_service.to("phone")
    answer = on_phone["answer"]
    assert answer["title"] == "Bid your last card" and answer["url"] == ANSWER_URL
    token, endpoint = answer["token"], phone.subscription.endpoint
    before = frozen(game)

    assert post(client, token[:-2] + "xx", endpoint).status_code == 400  # forged
    assert post(client, token, laptop.subscription.endpoint).status_code == 403  # not its own
    assert (
        post(client, push_service.to("laptop")[0]["answer"]["token"], endpoint).status_code == 403
    )
    assert frozen(game) == before

    assert post(client, token, endpoint).status_code == 200
    assert 1 not in deciding(game)  # Bob bid his last card
    after = frozen(game)
    assert post(client, token, endpoint).status_code == 409  # replayed
    assert frozen(game) == after

    theirs = push_service.to("hers")[0]["answer"]["token"]
    with time_machine.travel(timedelta(days=4)):
        assert post(client, theirs, hers.subscription.endpoint).status_code == 410  # expired
    assert frozen(game) == after
    card = viewing.game_state(game).hands[0][0]
    game = moves.do_submit_action(game.pk, alice, {"kind": "bid", "card": card}, game.version)
    finished = frozen(game)
    assert post(client, theirs, hers.subscription.endpoint).status_code == 409  # late
    assert frozen(game) == finished


def test_no_button_where_there_is_a_real_choice(alice, bob, push_service, run_hooks):
    push_service.device(bob, "phone")
    game = start_game(alice, bob, kind="goofspiel", cards=3)
    bid_all(game, [alice, bob], run_hooks)  # round 2: two cards each
    [payload] = push_service.to("phone")
    assert "answer" not in payload


def test_bad_requests_are_refused(alice, push_service):
    client = client_for(alice)
    assert client.post(ANSWER_URL, "[]", content_type="application/json").status_code == 400
    assert client.post(ANSWER_URL, "{", content_type="application/json").status_code == 400
    assert post(client, "nothing", "https://example.org/x").status_code == 400
    assert client.get(ANSWER_URL).status_code == 405
