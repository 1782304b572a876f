"""Action phases: RENAISSANCE.md 2 and 3.2-3.3, the source's "Action Types", "Worker
Removal" and "A Note about Simultaneous Play". Foundations are "merchant scholar baker
knight rm" unless a test says otherwise: level 2 needs (coin, book), (book, bread),
(bread, shield), (shield, any)."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.cards import ICON_INDEX, TYPE, TYPES
from games.renaissance.positions import to_json
from games.renaissance.pyramid import index

from .helpers import act, card, kinds, legal, not_fitting, pass_all, types

COIN_BOOK = ("coin", "book")
LEVEL2 = [("coin", "book"), ("book", "bread"), ("bread", "shield"), ("shield", None)]


def test_hire_offers_exactly_the_positions_whose_needs_the_card_meets():
    fits = card("merchant", needs=COIN_BOOK)
    dead = not_fitting(LEVEL2, skip=(fits,))
    st = build(players=[{"hand": [fits, dead]}, {"hand": []}])
    hires = legal(st, 0, "hire")
    assert hires == [{"kind": "hire", "card": fits, "source": "worker", "level": 2, "pos": 0}]
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "hire", card=dead, source="worker", level=2, pos=0)
    assert caught.value.rule == "does_not_fit"
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "hire", card=fits, source="worker", level=2, pos=1)
    assert caught.value.rule == "does_not_fit"


def test_a_submission_is_applied_only_when_everyone_has_submitted():
    fits = card("merchant", needs=COIN_BOOK)
    st = build(players=[{"hand": [fits]}, {"hand": []}])
    events = act(st, 0, "hire", card=fits, source="worker", level=2, pos=0)
    assert types(events) == ["choose"]
    assert st.players[0].hand == [fits] and st.players[0].cells[index(2, 0)] is None
    assert engine.deciders(st) == {1}
    # It may change until the last submission: its choices are still listed.
    assert {"kind": "pass"} in legal(st, 0)
    events = act(st, 1, "pass")
    assert types(events)[:3] == ["choose", "reveal", "phase"]
    assert st.players[0].cells[index(2, 0)] == fits and st.players[0].hand == []
    assert st.revealed["submissions"][0]["action"]["card"] == fits


def test_a_changed_choice_replaces_the_first():
    fits = card("merchant", needs=COIN_BOOK)
    st = build(players=[{"hand": [fits]}, {}])
    act(st, 0, "hire", card=fits, source="worker", level=2, pos=0)
    events = act(st, 0, "barter", card=fits, source="worker")
    assert events[0]["change"] is True
    act(st, 1, "pass")
    assert st.players[0].stored == [TYPE[fits]] and st.players[0].cells[index(2, 0)] is None


def test_barter_stores_a_token_of_the_cards_type():
    baker = card("baker")
    st = build(players=[{"hand": [baker]}])
    act(st, 0, "barter", card=baker, source="worker")
    assert st.players[0].stored == [ICON_INDEX["bread"]] and baker in st.discard


def test_a_full_store_names_the_token_to_return():
    knight = card("knight")
    st = build(players=[{"hand": [knight], "stored": ["coin", "coin", "book", "bread"]}])
    barters = legal(st, 0, "barter")
    assert sorted(a["return_token"] for a in barters) == ["book", "bread", "coin"]
    before = to_json(st)
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "barter", card=knight, source="worker")
    assert caught.value.rule == "store_full"
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "barter", card=knight, source="worker", return_token="shield")
    assert caught.value.rule == "no_such_token"
    assert to_json(st) == before
    act(st, 0, "barter", card=knight, source="worker", return_token="coin")
    assert st.players[0].stored == [0, 1, 2, 3]


def test_with_room_no_token_is_returned():
    knight = card("knight")
    st = build(players=[{"hand": [knight], "stored": ["coin"]}])
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "barter", card=knight, source="worker", return_token="coin")
    assert caught.value.rule == "no_return_needed"


def test_teach_fills_the_rm_area_one_token_of_each_type():
    scholar = card("scholar")
    st = build(players=[{"hand": [scholar], "rm_tokens": ["coin"]}])
    act(st, 0, "teach", card=scholar, source="worker")
    assert st.players[0].rm_tokens == [0, 1] and scholar in st.discard


def test_teach_is_illegal_with_a_token_of_that_type_already_there():
    scholar = card("scholar")
    st = build(players=[{"hand": [scholar], "rm_tokens": ["book"]}])
    assert not legal(st, 0, "teach")
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "teach", card=scholar, source="worker")
    assert caught.value.rule == "rm_token_held"


def test_the_fourth_token_generates_a_face_down_renaissance_man_placed_by_choice():
    knight = card("knight")
    top = card(needs=("shield", "shield"))
    st = build(
        players=[
            {"hand": [knight], "rm_tokens": ["coin", "book", "bread"]},
            {"hand": [card("knight", skip=[knight])], "rm_tokens": ["coin", "book", "bread"]},
        ],
        deck_top=[top],
    )
    second = st.deck[-2]
    act(st, 0, "teach", card=knight, source="worker")
    events = act(st, 1, "teach", card=st.players[1].hand[0], source="worker")
    assert [e["player"] for e in events if e["type"] == "rm_drawn"] == [0, 1]
    assert st.stage == "rm" and engine.deciders(st) == {0, 1}
    assert st.players[0].picks == [top] and st.players[1].picks == [second]
    assert st.players[0].rm_tokens == [] and st.players[1].rm_tokens == []
    places = legal(st, 0)
    assert [(a["level"], a["pos"]) for a in places] == [(2, 0), (2, 1), (2, 2), (2, 3)]
    act(st, 0, "place_rm", level=2, pos=1)
    act(st, 0, "place_rm", level=2, pos=2)  # changed until everyone has chosen
    assert st.players[0].cells[index(2, 2)] is None  # not yet: simultaneous
    events = act(st, 1, "place_rm", level=2, pos=0)
    assert types(events)[:2] == ["place_rm", "rm_placed"]
    assert st.players[0].cells[index(2, 2)] == top and st.players[0].down == [top]
    assert st.players[1].cells[index(2, 0)] == second
    assert st.stage == "action" and st.phase == 2  # level-2 cards call phase 2


def test_a_renaissance_man_with_a_single_place_is_still_placed_by_its_owner():
    """One open place, but removing a worker first may free another (rulings §2): the
    owner is asked, and a place freed by its removals may take the card."""
    scholar = card("scholar")
    st = build(
        players=[
            {
                "hand": [scholar],
                "rm_tokens": ["coin", "bread", "shield"],
                "foundation": "merchant baker knight rm scholar",
                "cells": {
                    (2, 0): "rm",
                    (2, 1): "rm",
                    (2, 2): "rm",
                    (3, 0): "rm",
                    (3, 1): "rm",
                    (4, 0): "rm",
                },
            },
            {},
        ],
    )
    assert engine.pyramid.open_positions(st.players[0].cells) == [index(2, 3)]
    top = st.deck[-1]
    act(st, 0, "teach", card=scholar, source="worker")
    act(st, 1, "pass")
    assert st.stage == "rm" and engine.deciders(st) == {0}
    assert {(a["level"], a["pos"]) for a in legal(st, 0, "place_rm")} == {(2, 3)}
    assert {(a["level"], a["pos"]) for a in legal(st, 0, "remove")} == {(4, 0)}
    act(st, 0, "remove", level=4, pos=0)
    # Removed at the reveal; its place is free for the new card meanwhile.
    assert st.players[0].cells[index(4, 0)] is not None
    assert {(a["level"], a["pos"]) for a in legal(st, 0, "place_rm")} == {(2, 3), (4, 0)}
    events = act(st, 0, "place_rm", level=4, pos=0)
    placed = next(e for e in events if e["type"] == "rm_placed")
    assert placed["placements"] == [
        {
            "player": 0,
            "level": 4,
            "pos": 0,
            "removals": [{"level": 4, "pos": 0, "card": None}],  # face down: no face
        }
    ]
    assert st.players[0].cells[index(4, 0)] == top and top in st.players[0].down
    assert st.stage == "action" and st.phase == 2


def test_recruit_moves_a_knight_from_the_supply_or_from_another_area():
    knight = card("knight")
    st = build(players=[{"hand": [knight], "knights": {"coin": 1}}])
    recruits = legal(st, 0, "recruit")
    assert [a["knight"] for a in recruits] == ["supply", "coin"]
    act(st, 0, "recruit", card=knight, source="worker", knight="coin")
    assert st.knights[ICON_INDEX["coin"]][0] == 0
    assert st.knights[ICON_INDEX["shield"]][0] == 0  # won at once: the only Knight there
    assert knight in st.discard


def test_with_every_knight_on_the_board_one_must_be_moved():
    scholar = card("scholar")
    st = build(players=[{"hand": [scholar], "knights": {"coin": 2, "book": 2}}, {}])
    assert [a["knight"] for a in legal(st, 0, "recruit")] == ["coin"]  # not "book": same area
    for k in ("supply", "book"):
        with pytest.raises(IllegalAction) as caught:
            act(st, 0, "recruit", card=scholar, source="worker", knight=k)
        assert caught.value.rule == "no_knight"
    act(st, 0, "recruit", card=scholar, source="worker", knight="coin")
    act(st, 1, "pass")
    assert st.knights[0][0] + st.knights[1][0] + st.players[0].supply == 4


def test_in_phase_two_only_level_two_workers_and_tokens_give_actions():
    merchant = card("merchant", needs=COIN_BOOK)
    hand = [card("baker"), card("scholar"), card("knight")]
    st = build(players=[{"cells": {(2, 0): merchant}, "hand": hand, "stored": ["shield"]}], phase=2)
    assert kinds(st, 0) >= {"recruit", "remove", "pass"}
    assert not kinds(st, 0) & {"teach", "barter"}  # the level-1 Scholar and Baker: not now
    assert {a["source"] for a in legal(st, 0, "recruit")} == {"token"}
    act(st, 0, "recruit", card=hand[2], source="token", knight="supply")
    assert st.players[0].stored == []  # the token is used up


def test_a_token_is_not_offered_beside_a_worker_giving_the_same_action():
    baker = card("baker")
    st = build(players=[{"hand": [baker], "stored": ["bread"]}])
    assert {a["source"] for a in legal(st, 0, "barter")} == {"worker"}
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "barter", card=baker, source="token")
    assert caught.value.rule == "worker_available"


def test_no_access_without_a_worker_or_token():
    merchant = card("merchant", needs=COIN_BOOK)
    st = build(players=[{"cells": {(2, 0): merchant}, "hand": [card("baker")]}], phase=2)
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "barter", card=st.players[0].hand[0], source="worker")
    assert caught.value.rule == "no_access"


def test_removals_come_first_and_may_chain():
    a, b = card(needs=COIN_BOOK), card(needs=("book", "bread"))
    st = build(players=[{"cells": {(2, 0): a, (2, 1): b, (3, 0): "rm"}}, {}], phase=1)
    assert [(x["level"], x["pos"]) for x in legal(st, 0, "remove")] == [(3, 0)]
    top = st.players[0].cells[index(3, 0)]
    act(st, 0, "remove", level=3, pos=0)
    assert [(x["level"], x["pos"]) for x in legal(st, 0, "remove")] == [(2, 0), (2, 1)]
    act(st, 0, "remove", level=2, pos=0)
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "remove", level=1, pos=0)  # foundation cards never go
    assert caught.value.rule == "not_removable"
    act(st, 0, "pass")
    events = act(st, 1, "pass")
    reveal = next(e for e in events if e["type"] == "reveal")
    removals = reveal["submissions"][0]["removals"]
    assert removals == [{"level": 3, "pos": 0, "card": None}, {"level": 2, "pos": 0, "card": a}]
    assert st.players[0].cells[index(2, 0)] is None and st.players[0].down == []
    assert {top, a} <= set(st.discard)


def test_removal_uncovers_a_worker_whose_action_is_then_available():
    # The level-1 Merchant, covered by (2, 0), gives HIRE again once that card is removed.
    cover = card(needs=COIN_BOOK)
    hire = card(needs=("book", "bread"), skip=[cover])
    st = build(
        players=[
            {
                "cells": {(2, 0): cover},
                "hand": [hire],
                "foundation": "merchant scholar baker knight rm",
            }
        ]
    )
    assert not legal(st, 0, "hire")
    act(st, 0, "remove", level=2, pos=0)
    assert legal(st, 0, "hire")


def test_a_removed_merchant_cannot_hire_its_replacement():
    merchant = card("merchant", needs=COIN_BOOK)
    again = card(needs=("book", "bread"))
    st = build(players=[{"cells": {(2, 0): merchant}, "hand": [again]}], phase=2)
    assert legal(st, 0, "hire")
    act(st, 0, "remove", level=2, pos=0)
    assert not legal(st, 0, "hire")
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "hire", card=again, source="worker", level=2, pos=1)
    assert caught.value.rule == "no_access"


def test_a_removal_after_submitting_reopens_the_submission():
    a = card(needs=COIN_BOOK)
    st = build(players=[{"cells": {(2, 0): a}}, {}], phase=2)
    act(st, 0, "pass")
    assert engine.deciders(st) == {1}
    events = act(st, 0, "remove", level=2, pos=0)
    assert events[0]["was"] is True and engine.deciders(st) == {0, 1}
    act(st, 0, "reset")
    assert st.players[0].picks == [] and st.players[0].choice is None


def test_resolution_is_in_seat_order():
    scholars = [card("scholar"), card("scholar", skip=[card("scholar")])]
    st = build(
        players=[
            {"hand": [scholars[0]], "rm_tokens": ["coin", "bread", "shield"]},
            {"hand": [scholars[1]], "rm_tokens": ["coin", "bread", "shield"]},
        ]
    )
    first, second = st.deck[-1], st.deck[-2]
    act(st, 1, "teach", card=scholars[1], source="worker")  # seat 1 submits first
    act(st, 0, "teach", card=scholars[0], source="worker")
    assert st.players[0].picks == [first] and st.players[1].picks == [second]


def test_phase_two_is_called_when_anyone_has_a_level_two_card_even_covered():
    st = build(players=[{}, {}])
    events = pass_all(st, 0, 1)
    assert [e["phase"] for e in events if e["type"] == "phase"] == [1]  # round 2's phase 1
    assert st.round == 2
    a, b = card(needs=COIN_BOOK), card(needs=("book", "bread"))
    top = next(c for c in range(96) if c not in (a, b) and _fits_on(c, a, b))
    st = build(players=[{}, {"cells": {(2, 0): a, (2, 1): b, (3, 0): top}}])
    phases = []
    while st.round == 1:
        phases.append(st.phase)
        pass_all(st, 0, 1)
    assert phases == [1, 2, 3]


def _fits_on(c, a, b):
    from games.renaissance.cards import NEED_L, NEED_R, OFFER_L, OFFER_R

    return NEED_L[c] == OFFER_R[a] and NEED_R[c] == OFFER_L[b]


def test_all_four_phases_at_most():
    st = build(
        players=[
            {
                "cells": {
                    (2, 0): "rm",
                    (2, 1): "rm",
                    (2, 2): "rm",
                    (3, 0): "rm",
                    (3, 1): "rm",
                    (4, 0): "rm",
                }
            }
        ]
    )
    phases = []
    while st.round == 1:
        phases.append(st.phase)
        pass_all(st, 0)
    assert phases == [1, 2, 3, 4]


def test_every_action_names_a_type_a_card_and_a_source():
    st = build(players=[{"hand": [card(t) for t in TYPES]}])
    for a in legal(st, 0):
        if a["kind"] in ("hire", "barter", "teach", "recruit"):
            assert a["card"] in st.players[0].hand and a["source"] in ("worker", "token")


def test_every_player_takes_part_in_every_called_phase_tokens_included():
    # Bob has no level-2 card: phase 2 is called by Ann's, and Bob may use his token.
    a = card(needs=COIN_BOOK)
    baker = card("baker")
    st = build(players=[{"cells": {(2, 0): a}}, {"hand": [baker], "stored": ["bread"]}], phase=2)
    assert 1 in engine.deciders(st)
    assert legal(st, 1, "barter") == [{"kind": "barter", "card": baker, "source": "token"}]
    act(st, 1, "barter", card=baker, source="token")
    act(st, 0, "pass")
    assert st.players[1].stored == [ICON_INDEX["bread"]] and baker in st.discard
