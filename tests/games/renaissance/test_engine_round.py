"""The end of a round: RENAISSANCE.md 3.5-3.6, the source's "Discard Phase" and "Refill
Phase" and the reshuffle of the Preparation."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.views import view

from .helpers import act, card, legal, pass_all, types


def hands(*cards_per_seat):
    return [{"hand": list(h)} for h in cards_per_seat]


def two_at_discard():
    a = [card("baker"), card("scholar")]
    b = [card("knight")]
    st = build(players=hands(a, b), stage="discard")
    return st, a, b


def test_every_player_with_cards_discards_at_once_in_secret():
    st, a, b = two_at_discard()
    assert engine.deciders(st) == {0, 1}
    assert legal(st, 0) == [
        {"kind": "discard", "card": a[0]},
        {"kind": "discard", "card": a[1]},
        {"kind": "done"},
    ]
    act(st, 0, "discard", card=a[0])
    assert st.players[0].hand == a  # nothing moves before the reveal
    assert {"kind": "keep", "card": a[0]} in legal(st, 0)
    act(st, 0, "done")
    assert engine.deciders(st) == {1}
    seen = view(st, 1)
    assert seen["players"][0]["submitted"] and seen["players"][0]["hand_size"] == 2
    events = act(st, 1, "done")
    assert {"type": "discards", "cards": [[a[0]], []]} in events
    assert a[0] in st.discard and a[0] not in st.players[0].hand


def test_a_changed_selection_is_submitted_again():
    st, a, b = two_at_discard()
    act(st, 0, "discard", card=a[0])
    act(st, 0, "done")
    events = act(st, 0, "keep", card=a[0])
    assert events[0]["was"] is True and engine.deciders(st) == {0, 1}
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "keep", card=a[0])
    assert caught.value.rule == "not_picked"
    act(st, 0, "done")
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "done")
    assert caught.value.rule == "already_submitted"
    act(st, 1, "discard", card=b[0])
    act(st, 1, "done")
    assert st.players[0].hand[:2] == a and b[0] in st.discard


def test_workers_may_be_removed_as_part_of_the_discards_revealed_with_them():
    # Rulings §2: removal "at any time", as the first part of the discard step too.
    a = [card("baker")]
    worker = card("merchant", needs=("coin", "book"))
    st = build(
        players=[{"hand": a, "cells": {(2, 0): worker}}, {"hand": [card("knight")]}],
        stage="discard",
    )
    assert {"kind": "remove", "level": 2, "pos": 0} in legal(st, 0)
    assert not legal(st, 1, "remove")  # nothing above level 1
    act(st, 0, "done")
    events = act(st, 0, "remove", level=2, pos=0)  # reopens the submission
    assert events[0]["was"] is True and engine.deciders(st) == {0, 1}
    assert st.players[0].cells[5] == worker  # secret until the reveal
    assert view(st, 1)["players"][0]["structure"][1][0]["id"] == worker
    assert {"kind": "reset"} in legal(st, 0)
    act(st, 0, "done")
    events = act(st, 1, "done")
    reveal = next(e for e in events if e["type"] == "discards")
    assert reveal["removals"] == [[{"level": 2, "pos": 0, "card": worker}], []]
    assert st.players[0].cells[5] is None and worker in st.discard


def test_a_removal_in_the_discard_step_may_be_taken_back():
    worker = card("merchant", needs=("coin", "book"))
    st = build(players=[{"hand": [card("baker")], "cells": {(2, 0): worker}}], stage="discard")
    act(st, 0, "remove", level=2, pos=0)
    act(st, 0, "reset")
    assert st.players[0].removals == [] and not legal(st, 0, "reset")
    events = act(st, 0, "done")
    assert "removals" not in next(e for e in events if e["type"] == "discards")
    assert st.players[0].cells[5] == worker


def test_a_player_without_cards_is_not_asked():
    st = build(players=hands([card("baker")], []), stage="discard")
    assert engine.deciders(st) == {0}
    with pytest.raises(IllegalAction) as caught:
        act(st, 1, "done")
    assert caught.value.rule == "not_your_decision"


def test_refill_fills_the_recruit_board_then_hands_to_four_in_seat_order():
    st = build(players=hands([], [card("baker")]), stage="discard", recruit=[None, 5, None, 7])
    top = st.deck[::-1][:9]
    events = act(st, 1, "done")
    assert st.recruit == [top[0], 5, top[1], 7]
    assert st.players[0].hand == top[2:6] and st.players[1].hand[1:] == top[6:9]
    assert types(events)[:3] == ["discard_done", "discards", "refill"]
    assert st.round == 2 and st.stage == "action" and st.phase == 1


def test_a_hand_above_four_draws_nothing_and_may_stay():
    five = [
        card("baker", skip=[card("baker")]),
        *[card(t) for t in ("merchant", "scholar", "knight", "baker")],
    ]
    st = build(players=hands(five), stage="discard")
    act(st, 0, "done")
    assert st.players[0].hand == five


def test_recruited_cards_may_be_discarded():
    st = build(players=[{"knights": {"bread": 1}, "hand": [card("merchant")]}])
    prize = st.recruit[2]
    pass_all(st, 0)
    if st.stage == "recruit":
        act(st, 0, "take")
    assert prize in st.players[0].hand and st.stage == "discard"
    act(st, 0, "discard", card=prize)
    act(st, 0, "done")
    assert prize in st.discard


def test_an_empty_deck_is_made_again_from_the_shuffled_discard_pile():
    hand = [card("baker")]
    keep = [c for c in range(96) if c not in hand][:10]
    pile = [c for c in range(96) if c not in hand and c not in keep]
    st = build(players=hands(hand, []), stage="discard", discard=pile, recruit=keep[:4])
    assert len(st.deck) == 6  # keep[4:]
    events = act(st, 0, "discard", card=hand[0]) + act(st, 0, "done")
    shuffle = next(e for e in events if e["type"] == "reshuffle")
    assert shuffle["cards"] == len(pile) + 1
    assert len(st.players[0].hand) == 4 and len(st.players[1].hand) == 4
    assert len(st.deck) == len(pile) + 1 - 2 and st.discard == []
    assert st.reshuffles == 1
