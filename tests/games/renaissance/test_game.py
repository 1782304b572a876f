"""The game object: what the platform asks of Renaissance Man (games.core.GameKind)."""

import random

import pytest

import games.renaissance.game  # noqa: F401 (registers it)
from games.core import GameKind, IllegalAction, OptionError
from games.core.registry import get
from games.renaissance.builder import build
from games.renaissance.game import RENAISSANCE as GAME

from .games import new_match, random_game
from .helpers import act, card


def test_the_game_object():
    assert isinstance(GAME, GameKind)
    assert (GAME.id, GAME.name, GAME.min_players, GAME.max_players) == (
        "renaissance",
        "Renaissance Man",
        1,
        4,
    )
    assert GAME.view_component == "RenaissanceView"
    assert GAME.action_component == "RenaissanceAction"
    assert {"RenaissanceView", "RenaissanceAction"} <= set(GAME.api_components())
    assert get("renaissance") is GAME  # offered on the site (games/renaissance/game.py)


def test_options_and_their_defaults():
    assert GAME.parse_options(None, 3) == {"solo": "standard", "solo_cards": 10}
    assert GAME.parse_options({"solo": "easier", "solo_cards": 5}, 1)["solo"] == "easier"
    assert GAME.options_label({"solo": "tougher", "solo_cards": 10}) == (
        "tougher one-player game (10 cards)"
    )
    for bad, players in (({"solo": "hard"}, 1), ({"solo_cards": 0}, 1), (None, 5), (None, 0)):
        with pytest.raises(OptionError):
            GAME.parse_options(bad, players)


def test_malformed_actions_are_refused_whatever_the_state():
    for action, rule in (
        ([], "malformed_action"),
        ({"kind": "hire", "card": 3}, "malformed_action"),
        ({"kind": "pass", "card": 3}, "malformed_action"),
        ({"kind": "discard", "card": True}, "malformed_action"),
        ({"kind": "fly"}, "unknown_action"),
    ):
        with pytest.raises(IllegalAction) as caught:
            GAME.check_shape(action)
        assert caught.value.rule == rule
    for example in GAME.action_examples().values():
        assert GAME.check_shape(example) == example
    assert GAME.check_shape({"kind": "undo"}) and GAME.check_shape({"kind": "resign"})


def test_phase_deciders_step_and_prompts_through_a_round():
    match = new_match(players=2)
    st = match.state
    assert GAME.phase(st) == "setup" and GAME.deciders(st) == {0, 1}
    assert (
        GAME.prompt(GAME.view(st, 0)) == "Choose the foundation worker for position 1 of level 1."
    )
    assert GAME.prompt(GAME.view(st, None)) is None
    for seat in (0, 1):
        for w in ("merchant", "scholar", "baker", "knight"):
            match.apply({"kind": "foundation", "worker": w}, seat)
    st = match.state
    assert GAME.phase(st) == "play"
    assert GAME.prompt(GAME.view(st, 1)) == "Choose your action for phase 1."
    match.apply({"kind": "pass"}, 1)
    assert GAME.prompt(GAME.view(match.state, 1)).startswith("You have chosen your action")
    assert GAME.scores(GAME.view(match.state, None)) == {0: 5, 1: 5}


def test_prompts_of_the_other_decisions():
    prize = card("merchant", needs=("coin", "book"))
    st = build(players=[{"knights": {"coin": 1}}, {}], recruit=[prize, None, None, None])
    act(st, 0, "pass")
    act(st, 1, "pass")
    assert GAME.prompt(GAME.view(st, 0)).startswith("You won the coin area")
    st = build(players=[{"hand": [card("baker")]}], stage="discard")
    assert GAME.prompt(GAME.view(st, 0)) == "Choose the cards to discard, if any, then confirm."
    st = build(players=[{"picks": [card("baker")]}, {}], stage="rm")
    assert GAME.prompt(GAME.view(st, 0)) == "Choose where your face-down Renaissance Man goes."


def test_the_result_rows_and_the_computer():
    match = new_match(players=2, seed=3)
    rand = random.Random(1)
    while GAME.phase(match.state) != "over":
        seat = min(GAME.deciders(match.state))
        action = GAME.choose(match.state, seat, rand)
        assert action in GAME.legal_actions(match.state, seat)
        match.apply(action, seat)
    result = GAME.result(match.state)
    assert [set(r) for r in result] == [{"seat", "rank", "score"}] * 2
    assert result[0]["rank"] == 1 and result[0]["score"] == 15
    assert GAME.result_detail(result[0]) == "a Master"


def test_views_and_actions_follow_the_schemas():
    # The top level only: test_api_schema.py checks every value, as strict validators do.
    components = GAME.api_components()
    view_schema = components["RenaissanceView"]
    by_kind = components["RenaissanceAction"]["discriminator"]["mapping"]
    for move in random_game(4, players=3, max_rounds=4):
        st = move.match.state
        for viewer in (None, *st.seats):
            seen = GAME.view(st, viewer)
            assert set(view_schema["required"]) <= set(seen)
            assert set(seen) <= set(view_schema["properties"])
            for a in seen["legal_actions"]:
                action_schema = components[by_kind[a["kind"]].rsplit("/", 1)[1]]
                assert set(a) <= set(action_schema["properties"])


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_game_over_in_its_foundation_step_is_stored_and_read_back(players):
    # The last seats still in it resign before anyone set a foundation: the game is over
    # with every structure empty, and its snapshot must read back (the site stores it).
    match = new_match(players=players)
    for seat in reversed(range(players)):
        if GAME.phase(match.state) != "over":
            match.apply({"kind": "resign"}, seat)
    st = match.state
    assert GAME.phase(st) == "over" and all(c is None for p in st.players for c in p.cells)
    data = GAME.to_json(st)
    assert GAME.to_json(GAME.from_json(data)) == data
    assert GAME.result(GAME.from_json(data)) == GAME.result(st)


def test_a_structure_set_in_part_is_still_refused_once_over():
    data = GAME.to_json(new_match(players=2).state)
    data["stage"] = "over"
    data["players"][0]["cells"][0] = 0  # one card of a structure, the rest empty
    with pytest.raises(ValueError):
        GAME.from_json(data)
