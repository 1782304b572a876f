"""Preparation and the foundation: RENAISSANCE.md 1 and the source's "Preparation"."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.cards import foundation_card
from games.renaissance.positions import to_json
from games.renaissance.views import view

from .helpers import NAMES, act, legal, types


def new(players=3, seed=7, options=None):
    return engine.new_game(options, NAMES[:players], seed)


def set_foundation(st, seat, order="merchant scholar baker knight"):
    events = []
    for worker in order.split():
        events += act(st, seat, "foundation", worker=worker)
    return events


def test_a_new_game_deals_the_recruit_board_and_waits_for_every_foundation():
    st = new()
    assert st.stage == "foundation" and st.phase_name == "setup"
    assert all(c is not None for c in st.recruit) and len(st.deck) == 92
    assert all(not p.hand and all(c is None for c in p.cells) for p in st.players)
    assert engine.deciders(st) == {0, 1, 2}
    assert view(st, 0)["phase"] == "setup"
    # The foundation cards are not deck cards.
    assert not set(st.deck) & {foundation_card(q, w) for q in range(4) for w in range(5)}


def test_the_game_comes_from_the_seed():
    assert new(seed=5) == new(seed=5)
    assert len({tuple(new(seed=s).recruit) for s in range(10)}) > 1


def test_the_foundation_is_picked_left_to_right_and_the_last_card_goes_by_itself():
    st = new()
    assert [a["worker"] for a in legal(st, 0)] == ["merchant", "scholar", "baker", "knight", "rm"]
    act(st, 0, "foundation", worker="rm")
    assert "rm" not in [a.get("worker") for a in legal(st, 0)]
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "foundation", worker="rm")
    assert caught.value.rule == "already_placed"
    events = act(st, 0, "foundation", worker="knight")
    events += act(st, 0, "foundation", worker="baker")
    events += act(st, 0, "foundation", worker="scholar")
    assert st.players[0].picks == [4, 3, 2, 1, 0] and st.players[0].done
    assert engine.deciders(st) == {1, 2}
    assert legal(st, 0) == [{"kind": "reset"}]  # may still change it until all have chosen
    assert events[-1] == {"type": "foundation", "player": 0, "worker": "scholar", "done": True}


def test_a_foundation_stays_secret_and_changeable_until_every_one_is_set():
    st = new()
    set_foundation(st, 0)
    seen = view(st, 1)
    assert seen["players"][0]["submitted"] and not seen["players"][1]["submitted"]
    assert all(c is None for row in seen["players"][0]["structure"] for c in row)
    act(st, 0, "reset")
    assert engine.deciders(st) == {0, 1, 2} and st.players[0].picks == []
    set_foundation(st, 0, "knight baker rm scholar")
    set_foundation(st, 1)
    step = st.step
    events = set_foundation(st, 2, "rm merchant scholar baker")
    assert "foundation_reveal" in types(events)
    assert st.stage == "action" and st.phase == 1 and st.round == 1 and st.step > step
    assert st.players[0].cells[:5] == [foundation_card(0, w) for w in (3, 2, 4, 1, 0)]
    assert st.players[2].cells[:5] == [foundation_card(2, w) for w in (4, 0, 1, 2, 3)]


def test_hands_of_four_are_dealt_after_the_foundations_in_seat_order():
    st = new()
    top = st.deck[-12:][::-1]  # the next twelve cards drawn
    for seat in range(3):
        set_foundation(st, seat)
    assert [p.hand for p in st.players] == [top[0:4], top[4:8], top[8:12]]


def test_the_foundation_answers_no_other_decision():
    st = new()
    before = to_json(st)
    for action in ({"kind": "pass"}, {"kind": "done"}, {"kind": "take"}):
        with pytest.raises(IllegalAction) as caught:
            engine.apply(st, 0, action)
        assert caught.value.rule == "wrong_decision"
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "foundation", worker="jester")
    assert caught.value.rule == "no_such_worker"
    assert to_json(st) == before
