"""A choice listed on one version and overtaken by the step closing is stale, not forbidden.

The property test that stood here (random play of every registered game through the
services, the seats marked deciding always the game's ``deciders``) is now part of the
conformance test of every registered game: ``tests/games/core/test_protocol_conformance.py``.
"""

from __future__ import annotations

import random

from games.models import Game
from games.play import moves
from games.reads import viewing
from tests.games.helpers import start_game


def test_a_listed_change_overtaken_by_the_step_closing_is_stale_not_forbidden(alice, bob):
    """Seat 1 chose its last setup cards and is offered to change them; seat 0's choice
    closes the setup, after which seat 1 has nothing to decide (seat 0 plays first). Its
    change, sent on the version its actions were listed at, is stale (409), not forbidden
    (403); sent on the current version, it is not its turn (400)."""
    from tests.games.api_helpers import Api, game_url

    game = start_game(alice, bob, setup="simultaneous")
    users = {s.number: s.user for s in game.seats.select_related("user")}
    rand = random.Random(0)

    def play(number: int) -> None:
        game_now = Game.objects.get(pk=game.pk)
        actions = game_now.game_kind.legal_actions(viewing.game_state(game_now), number)
        moves.do_submit_action(game.pk, users[number], rand.choice(actions), game_now.version)

    while Game.objects.get(pk=game.pk).status == Game.Status.SETUP:
        game_now = Game.objects.get(pk=game.pk)
        waiting = [s.number for s in game_now.seats.filter(deciding=True)]
        state = viewing.game_state(game_now)
        if waiting == [0, 1] and state.stage != "discard":
            break  # the last setup step, both choosing
        play(waiting[0])
    while 1 in [s.number for s in Game.objects.get(pk=game.pk).seats.filter(deciding=True)]:
        play(1)
    bob = users[1]
    listed = Api(bob).get(game_url(game.pk, "actions")).json()
    assert listed["actions"] and not listed["owes_choice"]
    while Game.objects.get(pk=game.pk).status == Game.Status.SETUP:
        play(0)
    game = Game.objects.get(pk=game.pk)
    assert [s.number for s in game.seats.filter(deciding=True)] == [0]
    late = Api(bob).post(
        game_url(game.pk, "actions"),
        {"version": listed["version"], "action": listed["actions"][0]},
    )
    assert late.status_code == 409, late.json()
    assert late.json()["code"] == "stale_version" and late.json()["version"] == game.version
    current = Api(bob).post(
        game_url(game.pk, "actions"), {"version": game.version, "action": listed["actions"][0]}
    )
    assert current.status_code == 400 and current.json()["rule"] == "not_your_turn"
