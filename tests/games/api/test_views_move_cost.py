"""What a move through the API costs, and that its answer is the game as read afresh.

A move reads the token (with its user), the locked game and its seats (with their users),
then writes its records, the game and the seats that changed: six queries, in either game,
however many seats change at once. The answer is built from the rows the move holds.
"""

import random

import pytest

from games.models import Game, Seat
from guildhall_site.upkeep import maintenance
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import random_action, start_game

MOST_QUERIES = 6
# The test's own transaction turns the move's atomic block into a savepoint: SAVEPOINT and
# RELEASE SAVEPOINT (on a real connection BEGIN and COMMIT, which Django does not count).
SAVEPOINTS = 2
MOVES = 60


@pytest.fixture
def no_throttle(settings):
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


@pytest.fixture
def apis(alice, bob, charlie, no_throttle) -> dict[int, Api]:
    return {user.pk: Api(user) for user in (alice, bob, charlie)}


def next_move(game_id: int, rand: random.Random) -> tuple[Game, Seat, dict] | None:
    """A seat the game waits for and one of its legal actions; None once it is over."""
    game = Game.objects.get(pk=game_id)
    if not game.is_active:
        return None
    seat = rand.choice(list(Seat.objects.filter(game=game, deciding=True)))
    return game, seat, random_action(game, rand, seat.number)


def post(api: Api, game: Game, action: dict):
    return api.post(game_url(game.pk, "actions"), {"version": game.version, "action": action})


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_an_api_move_costs_at_most_six_queries(
    kind, alice, bob, charlie, apis, django_assert_max_num_queries
):
    game = start_game(alice, bob, charlie, kind=kind, move_days=3)
    for api in apis.values():
        api.get(game_url(game.pk))  # a token's first use in a minute also stores the time
    rand = random.Random(3)
    waits_begun = several_changed = 0
    for _ in range(4 * MOVES):
        if waits_begun >= 3 and several_changed >= 3:
            break
        move = next_move(game.pk, rand)
        if move is None:
            break
        game, seat, action = move
        before = list(Seat.objects.filter(game=game).values_list("deciding", "wait_version"))
        # Whether maintenance is on is read once a few seconds per process (upkeep's memo and
        # the cache), not once a move: read here, as a running server has it at hand.
        maintenance.current()
        with django_assert_max_num_queries(MOST_QUERIES + SAVEPOINTS) as queries:
            response = post(apis[seat.user_id], game, action)
        assert response.status_code == 201, response.json()
        sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
        assert len(sql) <= MOST_QUERIES, "\n".join(sql)
        after = list(Seat.objects.filter(game=game).values_list("deciding", "wait_version"))
        waits_begun += any(b[1] != a[1] for b, a in zip(before, after, strict=True))
        several_changed += sum(b[0] != a[0] for b, a in zip(before, after, strict=True)) > 1
    # The dearest moves were among them: waits begun (a deadline each), several seats at once.
    assert waits_begun >= 3 and several_changed >= 3


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_the_answer_to_a_move_is_the_game_as_read_again(kind, alice, bob, charlie, apis):
    game = start_game(alice, bob, charlie, kind=kind, move_days=3)
    rand = random.Random(5)
    undone = 0
    for _ in range(MOVES):
        move = next_move(game.pk, rand)
        if move is None:
            break
        game, seat, action = move
        api = apis[seat.user_id]
        answer = post(api, game, action).json()
        assert answer == api.get(game_url(game.pk)).json()
        legal = api.get(game_url(game.pk, "actions")).json()
        if legal["can_undo"] and (not undone or rand.random() < 0.3):
            answer = post(api, Game.objects.get(pk=game.pk), {"kind": "undo"}).json()
            assert answer == api.get(game_url(game.pk)).json()
            undone += 1
    # And a player resigning: the computer plays their seat from then on.
    game = Game.objects.get(pk=game.pk)
    if game.is_active:
        answer = post(apis[alice.pk], game, {"kind": "resign"}).json()
        assert answer == apis[alice.pk].get(game_url(game.pk)).json()
        assert next(p for p in answer["players"] if p["username"] == "alice")["resigned"]
    assert kind != "guildhall" or undone
