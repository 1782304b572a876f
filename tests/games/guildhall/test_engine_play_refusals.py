"""Why a hand card cannot be played (RULINGS 3), for the board's card help: the engine's own
rule, only for the viewer's own hand, only while they choose an action."""

from games.guildhall import legal_actions
from games.guildhall.builder import build
from games.guildhall.engine import play_refusals
from games.guildhall.options import Options
from games.guildhall.views import view
from tests.games.guildhall.helpers import find


def playable(st) -> set[int]:
    return {a["card"] for a in legal_actions(st) if a["kind"] == "play"}


def test_a_card_already_in_the_guildhall_names_the_rule():
    st = build(
        players=[
            {"hand": ["green dancer", "red trader"], "guildhall": ["green dancer"]},
            {"guildhall": ["blue trader"]},
        ]
    )
    refusals = play_refusals(st, 0)
    dancer = find(st.players[0].hand, "green dancer")
    assert refusals == {
        dancer: "You cannot play this green Dancer: "
        "you already have a green Dancer in your guildhall"
    }
    # Exactly the cards the legal actions leave out.
    assert set(refusals) == set(st.players[0].hand) - playable(st)


def test_fantasy_names_in_the_reason():
    st = build(
        players=[{"hand": ["green dancer"], "guildhall": ["green dancer"]}, {}],
        options=Options(players=2, names="fantasy"),
    )
    assert list(play_refusals(st, 0).values()) == [
        "You cannot play this green Cleric: you already have a green Cleric in your guildhall"
    ]


def test_one_card_of_a_profession_per_turn():
    st = build(players=[{"hand": ["red trader", "blue trader"]}, {}], played=("trader",))
    refusals = play_refusals(st, 0)
    assert set(refusals) == set(st.players[0].hand) == set(st.players[0].hand) - playable(st)
    assert all("two cards of a profession in one turn" in why for why in refusals.values())


def test_advanced_rule_action_area():
    st = build(
        players=[{"hand": ["red trader"], "action_area": ["blue trader"]}, {}],
        options=Options(players=2, advanced=True),
    )
    (why,) = play_refusals(st, 0).values()
    assert "action area" in why
    assert playable(st) == set()


def test_only_for_the_one_choosing_an_action_and_only_in_their_own_view():
    st = build(
        players=[
            {"hand": ["green dancer"], "guildhall": ["green dancer"]},
            {"hand": ["red farmer"], "guildhall": ["red farmer"]},
        ]
    )
    assert play_refusals(st, 1) == {}  # not Bob's turn
    mine = view(st, 0)["players"]
    assert [x["why"] for x in mine[0]["unplayable"]]
    assert "unplayable" not in mine[1]
    assert all("unplayable" not in p for p in view(st, None)["players"])
    assert "unplayable" not in view(st, 1)["players"][1]  # Bob: nothing to choose now
