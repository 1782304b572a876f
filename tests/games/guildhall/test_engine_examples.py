"""The rulebook's own examples ([000]/[004]), played as written."""

import pytest

from games.guildhall import IllegalAction, legal_actions
from games.guildhall.builder import build

from .helpers import act, find, kinds, levels, names, picks, play


def test_weaver_2_example():
    """Two Weavers in the guildhall, a third played: level 2 places two hand cards and
    takes one guildhall card into the hand; level 0 places one; or nothing at all. Placing
    two without taking one back is not a choice."""
    st = build(
        players=[
            {
                "hand": ["red weaver", "blue farmer", "green dancer"],
                "guildhall": ["blue weaver", "green weaver", "yellow trader"],
            },
            {"guildhall": ["red trader"]},
        ]
    )
    play(st, "red weaver")
    assert levels(st) == [0, 2]
    act(st, "use", level=2)
    # Level 2 starts with the guildhall card that goes to the hand: it cannot be left out.
    assert set(picks(st)) == set(st.players[0].guildhall)
    assert "done" not in kinds(st)
    me = st.players[0]
    act(st, "pick", card=find(me.guildhall, "yellow trader"))
    act(st, "pick", card=find(me.hand, "blue farmer"))
    assert "done" not in kinds(st)
    act(st, "pick", card=find(me.hand, "green dancer"))
    assert names(me.hand) == ["yellow trader"]
    assert sorted(names(me.guildhall)) == [
        "blue farmer",
        "blue weaver",
        "green dancer",
        "green weaver",
    ]


def test_weaver_2_example_level_0_instead():
    st = build(
        players=[
            {"hand": ["red weaver", "blue farmer"], "guildhall": ["blue weaver", "green weaver"]},
            {"guildhall": ["red trader"]},
        ]
    )
    play(st, "red weaver")
    act(st, "use", level=0)
    act(st, "pick", card=find(st.players[0].hand, "blue farmer"))
    assert st.players[0].hand == []
    assert len(st.players[0].guildhall) == 3


def test_red_trader_example():
    """Red, blue, yellow, green Traders in the guildhall and a red Trader in hand: it cannot
    be played. A blue Historian takes the purple Trader from the discard pile: the chapter
    completes and flips; the red Trader may be played in the same turn."""
    st = build(
        players=[
            {
                "hand": ["red trader", "blue historian"],
                "guildhall": ["red trader", "blue trader", "yellow trader", "green trader"],
            },
            {"guildhall": ["red farmer"]},
        ],
        discard=["purple trader"],
    )
    me = st.players[0]
    red_in_hand = find(me.hand, "red trader")
    assert {"kind": "play", "card": red_in_hand} not in legal_actions(st)
    with pytest.raises(IllegalAction) as e:
        act(st, "play", card=red_in_hand)
    assert e.value.rule == "no_duplicates"
    play(st, "blue historian")
    act(st, "use", level=0)
    assert len(me.completed) == 1
    assert me.guildhall == []
    act(st, "play", card=red_in_hand)
    act(st, "end_turn")
    assert names(me.guildhall) == ["red trader", "blue historian"] or sorted(
        names(me.guildhall)
    ) == ["blue historian", "red trader"]


def test_duplicate_example_blue_farmer():
    """'If you have a blue Farmer in your guildhall, you cannot play a blue Farmer.'"""
    st = build(
        players=[
            {"hand": ["blue farmer"], "guildhall": ["blue farmer"]},
            {"guildhall": ["red trader"]},
        ]
    )
    assert "play" not in kinds(st)


def test_duplicate_example_identical_swap_between_hand_and_guildhall():
    """Two red Weavers may be swapped between hand and guildhall (Weaver exchange)."""
    st = build(
        players=[
            {
                "hand": ["red trader", "red weaver", "blue farmer"],
                "guildhall": ["red weaver", "blue weaver", "green weaver", "red trader"],
            },
            {"guildhall": ["red farmer"]},
        ]
    )
    # Play a Weaver? The red Weaver duplicates; use a Trader-free route: the exchange of
    # Weaver 2 needs a Weaver played. Give the hand a yellow Weaver.
    st2 = build(
        players=[
            {
                "hand": ["yellow weaver", "red weaver", "blue farmer"],
                "guildhall": ["red weaver", "blue weaver", "green weaver"],
            },
            {"guildhall": ["red farmer"]},
        ]
    )
    play(st2, "yellow weaver")
    act(st2, "use", level=2)
    me = st2.players[0]
    in_hall = find(me.guildhall, "red weaver")
    in_hand = find(me.hand, "red weaver")
    act(st2, "pick", card=in_hall)
    assert in_hand in picks(st2)  # the identical twin may come in as the other goes out
    act(st2, "pick", card=in_hand)
    act(st2, "pick", card=find(me.hand, "blue farmer"))
    assert in_hand in me.guildhall and in_hall in me.hand
    assert st.players[0].hand  # the first position stays untouched


def test_duplicate_example_identical_swap_between_guildhalls():
    st = build(
        players=[
            {"hand": ["red trader"], "guildhall": ["red weaver"]},
            {"guildhall": ["red weaver", "blue farmer"]},
        ]
    )
    play(st, "red trader")
    act(st, "use", level=0)
    act(st, "pick", card=st.players[0].guildhall[0])
    assert find(st.players[1].guildhall, "red weaver") in picks(st)


def test_duplicate_example_twin_only_in_action_area_may_be_placed():
    st = build(players=[{"hand": ["red weaver", "red weaver"]}, {"guildhall": ["red trader"]}])
    play(st, "red weaver")
    act(st, "use", level=0)
    assert len(picks(st)) == 1  # the twin of the played card fits: it is only in the action area


def test_duplicate_example_whole_chapter_with_a_duplicate_cannot_move():
    st = build(
        players=[
            {"completed": ["farmer"], "guildhall": ["blue trader"]},
            {"guildhall": ["red trader", "blue trader"]},
        ],
        center=["vp2_chapter", "vp5", "vp5", "vp9", None],
    )
    act(st, "buy", vp=st.center[0])
    while legal_actions(st)[0]["kind"] == "order":
        act(st, **legal_actions(st)[0])
    # The only chapter to take duplicates the blue Trader: the ability is not offered.
    assert "use" not in kinds(st)


def test_dancer_example_no_second_dancer_in_a_turn():
    st = build(players=[{"hand": ["red dancer", "blue dancer"]}, {"guildhall": ["red trader"]}])
    play(st, "red dancer")
    act(st, "use", level=0)
    with pytest.raises(IllegalAction) as e:
        play(st, "blue dancer")
    assert e.value.rule == "one_profession_per_turn"
