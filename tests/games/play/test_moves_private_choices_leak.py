"""A private record (a discard picked or put back, a removal, a changed choice, a step of a
simultaneous setup choice) changes nothing another viewer can observe: no field, header,
button, stamp or byte count of any page, partial, API answer, stream event or webhook
(issue 45: each Renaissance Man removal changed the game's ``updated`` and ``ETag`` for the
other seats and took the other seat's Undo button away; an opponent could count them).

Each test: Bob makes a private step of his own first (so that he may undo it), everything
Bob and a spectator observe is read, Alice makes private steps, and it is all read again:
the same, byte for byte, though the clock moved on between."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.guildhall.game import GUILDHALL
from games.models import Game, Seat
from games.play import invitations, moves
from games.reads import list_stamps, viewing
from games.renaissance.game import RENAISSANCE
from games.web.board import poll_token_of
from tests.conftest import client_for, make_person
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import deciding, start_game
from tests.games.notifications.helpers import InOrder
from tests.seeds import FixedSeed

START = datetime(2027, 3, 1, 9, 0, 0, tzinfo=UTC)
HEADERS = ("ETag", "Last-Modified", "Content-Length", "Cache-Control", "Vary")
# What a change queues for others after its commit (games.play.events): the event stream,
# the webhooks and the turn notices.
OTHERS_HEAR = ("publish game_changed", "games.webhooks.game_event", "games.tasks.notify_turn")


@pytest.fixture(autouse=True)
def _setup(monkeypatch, settings):
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(45))
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


def _normal(text: str) -> str:
    # Per-request tokens only (the masked CSRF token differs at every answer).
    text = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*', r"\1", text)
    return re.sub(r'("X-CSRFToken": ")[^"]*', r"\1", text)


def _answer(response) -> tuple:
    body = _normal(response.content.decode())
    headers = tuple((h, response.headers.get(h)) for h in HEADERS)
    return response.status_code, len(response.content), body, headers


def observed(game_id: int, user, api: Api) -> dict:
    """Everything ``user`` can read of the game and of their own lists."""
    game = Game.objects.get(pk=game_id)
    client = client_for(user)
    seat = Seat.objects.filter(game=game, user=user).values_list("number", flat=True).first()
    pages = {
        "board": client.get(reverse("games:board", args=[game_id])),
        "board partial": client.get(reverse("games:board", args=[game_id]), HTTP_HX_REQUEST="1"),
        "poll": client.get(reverse("games:board_poll", args=[game_id]), HTTP_HX_REQUEST="1"),
        "log": client.get(reverse("games:log", args=[game_id])),
        "dashboard": client.get("/"),
        "api game": api.get(game_url(game_id)),
        "api actions": api.get(game_url(game_id, "actions")),
        "api moves": api.get(game_url(game_id, "moves")),
        "api games": api.get("/api/v1/games/"),
    }
    seen = {name: _answer(response) for name, response in pages.items()}
    tag = seen["api game"][3][0][1]
    assert tag, "the API's game answer has an ETag"
    # The same tag asked again answers 304: the tag stands for this answer.
    again = api.client.get(game_url(game_id), HTTP_IF_NONE_MATCH=tag)
    seen["api game 304"] = again.status_code
    seen["fields"] = (game.updated, game.version, game.stamp, game.status)
    seen["list stamp"] = list_stamps.stamps(user.pk)[0]
    seen["poll token"] = poll_token_of(game, seat)
    return seen


def _private_steps(kind, game: Game, seat: int, count: int) -> list[dict]:
    """``count`` private steps for ``seat`` that leave it still choosing: picked and put
    back, so that any number of them can be made."""
    state = viewing.game_state(game)
    legal = kind.legal_actions(state, seat)
    pick = next(a for a in legal if a["kind"] in ("discard", "place"))
    back = {"kind": "keep", "card": pick["card"]}
    return [pick if i % 2 == 0 else back for i in range(count)]


def _check_private_steps_unseen(
    kind, game: Game, users: dict, spectator, others_hear, clock, steps=(1, 3)
) -> None:
    alice, bob = users[0], users[1]
    ben, cid = Api(bob), Api(spectator)
    # Bob's own private step: his Undo button is on his board.
    step = _private_steps(kind, Game.objects.get(pk=game.pk), 1, 1)[0]
    moves.do_submit_action(game.pk, bob, step, Game.objects.get(pk=game.pk).version)
    assert kind.view(viewing.game_state(Game.objects.get(pk=game.pk)), 1)["can_undo"]
    before = [observed(game.pk, bob, ben), observed(game.pk, spectator, cid)]
    for count in steps:
        clock.shift(timedelta(seconds=7))
        game = Game.objects.get(pk=game.pk)
        for action in _private_steps(kind, game, 0, count):
            version = Game.objects.get(pk=game.pk).version
            with others_hear(execute=True) as callbacks:
                moves.do_submit_action(game.pk, alice, action, version)
            names = [getattr(c, "__qualname__", "") for c in callbacks]
            assert not [n for n in names if any(x in n for x in OTHERS_HEAR)], names
        assert deciding(Game.objects.get(pk=game.pk)) == sorted(deciding(game))
        after = [observed(game.pk, bob, ben), observed(game.pk, spectator, cid)]
        for who, (then, now) in zip(
            ("Bob", "the spectator"), zip(before, after, strict=True), strict=True
        ):
            for name in then:
                assert then[name] == now[name], f"{who}'s {name} changed with Alice's steps"
    # Bob may still take his own step back, and does.
    state = viewing.game_state(Game.objects.get(pk=game.pk))
    assert kind.can_undo(state, 1) and kind.can_undo(state, 0)
    moves.do_undo(game.pk, bob, Game.objects.get(pk=game.pk).version)
    game = Game.objects.get(pk=game.pk)
    assert not kind.can_undo(viewing.game_state(game), 1)
    assert [d["player"] for d in game.drafts] == [0] * (len(game.drafts))


def _play(game: Game, user, action: dict) -> None:
    moves.do_submit_action(game.pk, user, action, Game.objects.get(pk=game.pk).version)


def _renaissance_discard_step(users: dict) -> Game:
    game = start_game(users[0], users[1], kind="renaissance")
    rand = random.Random(6)
    for _ in range(500):
        game = Game.objects.get(pk=game.pk)
        state = viewing.game_state(game)
        if state.stage == "discard" and all(p.hand for p in state.players):
            return game
        number = deciding(game)[0]
        action = RENAISSANCE.choose(state, number, rand)
        moves.do_submit_action(game.pk, users[number], action, game.version)
    raise AssertionError("no discard step")


class TestRenaissance:
    def test_discard_picks_and_keeps_change_nothing_others_see(
        self, alice, bob, charlie, django_capture_on_commit_callbacks
    ):
        with time_machine.travel(START, tick=False) as clock:
            game = _renaissance_discard_step({0: alice, 1: bob})
            _check_private_steps_unseen(
                RENAISSANCE,
                game,
                {0: alice, 1: bob},
                charlie,
                django_capture_on_commit_callbacks,
                clock,
            )

    def test_changed_choices_in_an_action_phase_change_nothing_others_see(
        self, alice, bob, charlie, django_capture_on_commit_callbacks
    ):
        dave = make_person("dave")  # the third seat keeps the step open
        with time_machine.travel(START, tick=False) as clock:
            game = start_game(alice, bob, dave, kind="renaissance")
            users = {0: alice, 1: bob, 2: dave}
            rand = random.Random(6)
            while Game.objects.get(pk=game.pk).status == Game.Status.SETUP:
                game = Game.objects.get(pk=game.pk)
                number = deciding(game)[0]
                action = RENAISSANCE.choose(viewing.game_state(game), number, rand)
                moves.do_submit_action(game.pk, users[number], action, game.version)
            game = Game.objects.get(pk=game.pk)
            state = viewing.game_state(game)
            choices = {
                q: [
                    a
                    for a in RENAISSANCE.legal_actions(state, q)
                    if a["kind"] in ("barter", "teach")
                ]
                for q in (0, 1)
            }
            assert choices[0] and choices[1]
            assert len(choices[0]) >= 3
            # Bob chooses, then changes his mind (a private record he may take back); Alice
            # chooses (that she has chosen is public), then changes her mind twice.
            _play(game, bob, choices[1][0])
            _play(game, bob, choices[1][-1])
            _play(game, alice, choices[0][0])
            ben, cid = Api(bob), Api(charlie)
            before = [observed(game.pk, bob, ben), observed(game.pk, charlie, cid)]
            for action in choices[0][1:3]:
                clock.shift(timedelta(seconds=5))
                with django_capture_on_commit_callbacks(execute=True) as callbacks:
                    _play(game, alice, action)
                names = [getattr(c, "__qualname__", "") for c in callbacks]
                assert not [n for n in names if any(x in n for x in OTHERS_HEAR)], names
            after = [observed(game.pk, bob, ben), observed(game.pk, charlie, cid)]
            for then, now in zip(before, after, strict=True):
                for name in then:
                    assert then[name] == now[name], name
            assert RENAISSANCE.can_undo(viewing.game_state(Game.objects.get(pk=game.pk)), 1)

    def test_removals_change_nothing_others_see(
        self, alice, bob, charlie, django_capture_on_commit_callbacks
    ):
        dave = make_person("dave")
        with time_machine.travel(START, tick=False) as clock:
            game = start_game(alice, bob, dave, kind="renaissance")
            users = {0: alice, 1: bob, 2: dave}
            rand = random.Random(8)
            for _ in range(3000):
                game = Game.objects.get(pk=game.pk)
                state = viewing.game_state(game)
                legal = {q: RENAISSANCE.legal_actions(state, q) for q in (0, 1)}
                removals = [a for a in legal[0] if a["kind"] == "remove"]
                if state.stage == "action" and len(removals) >= 2 and deciding(game) == [0, 1, 2]:
                    break
                number = deciding(game)[0]
                action = RENAISSANCE.choose(state, number, rand)
                moves.do_submit_action(game.pk, users[number], action, game.version)
            else:
                raise AssertionError("no action step with two removals for Alice")
            # Bob chooses, then changes his mind (a private record he may take back).
            mind = [a for a in legal[1] if a["kind"] in ("barter", "teach", "hire", "pass")]
            _play(game, bob, mind[0])
            _play(game, bob, mind[-1])
            ben, cid = Api(bob), Api(charlie)
            before = [observed(game.pk, bob, ben), observed(game.pk, charlie, cid)]
            for action in removals[:1]:  # (a removal may uncover the next one: one is enough)
                clock.shift(timedelta(seconds=5))
                with django_capture_on_commit_callbacks(execute=True) as callbacks:
                    _play(game, alice, action)
                names = [getattr(c, "__qualname__", "") for c in callbacks]
                assert not [n for n in names if any(x in n for x in OTHERS_HEAR)], names
            assert viewing.game_state(Game.objects.get(pk=game.pk)).players[0].removals
            after = [observed(game.pk, bob, ben), observed(game.pk, charlie, cid)]
            for then, now in zip(before, after, strict=True):
                for name in then:
                    assert then[name] == now[name], name
            assert RENAISSANCE.can_undo(viewing.game_state(Game.objects.get(pk=game.pk)), 1)


class TestGuildhallSetup:
    def test_setup_picks_change_nothing_others_see(
        self, alice, bob, charlie, django_capture_on_commit_callbacks
    ):
        dave = make_person("dave")
        with time_machine.travel(START, tick=False) as clock:
            game = start_game(alice, bob, dave, setup="simultaneous")
            _check_private_steps_unseen(
                GUILDHALL,
                game,
                {0: alice, 1: bob, 2: dave},
                charlie,
                django_capture_on_commit_callbacks,
                clock,
            )
