"""The end of the game and the ranking (RULINGS 3)."""

import pytest

from games.guildhall import IllegalAction, Options, apply, decision, legal_actions
from games.guildhall.builder import build

from .helpers import act

YUCATA = Options(rules="yucata")
NO_NINES = ["vp5", "vp5", "vp3_draw", "vp4_take", "vp3_swap"]
CLASSIC = Options(rules="classic")


def test_twenty_vp_at_the_end_of_your_turn_wins():
    st = build(
        players=[{"vp_cards": ["vp9", "vp9"], "tokens": 2}, {"vp_cards": ["vp5"]}],
        actions_left=0,
        center=NO_NINES,
    )
    act(st, "end_turn")
    assert st.phase == "over"
    assert decision(st) is None and legal_actions(st) == []
    assert st.result[0] == {"seat": 0, "rank": 1, "vp": 20, "completed": 0}


def test_nineteen_is_not_enough():
    st = build(
        players=[{"vp_cards": ["vp9", "vp9"], "tokens": 1}, {}], actions_left=0, center=NO_NINES
    )
    act(st, "end_turn")
    assert st.phase == "play"


def test_nobody_wins_on_another_players_turn():
    # Bob has 20 but it is Ann's turn that ends.
    st = build(
        players=[{}, {"vp_cards": ["vp9", "vp9"], "tokens": 2}], actions_left=0, center=NO_NINES
    )
    act(st, "end_turn")
    assert st.phase == "play" and st.current == 1
    act(st, "discard_draw")
    act(st, "done")
    act(st, "discard_draw")
    act(st, "done")
    act(st, "end_turn")
    assert st.phase == "over" and st.result[0]["seat"] == 1


def test_yucata_ranks_the_others_by_vp_then_completed_chapters_ties_share():
    st = build(
        options=YUCATA,
        players=[
            {"vp_cards": ["vp9", "vp9"], "tokens": 2},
            {"vp_cards": ["vp5"], "completed": ["farmer"]},
            {"vp_cards": ["vp5"]},
            {"tokens": 5, "completed": ["weaver"]},
        ],
        actions_left=0,
    )
    act(st, "end_turn")
    ranks = {row["seat"]: row["rank"] for row in st.result}
    assert ranks == {0: 1, 1: 2, 3: 2, 2: 4}


def test_classic_ranks_the_others_by_vp_alone():
    st = build(
        options=CLASSIC,
        players=[
            {"vp_cards": ["vp9", "vp9"], "tokens": 2},
            {"vp_cards": ["vp5"], "completed": ["farmer"]},
            {"vp_cards": ["vp5"]},
            {"tokens": 3},
        ],
        actions_left=0,
    )
    act(st, "end_turn")
    ranks = {row["seat"]: row["rank"] for row in st.result}
    assert ranks == {0: 1, 1: 2, 2: 2, 3: 4}


def test_resigning_in_two_player_game_gives_the_other_the_win():
    st = build(players=[{}, {}])
    apply(st, {"kind": "resign"}, player=1)  # at any moment, not only on one's turn
    assert st.phase == "over"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(0, 1), (1, 2)]
    assert st.result[1]["resigned"] is True


def test_resigned_seat_ranks_last_and_the_game_goes_on():
    st = build(players=[{"tokens": 9}, {}, {}])
    apply(st, {"kind": "resign"}, player=0)
    assert st.phase == "play" and st.resigned == [0]
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "resign"}, player=0)
    assert e.value.rule == "already_resigned"
    apply(st, {"kind": "resign"}, player=2)
    assert st.phase == "over"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(1, 1), (2, 2), (0, 3)]


def test_resign_needs_a_seat():
    st = build(players=[{}, {}])
    with pytest.raises(IllegalAction):
        apply(st, {"kind": "resign"})
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "resign"}, player=7)
    assert e.value.rule == "no_such_seat"


def test_a_resigned_seat_reaching_twenty_ends_the_game_without_winning():
    st = build(
        players=[{"vp_cards": ["vp9", "vp9"], "tokens": 2}, {"tokens": 3}, {"tokens": 1}],
        actions_left=0,
        center=NO_NINES,
    )
    apply(st, {"kind": "resign"}, player=0)
    act(st, "end_turn")  # the computer played seat 0's turn
    assert st.phase == "over"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(1, 1), (2, 2), (0, 3)]


def test_a_resignation_cannot_be_undone():
    from games.guildhall.engine import undo_player

    st = build(players=[{}, {}, {}])
    act(st, "discard_draw")
    assert undo_player(st) == 0
    apply(st, {"kind": "resign"}, player=2)
    assert undo_player(st) is None
