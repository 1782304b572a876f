"""The board's "next game" offer, and a finished game's result: each player's VP broken down,
what decided equal places, and no "computer plays" tag once the game is over."""

import random
import re

import pytest
from django.urls import reverse

from games.guildhall.present import _result_rows
from games.models import Game, Seat
from games.play import moves
from tests.conftest import client_for
from tests.games.helpers import random_action, start_game
from tests.games.web.test_replay import finish


def play_until_only(game: Game, user, rand: random.Random) -> Game:
    """Random moves until the game waits for ``user`` alone."""
    for _ in range(2000):
        game.refresh_from_db()
        deciding = list(Seat.objects.filter(game=game, deciding=True).order_by("number"))
        if [s.user_id for s in deciding] == [user.pk]:
            return game
        mover = deciding[0]
        moves.do_submit_action(
            game.pk, mover.user, random_action(game, rand, mover.number), game.version
        )
    raise AssertionError("never got there")


def board(user, game: Game) -> str:
    return client_for(user).get(reverse("games:board", args=[game.pk])).content.decode()


def test_next_game_is_offered_while_this_game_waits_for_others(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    rand = random.Random(1)
    waiting_for_bob = play_until_only(start_game(alice, bob), bob, rand)
    assert "Next game waiting for me" not in board(alice, waiting_for_bob)  # nothing waits

    with django_capture_on_commit_callbacks(execute=True):  # renews the lists' stamps
        mine = play_until_only(start_game(alice, charlie), alice, rand)
    page = board(alice, waiting_for_bob)  # the cached board sees the other game change
    assert "Next game waiting for me" in page
    assert "1 game waits for you" in page
    assert f"{reverse('games:next')}?after={waiting_for_bob.pk}" in page
    assert "Next game waiting for me" not in board(alice, mine), "never on my own decision"
    assert "Next game waiting for me" not in board(charlie, mine)

    with django_capture_on_commit_callbacks(execute=True):
        third = play_until_only(start_game(alice, bob), alice, rand)
    assert "2 games wait for you" in board(alice, waiting_for_bob)
    response = client_for(alice).get(f"{reverse('games:next')}?after={waiting_for_bob.pk}")
    assert response.url in (
        reverse("games:board", args=[mine.pk]),
        reverse("games:board", args=[third.pk]),
    )


def test_a_conceded_seat_is_not_played_by_the_computer_after_the_end(alice, bob, charlie):
    game = play_until_only(start_game(alice, bob, charlie), alice, random.Random(2))
    moves.do_concede(game.pk, charlie)
    assert "computer plays" in board(alice, game)
    rand = random.Random(3)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        mover = Seat.objects.filter(game=game, deciding=True).order_by("number").first()
        action = random_action(game, rand, mover.number)
        moves.do_submit_action(game.pk, mover.user, action, game.version)
    assert game.status == Game.Status.FINISHED
    assert "computer plays" not in board(alice, game)


def test_the_result_shows_each_players_vp_by_cards_and_tokens(alice, bob):
    game = finish(start_game(alice, bob))
    page = board(alice, game)
    view = game.game_kind.view(game.game_kind.from_json(game.snapshot), 0)
    for p in view["players"]:
        points = [x["points"] for x in p["vp_cards"] + p["action_area_vp"]]
        assert sum(points) + p["vp_tokens"] == p["vp"]
        cards = "cards " + "+".join(map(str, points)) if points else "no cards"
        tokens = f"{p['vp_tokens']} token" + ("" if p["vp_tokens"] == 1 else "s")
        assert f"{cards} · {tokens}" in page


def player(seat, cards, tokens):
    return {
        "seat": seat,
        "vp_cards": [{"points": x} for x in cards],
        "action_area_vp": [],
        "vp_tokens": tokens,
    }


@pytest.mark.parametrize(
    ("rules", "rows", "expected"),
    [
        # The winner ended their turn on 20; Bob has as much: the turn decided.
        (
            "yucata",
            [(0, 1, 20, 2), (1, 2, 20, 3), (2, 3, 12, 1)],
            ["won_on_turn", "", ""],
        ),
        # Equal VP behind the winner: completed chapters decide (Yucata), else an equal place.
        ("yucata", [(0, 1, 21, 2), (1, 2, 15, 3), (2, 3, 15, 1)], ["", "chapters", "chapters"]),
        ("yucata", [(0, 1, 21, 2), (1, 2, 15, 2), (2, 2, 15, 2)], ["", "tie_yucata", "tie_yucata"]),
        ("classic", [(0, 1, 21, 2), (1, 2, 15, 3), (2, 2, 15, 1)], ["", "tie", "tie"]),
    ],
)
def test_what_decided_equal_places(rules, rows, expected):
    result = [{"seat": s, "rank": r, "vp": vp, "completed": c} for s, r, vp, c in rows]
    players = [player(s, [vp], 0) for s, _r, vp, _c in rows]
    view = {"result": result, "options": {"rules": rules}}
    assert [row["decided"] for row in _result_rows(view, players)] == expected


def test_a_resigned_row_says_so():
    result = [
        {"seat": 0, "rank": 1, "vp": 20, "completed": 1},
        {"seat": 1, "rank": 2, "vp": 20, "completed": 1, "resigned": True},
    ]
    rows = _result_rows(
        {"result": result, "options": {"rules": "yucata"}}, [player(0, [20], 0), player(1, [20], 0)]
    )
    assert [row["decided"] for row in rows] == ["", "resigned"]


def with_position(game: Game, **position) -> Game:
    """``game`` set to a position built by hand (Alice's seat first in ``players``)."""
    from games.guildhall.builder import build
    from games.guildhall.positions import to_json

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    alice_seat = next(s.number for s in seats if s.user.username == "alice")
    players = position.pop("players")
    if alice_seat:
        players = players[1:] + players[:1]  # Alice's entry to her own seat
    state = build(
        players=players,
        names=game.names,
        current=alice_seat,
        options=game.engine_options(),
        **position,
    )
    Game.objects.filter(pk=game.pk).update(snapshot=to_json(state))
    Seat.objects.filter(game=game).update(deciding=False)
    Seat.objects.filter(game=game, number=alice_seat).update(deciding=True)
    game.refresh_from_db()
    return game


def test_a_card_that_cannot_be_played_says_why_and_what_it_does(alice, bob):
    game = with_position(
        start_game(alice, bob, rules="yucata", fantasy_names=True),
        players=[
            {"hand": ["green dancer", "red trader"], "guildhall": ["green dancer", "blue dancer"]},
            {"guildhall": ["blue trader"]},
        ],
    )
    page = board(alice, game)
    refused = re.search(
        r'<button type="button" class="card c-green refused" popovertarget="(help-card-\d+)"', page
    )
    assert refused, "the green Cleric is drawn refused, opening its own help"
    help_box = re.search(rf'<div popover id="{refused.group(1)}".*?</div>', page, re.S).group(0)
    assert "you already have a green Cleric in your guildhall" in help_box
    assert 'popovertarget="help-dancer"' in help_box  # and what a Cleric does
    cleric = re.search(r'<div popover id="help-dancer".*?</div>', page, re.S).group(0)
    assert '<h3 id="help-dancer-h">Cleric</h3>' in cleric
    assert "Your guildhall has 2 cards of this profession" in cleric
    assert "(you, now)" in cleric
    # Bob's board has no word of Alice's hand.
    assert "help-card-" not in board(bob, game)


def test_the_board_and_its_card_help_link_the_rules_page(alice, bob):
    game = start_game(alice, bob)
    page = board(alice, game)
    rules = reverse("games:rules", args=["guildhall"])
    assert f'<a href="{rules}">Rules</a>' in page
    assert f'<a href="{rules}#professions">' in page
    assert client_for(alice).get(rules).status_code == 200
