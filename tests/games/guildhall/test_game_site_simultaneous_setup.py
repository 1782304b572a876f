"""Guildhall's simultaneous setup on the site (the default for new games): every seat is
waited for at once, each hears once per step, and a seat's pending choice reaches nobody
else (board, API, move log)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse

from games.guildhall.game import GUILDHALL
from games.models import Game, Seat
from games.notifications.models import Notification
from games.play import invitations, moves
from games.reads import viewing
from tests.conftest import client_for
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import deciding
from tests.games.notifications.helpers import InOrder
from tests.mailserver import smtp, text_of  # noqa: F401 (fixture)
from tests.seeds import FixedSeed

Kind = Notification.Kind


@pytest.fixture(autouse=True)
def _in_order(monkeypatch, settings):
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


def start_with_defaults(creator, *others) -> Game:
    """A Guildhall game created with the site's default options (none given)."""
    invitation = invitations.do_create_invitation(creator, players=1 + len(others), options={})
    for user in others:
        invitations.do_accept_invitation(invitation.pk, user)
    invitation.refresh_from_db()
    return Game.objects.get(pk=invitation.game.pk)


def submit(game: Game, user, action: dict) -> Game:
    game = Game.objects.get(pk=game.pk)
    moves.do_submit_action(game.pk, user, action, game.version)
    return Game.objects.get(pk=game.pk)


