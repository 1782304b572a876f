"""Who the game waits for, as stored, is always who the game waits for.

Random play of every registered game (Guildhall with either setup, Renaissance Man, the
proof game Goofspiel) through the services, as a crowd of players would: any seat with a
legal action acts, including seats that have submitted and reopen their choice, with
undos, concessions and time-outs mixed in. After every service call the seats marked
deciding must be exactly the game's ``deciders``, each with a clock and, as the games have a
time limit, a deadline (``verify_games``'s ``check_waits``); at the end the record replays.

The bug this guards against: a Renaissance Man seat that said "done" and then reopened its
discards was not waited for again, and the game stalled for good.
"""

from __future__ import annotations

import os
import random
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from games import services
from games.core import IllegalAction, registry
from games.management.commands.verify_games import check_game, check_waits
from games.models import Game, Seat
from tests.conftest import make_person
from tests.games.helpers import start_game

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CALLS = 150  # service calls per game: several rounds of every kind of step
# Renaissance Man's uniform random play takes its pyramid apart as fast as it builds it;
# a lean toward building reaches the later steps (the Recruit winner, face-down cards).
LEAN = {"hire": 20.0, "place": 10.0, "remove": 0.2}

GAMES = [
    ("guildhall", {"setup": "simultaneous"}, (2, 3, 4)),
    ("guildhall", {"setup": "sequential"}, (2, 3)),
    ("renaissance", {}, (1, 2, 3, 4)),
    ("goofspiel", {}, (2, 3)),
]


@pytest.fixture
def people(alice, bob, charlie):
    return [alice, bob, charlie, make_person("dave")]


def test_every_registered_game_is_played_here():
    import tests.goofspiel.game  # noqa: F401 (registers the proof game)

    assert {g.id for g in registry.all_games()} == {kind for kind, _o, _n in GAMES}


def _check(game: Game) -> None:
    game = Game.objects.get(pk=game.pk)
    state = services.game_state(game)
    problem = check_waits(game, game.game_kind.deciders(state))
    assert problem is None, f"after version {game.version}: {problem}"


def _seats_with_actions(game: Game) -> list[tuple[Seat, list[dict]]]:
    state = services.game_state(game)
    kind = game.game_kind
    out = []
    for seat in game.seats.order_by("number").select_related("user"):
        if seat.computer_plays:
            continue
        actions = kind.legal_actions(state, seat.number)
        if actions:
            out.append((seat, actions))
    return out


def _one_call(game: Game, rand: random.Random) -> Game:
    """One thing a player (or the clock) does."""
    roll = rand.random()
    deciding = list(game.seats.filter(deciding=True).order_by("number"))
    if roll < 0.03 and deciding:  # a seat runs out of time
        seat = rand.choice(deciding)
        services.do_time_out(
            game.pk, seat.number, seat.wait_version, now=seat.deadline + timedelta(seconds=1)
        )
        return Game.objects.get(pk=game.pk)
    if roll < 0.035 and len(game.names) > 2:  # somebody leaves (the computer plays on)
        people = [s for s in game.seats.select_related("user") if not s.computer_plays]
        if len(people) > 1:
            services.do_concede(game.pk, rand.choice(people).user)
            return Game.objects.get(pk=game.pk)
    movers = _seats_with_actions(game)
    if not movers:
        return game
    seat, actions = rand.choice(movers)
    if roll < 0.1:
        try:
            return services.do_undo(game.pk, seat.user, game.version)
        except IllegalAction:
            pass
    weights = [LEAN.get(a["kind"], 1.0) if game.kind == "renaissance" else 1.0 for a in actions]
    action = rand.choices(actions, weights)[0]
    return services.do_submit_action(game.pk, seat.user, action, game.version)


@pytest.mark.parametrize(("kind", "options", "counts"), GAMES, ids=lambda v: str(v))
@settings(
    max_examples=3,
    deadline=None,
    derandomize=CI,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st_.integers(0, 2**32 - 1), pick=st_.integers(0, 3))
def test_the_seats_marked_deciding_are_the_games_deciders(
    people, kind, options, counts, seed, pick
):
    import tests.goofspiel.game  # noqa: F401 (registers the proof game)

    players = counts[pick % len(counts)]
    game = start_game(*people[:players], kind=kind, move_days=3, **options)
    rand = random.Random(seed)
    _check(game)
    for _call in range(CALLS):
        if not game.is_active:
            break
        game = _one_call(game, rand)
        _check(game)
    assert check_game(Game.objects.get(pk=game.pk)) is None


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
        actions = game_now.game_kind.legal_actions(services.game_state(game_now), number)
        services.do_submit_action(game.pk, users[number], rand.choice(actions), game_now.version)

    while Game.objects.get(pk=game.pk).status == Game.Status.SETUP:
        game_now = Game.objects.get(pk=game.pk)
        waiting = [s.number for s in game_now.seats.filter(deciding=True)]
        state = services.game_state(game_now)
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
