"""The end and the ranking: RENAISSANCE.md 4, the source's "End Of Game" and "One Player
Game"; resigning (docs/renaissance.md)."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.pyramid import MASTER, index

from .helpers import act, card, pass_all, types

BELOW_MASTER = {
    (level, pos): "rm" for level in (2, 3, 4) for pos in range(6 - level)
}  # 9 face-down cards: 14 in all, any card fits the Master's place


def fourteen(**extra):
    return {"cells": dict(BELOW_MASTER), "stored": ["coin"], **extra}


def hire_master(st, seat, c):
    return act(st, seat, "hire", card=c, source="token", level=5, pos=0)


def test_a_master_ends_the_game_after_the_action_phase():
    a, b = card("baker"), card("knight")
    st = build(players=[fourteen(hand=[a]), {"hand": [b], "rm_tokens": ["coin"]}])
    hire_master(st, 0, a)
    assert st.stage == "action"  # the phase is not over until everyone has submitted
    events = act(st, 1, "teach", card=b, source="worker")
    assert st.players[1].rm_tokens == [0, 3]  # the phase was resolved in full
    assert st.stage == "over" and st.phase_name == "over" and engine.deciders(st) == frozenset()
    assert types(events)[-1] == "game_over" and events[-1]["reason"] == "master"
    assert st.result == [{"seat": 0, "rank": 1, "score": 15}, {"seat": 1, "rank": 2, "score": 5}]
    assert engine.legal_actions(st, 0) == []
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "pass")
    assert caught.value.rule == "game_over"


def test_masters_at_once_are_decided_by_tokens_and_knights_on_the_board():
    a, b = card("baker"), card("knight")
    st = build(
        players=[
            fourteen(hand=[a], rm_tokens=["book"]),
            fourteen(hand=[b], knights={"coin": 1}, rm_tokens=["book"]),
        ]
    )
    hire_master(st, 0, a)
    hire_master(st, 1, b)
    assert [(r["seat"], r["rank"]) for r in st.result] == [(1, 1), (0, 2)]


def test_masters_at_once_with_equal_sums_share_the_victory():
    a, b = card("baker"), card("knight")
    st = build(players=[fourteen(hand=[a]), fourteen(hand=[b]), {}])
    hire_master(st, 0, a)
    hire_master(st, 1, b)
    events = act(st, 2, "pass")
    assert [(r["seat"], r["rank"]) for r in st.result] == [(0, 1), (1, 1), (2, 3)]
    assert "share the victory" in engine_line(st, events)


def engine_line(st, events):
    from games.renaissance.log import describe

    return describe(st, events, None)[-1]


def test_the_others_rank_by_cards_then_by_the_same_sum():
    a = card("baker")
    st = build(
        players=[
            fourteen(hand=[a]),
            {"cells": {(2, 0): "rm"}, "stored": ["book"]},
            {"cells": {(2, 0): "rm"}, "stored": ["book", "bread"]},
            {"cells": {(2, 1): "rm"}, "knights": {"coin": 1}, "stored": ["book"]},
        ]
    )
    hire_master(st, 0, a)
    pass_all(st, 1, 2, 3)
    assert [(r["seat"], r["rank"], r["score"]) for r in st.result] == [
        (0, 1, 15),
        (2, 2, 6),
        (3, 2, 6),
        (1, 4, 6),
    ]


def test_a_master_from_the_recruit_board_ends_the_game_after_the_resolution():
    prize = card("merchant")
    st = build(
        players=[
            {"cells": dict(BELOW_MASTER), "knights": {"coin": 1}, "hand": [card("baker")]},
            {},
        ],
        recruit=[prize, None, None, None],
    )
    while st.stage == "action":  # phases 1 to 4: Ann has cards up to level 4
        pass_all(st, 0, 1)
    assert st.stage == "recruit"
    events = act(st, 0, "place", level=5, pos=0)
    assert st.stage == "over" and st.players[0].cells[MASTER] == prize
    assert "discards" not in types(events)


# One player -----------------------------------------------------------------------------


def test_alone_a_master_wins():
    a = card("baker")
    st = build(players=[fourteen(hand=[a])])
    events = hire_master(st, 0, a)
    assert st.result == [{"seat": 0, "rank": 1, "score": 15}]
    assert events[-1]["reason"] == "master"


def test_alone_a_draw_from_an_empty_deck_loses():
    hand = [card("baker")]
    rest = [c for c in range(96) if c not in hand]
    st = build(players=[{"hand": hand}], recruit=rest[:4], discard=rest[4:])
    assert st.deck == []
    events = pass_all(st, 0)  # the opposing Knights' flip needs the deck
    assert st.stage == "over" and events[-1]["reason"] == "deck_out"
    assert st.result == [{"seat": 0, "rank": 2, "score": 5}]
    assert "reshuffle" not in types(events)


def test_the_easier_game_makes_one_new_deck_of_some_discarded_cards():
    hand = [card("baker")]
    rest = [c for c in range(96) if c not in hand]
    st = build(
        players=[{"hand": hand}],
        recruit=rest[:4],
        discard=rest[4:],
        options={"solo": "easier", "solo_cards": 10},
    )
    events = pass_all(st, 0)
    assert {"type": "reshuffle", "cards": 10} in events and st.reshuffles == 1
    assert st.stage != "over"
    st.deck.clear()
    st.discard.extend(range(0))  # nothing more
    with pytest.raises(engine._DeckOut):
        engine.draw(st, [])


def test_the_tougher_game_removes_cards_before_play():
    st = engine.new_game({"solo": "tougher", "solo_cards": 12}, ["Ann"], 3)
    assert len(st.discard) == 12 and len(st.deck) == 96 - 12 - 4
    st = engine.new_game({"solo": "tougher", "solo_cards": 12}, ["Ann", "Bob"], 3)
    assert st.discard == []  # only alone


# Resigning ------------------------------------------------------------------------------


def test_with_two_players_a_resignation_ends_the_game():
    st = build(players=[{}, {}])
    events = engine.resign(st, 0)
    assert st.stage == "over" and events[-1]["reason"] == "resigned"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(1, 1), (0, 2)]


def test_with_more_a_resigned_seat_plays_on_and_ranks_last():
    st = build(players=[{}, {"cells": {(2, 0): "rm"}}, {}])
    engine.resign(st, 1)
    assert st.stage == "action" and engine.deciders(st) == {0, 1, 2}
    with pytest.raises(IllegalAction) as caught:
        engine.resign(st, 1)
    assert caught.value.rule == "already_resigned"
    engine.resign(st, 2)
    assert st.stage == "over"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(0, 1), (2, 2), (1, 3)]


def test_alone_a_resignation_loses():
    st = build(players=[{}])
    engine.resign(st, 0)
    assert st.result == [{"seat": 0, "rank": 2, "score": 5}]


def test_a_master_of_a_resigned_seat_ends_the_game_but_does_not_win():
    a = card("baker")
    st = build(players=[fourteen(hand=[a]), {"cells": {(2, 0): "rm"}}, {}])
    engine.resign(st, 0)
    hire_master(st, 0, a)
    pass_all(st, 1, 2)
    assert st.stage == "over"
    assert [(r["seat"], r["rank"]) for r in st.result] == [(1, 1), (2, 2), (0, 3)]
    assert st.players[0].cells[index(5, 0)] == a


def test_a_new_renaissance_man_face_down_at_a_concession_goes_back_under_the_deck_unseen():
    # A concession while the new Renaissance Men wait to be placed: the card was in no
    # place but its owner's pending choice (the positions' check found it nowhere).
    import random

    from games.renaissance import legal, positions, random_player

    rand = random.Random(9)
    st = engine.new_game(None, ["Ann", "Bob"], 9)
    while st.stage != "rm":
        seat = min(engine.deciders(st))
        engine.apply(st, seat, random_player.choose(st, seat, rand, legal.legal_actions(st, seat)))
    face_down = [c for p in st.players for c in p.picks]
    discard = list(st.discard)
    assert face_down
    engine.resign(st, 0)
    assert st.stage == "over"
    assert st.discard == discard  # not shown on the pile
    assert st.deck[: len(face_down)] == face_down  # under the deck, whose order is secret
    positions.from_json(positions.to_json(st))  # every card in one place