def test_a_default_game_starts_with_every_seat_to_move_and_each_hears_once_per_step(
    alice,
    bob,
    charlie,
    smtp,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_with_defaults(alice, bob, charlie)
    game = Game.objects.get(pk=game.pk)
    assert game.engine_options().setup == "simultaneous"
    assert deciding(game) == [0, 1, 2]
    assert game.status == Game.Status.SETUP
    # Not Charlie, whose answer started the game: he is at the board (issue 26.8).
    messages = smtp.wait_for(2)
    assert sorted(m["To"] for m in messages) == sorted(u.email for u in (alice, bob))
    assert all("You begin: Setup, everyone at once" in text_of(m) for m in messages)
    started = Notification.objects.filter(game=game)
    assert sorted(started.values_list("kind", "user_id")) == sorted(
        (Kind.STARTED, u.pk) for u in (alice, bob)
    )
    smtp.clear()

    users = {0: alice, 1: bob, 2: charlie}
    # Charlie, then Alice, choose: nobody hears of it, and they are no longer waited for.
    for number in (2, 0):
        with django_capture_on_commit_callbacks(execute=True):
            game = submit(game, users[number], {"kind": "done"})
    assert deciding(game) == [1]
    assert not Notification.objects.filter(game=game, kind=Kind.TURN).exists()
    # Bob's choice closes the step: the placing step waits for everyone, each told once.
    with django_capture_on_commit_callbacks(execute=True):
        game = submit(game, bob, {"kind": "done"})
    assert deciding(game) == [0, 1, 2]
    turns = Notification.objects.filter(game=game, kind=Kind.TURN)
    assert sorted(turns.values_list("user_id", flat=True)) == sorted(
        u.pk for u in (alice, bob, charlie)
    )
    waits = set(Seat.objects.filter(game=game).values_list("wait_version", flat=True))
    assert waits == {game.version}


def _normal(text: str, game: Game) -> str:
    text = re.sub(rf"/{game.pk}/", "/GAME/", text)
    text = re.sub(rf"#{game.pk}\b", "#GAME", text)  # its short title: "Guildhall #12"
    text = re.sub(rf"\?game={game.pk}\b", "?game=GAME", text)  # its event stream
    text = re.sub(rf"actions-{game.pk}\b", "actions-GAME", text)
    text = re.sub(rf'"(game|game_id)": {game.pk}\b', r'"\1": 0', text)
    text = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*', r"\1", text)
    text = re.sub(r'("X-CSRFToken": ")[^"]*', r"\1", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?", "TIME", text)
    return re.sub(r'"id": \d+', '"id": 0', text)


def test_a_seats_pending_choice_shows_on_no_other_board(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(1234))
    pages = []
    for variant in (0, 1):
        game = start_with_defaults(alice, bob, charlie)
        state = viewing.game_state(game)
        hand = state.players[0].hand
        # Different cards, and as many steps as cards: nobody else may count them.
        chosen = hand[:1] if variant == 0 else hand[3:6]
        for card in chosen:
            game = submit(game, alice, {"kind": "discard", "card": card})
        game = submit(game, alice, {"kind": "done"})
        assert deciding(game) == [1, 2]

        # Alice sees her own choice: her cards marked, each one offered to keep.
        mine = client_for(alice).get(reverse("games:board", args=[game.pk])).content.decode()
        assert "You have chosen your discards" in mine
        for card in chosen:
            keep = json.dumps({"card": card, "kind": "keep"}, separators=(",", ":"))
            assert keep.replace('"', "&quot;") in mine

        bob_client = client_for(bob)
        page = bob_client.get(reverse("games:board", args=[game.pk])).content.decode()
        api = json.dumps(Api(bob).get(game_url(game.pk)).json(), sort_keys=True)
        moves = json.dumps(Api(bob).get(game_url(game.pk, "moves")).json(), sort_keys=True)
        # Her steps are no records yet (whether she has chosen shows on the board).
        assert Api(bob).get(game_url(game.pk, "moves")).json()["count"] == 0
        view = GUILDHALL.view(viewing.game_state(game), 1)
        assert view["decision"]["choosing"] == [1, 2]
        pages.append([_normal(x, game) for x in (page, api, moves)])
        Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
        Seat.objects.filter(game=game).update(deciding=False)
    assert pages[0][0] == pages[1][0]  # Bob's board
    assert pages[0][1] == pages[1][1]  # the API's game
    assert pages[0][2] == pages[1][2]  # the move log


def test_a_seat_out_of_time_gets_a_whole_setup_choice(alice, bob, charlie):
    from datetime import UTC, datetime, timedelta

    import time_machine

    from games.models import Move
    from games.play.timeouts import sweep_timeouts

    start = datetime(2027, 6, 1, 8, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as clock:
        invitation = invitations.do_create_invitation(alice, players=3, options={}, move_days=1)
        for user in (bob, charlie):
            invitations.do_accept_invitation(invitation.pk, user)
        invitation.refresh_from_db()
        game = Game.objects.get(pk=invitation.game.pk)
        for user in (alice, bob):
            game = submit(game, user, {"kind": "done"})
        assert deciding(game) == [2]

        clock.move_to(start + timedelta(days=1, seconds=1))
        assert sweep_timeouts() == 1

        game = Game.objects.get(pk=game.pk)
        automatic = Move.objects.filter(game=game, automatic=True)
        assert set(automatic.values_list("seat", flat=True)) == {2}
        # Charlie's discards were chosen for him: the placing step waits for everyone.
        assert GUILDHALL.step(viewing.game_state(game)) == ("setup", "place")
        assert deciding(game) == [0, 1, 2]


def test_a_game_plays_through_the_api_with_several_seats_at_once(alice, bob, charlie):
    game = start_with_defaults(alice, bob, charlie)
    apis = [Api(alice), Api(bob), Api(charlie)]
    rand = random.Random(3)
    for _ in range(200):
        answer = apis[0].get(game_url(game.pk)).json()
        if answer["status"] != "setup":
            break
        for number in answer["deciding"]:
            legal = apis[number].get(game_url(game.pk, "actions")).json()
            actions = [a for a in legal["actions"] if a["kind"] != "keep"]
            action = rand.choice(actions)
            sent = apis[number].post(
                game_url(game.pk, "actions"), {"version": legal["version"], "action": action}
            )
            assert sent.status_code == 201, sent.json()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.PLAYING
    assert deciding(game) == [0]
