"""Replay and undo: a game is its options, players, seed and actions."""

import random

import pytest

from games.guildhall import IllegalAction, Options, legal_actions, to_json
from games.guildhall.match import Match
from games.guildhall.positions import from_json
from games.guildhall.random_player import choose


def played(seed=3, decisions=300, players=3, rules="yucata"):
    m = Match(Options(players=players, rules=rules), ["Ann", "Bob", "Cid"][:players], seed)
    rand = random.Random(seed)
    for _ in range(decisions):
        if m.state.phase == "over":
            break
        m.apply(choose(m.state, rand))
    return m


def test_replaying_the_record_rebuilds_the_state_exactly():
    m = played()
    assert m.replayed() == m.state
    again = Match(m.options, m.names, m.seed, m.moves)
    assert to_json(again.state) == to_json(m.state)


def setup_done(m):
    while m.state.phase == "setup":
        m.apply(
            legal_actions(m.state)[-1]
            if m.state.frames[-1]["type"] == "discard"
            else legal_actions(m.state)[0]
        )


def test_undo_takes_back_a_step_that_revealed_nothing():
    m = Match(Options(players=2), ["Ann", "Bob"], 11)
    setup_done(m)
    before = to_json(m.state)
    m.apply({"kind": "discard_draw"}, player=0)
    hand = m.state.players[0].hand[0]
    m.apply({"kind": "discard", "card": hand}, player=0)
    m.apply({"kind": "undo"}, player=0)
    m.apply({"kind": "undo"}, player=0)
    assert to_json(m.state) == before
    assert m.moves[-1] == {"player": 0, "action": {"kind": "undo"}}
    assert m.replayed() == m.state


def test_no_undo_after_a_draw_or_once_the_turn_passed():
    m = Match(Options(players=2), ["Ann", "Bob"], 11)
    setup_done(m)
    m.apply({"kind": "discard_draw"}, player=0)
    m.apply({"kind": "discard", "card": m.state.players[0].hand[0]}, player=0)
    m.apply({"kind": "done"}, player=0)  # draws a card: hidden information revealed
    with pytest.raises(IllegalAction) as e:
        m.apply({"kind": "undo"}, player=0)
    assert e.value.rule == "undo_not_allowed"
    m.apply({"kind": "discard_draw"}, player=0)
    m.apply({"kind": "done"}, player=0)
    m.apply({"kind": "end_turn"}, player=0)
    with pytest.raises(IllegalAction):
        m.apply({"kind": "undo"}, player=0)


def test_only_the_player_who_made_the_step_may_undo_it():
    m = Match(Options(players=2), ["Ann", "Bob"], 11)
    setup_done(m)
    m.apply({"kind": "discard_draw"}, player=0)
    with pytest.raises(IllegalAction):
        m.apply({"kind": "undo"}, player=1)
    m.apply({"kind": "undo"}, player=0)


def test_a_resumed_match_can_still_undo():
    m = Match(Options(players=2), ["Ann", "Bob"], 11)
    setup_done(m)
    m.apply({"kind": "discard_draw"}, player=0)
    snapshot = to_json(m.state)
    resumed = Match.resume(m.options, m.names, m.seed, m.moves, from_json(snapshot))
    resumed.apply({"kind": "undo"}, player=0)
    assert resumed.state.frames == []
    assert resumed.replayed() == resumed.state


def test_an_illegal_action_leaves_the_record_alone():
    m = played(decisions=50)
    moves = list(m.moves)
    state = to_json(m.state)
    with pytest.raises(IllegalAction):
        m.apply({"kind": "fly"})
    assert m.moves == moves and to_json(m.state) == state


def test_looking_through_a_hidden_discard_pile_cannot_be_undone():
    from games.guildhall.builder import build
    from games.guildhall.engine import undo_player

    from .helpers import act, play

    for advanced, undoable in ((True, None), (False, 0)):
        st = build(
            options=Options(rules="classic", advanced=advanced),
            players=[
                {"hand": ["red historian"], "guildhall": ["blue historian", "green historian"]},
                {},
            ],
            discard=["yellow farmer", "purple farmer"],
        )
        play(st, "red historian")
        act(st, "use", level=2)
        assert undo_player(st) == undoable


def test_a_shuffle_cannot_be_undone():
    from games.guildhall.builder import build
    from games.guildhall.engine import undo_player

    from .helpers import act

    st = build(players=[{"hand": []}, {}], discard=["red weaver"])
    st.players[1].hand.extend(st.deck)
    st.deck = []
    act(st, "discard_draw")
    assert undo_player(st) == 0
    act(st, "done")
    assert undo_player(st) is None
