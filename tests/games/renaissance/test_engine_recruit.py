"""Recruit resolution: RENAISSANCE.md 3.4 and 4 (one player), the source's "Resolving
Recruits" and "One Player Game"."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.cards import ICON_INDEX, TYPES
from games.renaissance.pyramid import index

from .helpers import act, card, legal, not_fitting, pass_all, types

LEVEL2 = [("coin", "book"), ("book", "bread"), ("bread", "shield"), ("shield", None)]
COIN, BOOK, BREAD, SHIELD = range(4)


def board(coin=None, book=None, bread=None, shield=None, skip=()):
    """Recruit cards for the four areas, unnamed ones chosen so as to fit nowhere."""
    chosen = [coin, book, bread, shield]
    out = []
    for t, c in zip(TYPES, chosen, strict=True):
        if c is None:
            c = not_fitting(LEVEL2, t, skip=[*chosen, *out, *skip])
        out.append(c)
    return out


def test_a_strict_majority_wins_and_chooses_hand_or_a_fitting_position():
    prize = card("merchant", needs=("coin", "book"))
    st = build(
        players=[{"knights": {"coin": 2}}, {"knights": {"coin": 1}}], recruit=board(coin=prize)
    )
    pass_all(st, 0, 1)
    assert st.stage == "recruit" and engine.deciders(st) == {0}
    assert legal(st, 0) == [{"kind": "take"}, {"kind": "place", "level": 2, "pos": 0}]
    assert legal(st, 1) == []
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "place", level=2, pos=1)
    assert caught.value.rule == "does_not_fit"
    events = act(st, 0, "place", level=2, pos=0)
    assert st.players[0].cells[index(2, 0)] == prize
    assert st.knights[COIN] == [0, 0] and st.players[0].supply == 4 and st.players[1].supply == 4
    assert "refill" in types(events) and st.recruit[COIN] not in (None, prize)
    assert st.round == 2  # empty hands: no discard step


def test_the_winner_may_take_the_card_into_the_hand():
    prize = card("merchant", needs=("coin", "book"))
    st = build(players=[{"knights": {"coin": 1}}, {}], recruit=board(coin=prize))
    pass_all(st, 0, 1)
    act(st, 0, "take")
    assert prize in st.players[0].hand


def test_a_card_that_fits_nowhere_goes_to_the_hand_without_asking():
    st = build(players=[{"knights": {"bread": 1}}, {}], recruit=board())
    prize = st.recruit[BREAD]
    events = pass_all(st, 0, 1)
    assert st.stage == "discard" and prize in st.players[0].hand
    take = next(e for e in events if e["type"] == "recruit_take")
    assert take == {"type": "recruit_take", "player": 0, "card": prize, "area": BREAD}


def test_ties_keep_their_knights_for_the_next_round():
    scholar = card("scholar")
    recruit = board(skip=[scholar])
    st = build(
        players=[{"knights": {"book": 1}}, {"knights": {"book": 1}}],
        recruit=recruit,
        deck_top=[scholar],  # dealt to Ann at the end of the round
    )
    prize = st.recruit[BOOK]
    events = pass_all(st, 0, 1)
    assert {"type": "recruit_tie", "area": BOOK, "removed": False} in events
    assert st.knights[BOOK] == [1, 1] and st.recruit[BOOK] == prize
    assert st.round == 2 and scholar in st.players[0].hand
    act(st, 0, "recruit", card=scholar, source="worker", knight="supply")
    events = act(st, 1, "pass")
    assert {"type": "recruit_win", "area": BOOK, "player": 0, "card": prize} in events
    assert st.knights[BOOK] == [0, 0]


def test_areas_resolve_left_to_right():
    # Both cards fit only (2, 0): the coin area's card takes it; the book area's winner is
    # then asked again, as removing the first frees the place (rulings §2).
    first = card("merchant", needs=("coin", "book"))
    second = card("scholar", needs=("coin", "book"))
    recruit = board(coin=first, book=second)
    st = build(players=[{"knights": {"coin": 1, "book": 1}}, {}], recruit=recruit)
    pass_all(st, 0, 1)
    assert st.area == COIN and engine.deciders(st) == {0}
    act(st, 0, "place", level=2, pos=0)
    assert st.area == BOOK and engine.deciders(st) == {0}
    assert legal(st, 0) == [{"kind": "remove", "level": 2, "pos": 0}, {"kind": "take"}]
    act(st, 0, "take")
    assert second in st.players[0].hand and st.stage == "discard"


def test_a_winner_whose_only_place_is_taken_may_free_it_and_place_the_card_there():
    first = card("merchant", needs=("coin", "book"))
    second = card("scholar", needs=("coin", "book"))
    st = build(
        players=[{"knights": {"book": 1}, "cells": {(2, 0): first}}, {}],
        recruit=board(book=second, skip=[first]),
    )
    pass_all(st, 0, 1)
    pass_all(st, 0, 1)  # phase 2: a card on level 2 calls it
    assert st.area == BOOK and engine.deciders(st) == {0}
    assert not legal(st, 0, "place")
    events = act(st, 0, "remove", level=2, pos=0)
    # At once: nothing in the Recruit winner's step is secret.
    assert events == [{"type": "removed", "player": 0, "level": 2, "pos": 0, "card": first}]
    assert first in st.discard and st.players[0].cells[index(2, 0)] is None
    assert legal(st, 0, "place") == [{"kind": "place", "level": 2, "pos": 0}]
    act(st, 0, "place", level=2, pos=0)
    assert st.players[0].cells[index(2, 0)] == second and st.round == 2  # no hands: no discards


def test_a_winner_with_no_place_even_after_removals_is_not_asked():
    prize = card("scholar", needs=("coin", "book"))
    # No two neighbours of Ann's foundation offer coin then book (or a wild corner there),
    # and she has no worker above it: no place now, none after any removal.
    st = build(
        players=[{"knights": {"book": 1}, "foundation": "merchant baker scholar knight rm"}, {}],
        recruit=board(book=prize),
    )
    events = pass_all(st, 0, 1)
    assert {"type": "recruit_take", "player": 0, "card": prize, "area": BOOK} in events
    assert prize in st.players[0].hand and st.stage == "discard"


def test_only_the_winner_removes_in_the_recruit_step():
    first = card("merchant", needs=("coin", "book"))
    second = card("scholar", needs=("coin", "book"))
    st = build(
        players=[{"knights": {"book": 1}, "cells": {(2, 0): first}}, {"cells": {(2, 0): "rm"}}],
        recruit=board(book=second, skip=[first]),
    )
    pass_all(st, 0, 1)
    pass_all(st, 0, 1)
    assert engine.deciders(st) == {0} and legal(st, 1) == []
    with pytest.raises(IllegalAction) as refused:
        act(st, 1, "remove", level=2, pos=0)
    assert refused.value.rule == "not_your_decision"


def test_several_areas_of_several_players():
    st = build(
        players=[{"knights": {"coin": 1, "shield": 1}}, {"knights": {"bread": 2, "shield": 2}}],
        recruit=board(),
    )
    cards = list(st.recruit)
    events = pass_all(st, 0, 1)
    wins = [(e["area"], e["player"]) for e in events if e["type"] == "recruit_win"]
    assert wins == [(COIN, 0), (BREAD, 1), (SHIELD, 1)]
    assert cards[COIN] in st.players[0].hand
    assert cards[BREAD] in st.players[1].hand and cards[SHIELD] in st.players[1].hand
    assert st.players[0].supply == 4 and st.players[1].supply == 4


# One player -----------------------------------------------------------------------------


def test_one_player_two_flipped_cards_send_opposing_knights():
    flip = [card("baker"), card("knight")]
    st = build(players=[{}], recruit=board(skip=flip), deck_top=flip)
    prize_bread, prize_shield = st.recruit[BREAD], st.recruit[SHIELD]
    events = pass_all(st, 0)
    assert {"type": "opposing", "cards": flip} in events
    wins = [(e["area"], e["player"]) for e in events if e["type"] == "recruit_win"]
    assert wins == [(BREAD, -1), (SHIELD, -1)]
    assert {prize_bread, prize_shield, *flip} <= set(st.discard)
    assert st.opposing == [0, 0, 0, 0]


def test_one_player_a_tie_removes_every_knight_there():
    flip = [card("merchant"), card("knight")]
    st = build(players=[{"knights": {"coin": 1}}], recruit=board(skip=flip), deck_top=flip)
    prize = st.recruit[COIN]
    events = pass_all(st, 0)
    assert {"type": "recruit_tie", "area": COIN, "removed": True} in events
    assert st.knights[COIN] == [0] and st.players[0].supply == 4 and st.recruit[COIN] == prize


def test_one_player_a_majority_beats_the_opposing_knights():
    prize = card("merchant", needs=("coin", "book"))
    flip = [card("merchant", skip=[prize]), card("knight")]
    st = build(
        players=[{"knights": {"coin": 2}}], recruit=board(coin=prize, skip=flip), deck_top=flip
    )
    pass_all(st, 0)
    assert engine.deciders(st) == {0} and st.stage == "recruit"
    act(st, 0, "take")
    assert prize in st.players[0].hand


def test_the_opposing_knights_recruit_even_without_the_player():
    st = build(players=[{}], recruit=board())
    events = pass_all(st, 0)
    assert "opposing" in types(events)
    assert sum(1 for e in events if e["type"] == "recruit_win" and e["player"] == -1) >= 1


def test_recruit_icons():
    assert [ICON_INDEX[i] for i in ("coin", "book", "bread", "shield")] == [0, 1, 2, 3]
