"""RENAISSANCE.md section 2: positions, matching, covering, access and removal."""

from games.renaissance import pyramid
from games.renaissance.builder import build
from games.renaissance.cards import (
    ICON_INDEX,
    ICONS,
    NEED_L,
    NEED_R,
    OFFER_L,
    OFFER_R,
    foundation_card,
)
from games.renaissance.pyramid import ABOVE, BELOW, index

from .helpers import card

# Default foundation: merchant scholar baker knight rm -> level 2 needs:
# (coin, book), (book, bread), (bread, shield), (shield, any).


def test_fifteen_positions_each_resting_on_the_two_below():
    assert pyramid.LEVEL_SIZES == (5, 4, 3, 2, 1) and pyramid.SIZE == 15
    for level in range(2, 6):
        for k in range(6 - level):
            assert BELOW[index(level, k)] == (index(level - 1, k), index(level - 1, k + 1))
    assert ABOVE[index(1, 0)] == (index(2, 0),)
    assert ABOVE[index(1, 2)] == (index(2, 1), index(2, 2))
    assert ABOVE[pyramid.MASTER] == ()


def test_needs_must_match_offers_exactly_in_type_and_order():
    st = build(players=[{}])
    p = st.players[0]
    right = card(needs=("coin", "book"))
    swapped = card(needs=("book", "coin"))
    assert pyramid.fits(p.cells, p.down, right, index(2, 0))
    assert not pyramid.fits(p.cells, p.down, swapped, index(2, 0))
    assert not pyramid.fits(p.cells, p.down, right, index(2, 1))


def test_a_renaissance_man_corner_matches_anything():
    st = build(players=[{}])
    p = st.players[0]
    # Position (2, 3) rests on the Knight (shield) and the foundation RM (wild).
    for right in ("coin", "book", "bread", "shield"):
        assert pyramid.fits(p.cells, p.down, card(needs=("shield", right)), index(2, 3))
    assert not pyramid.fits(p.cells, p.down, card(needs=("coin", "coin")), index(2, 3))


def test_a_face_down_card_offers_anything():
    st = build(players=[{"cells": {(2, 0): "rm", (2, 1): card(needs=("book", "bread"))}}])
    p = st.players[0]
    right = ICONS[OFFER_L[p.cells[index(2, 1)]]]
    for left in ICONS:  # (3, 0) rests on the face-down card and the Scholar's neighbour
        assert pyramid.fits(p.cells, p.down, card(needs=(left, right)), index(3, 0))


def test_both_cards_below_must_be_present():
    c = card(needs=("coin", "book"))
    st = build(players=[{"cells": {(2, 0): c}}])
    p = st.players[0]
    assert pyramid.open_positions(p.cells) == [index(2, 1), index(2, 2), index(2, 3)]
    assert all(not pyramid.fits(p.cells, p.down, x, index(3, 0)) for x in range(96))


def test_covered_cards_give_no_action_and_renaissance_men_give_none():
    m = card("merchant", needs=("coin", "book"))
    st = build(players=[{"cells": {(2, 0): m}}])
    p = st.players[0]
    assert not pyramid.gives(p.cells, p.down, 1, ICON_INDEX["coin"])  # the Merchant is covered
    assert not pyramid.gives(p.cells, p.down, 1, ICON_INDEX["book"])  # nor the Scholar
    assert pyramid.gives(p.cells, p.down, 1, ICON_INDEX["bread"])  # the Baker is not
    assert pyramid.gives(p.cells, p.down, 2, ICON_INDEX["coin"])  # the new Merchant, level 2
    assert not pyramid.gives(p.cells, p.down, 2, ICON_INDEX["book"])
    down = build(players=[{"cells": {(2, 0): "rm"}}]).players[0]
    assert not any(pyramid.gives(down.cells, down.down, 2, t) for t in range(4))


def test_only_uncovered_cards_of_level_two_and_up_are_removable():
    a, b = card(needs=("coin", "book")), card(needs=("book", "bread"))
    top = next(
        c
        for c in range(96)
        if c not in (a, b) and NEED_L[c] == OFFER_R[a] and NEED_R[c] == OFFER_L[b]
    )
    st = build(players=[{"cells": {(2, 0): a, (2, 1): b, (3, 0): top}}])
    cells = st.players[0].cells
    assert pyramid.removable(cells) == [index(3, 0)]
    cells[index(3, 0)] = None
    assert pyramid.removable(cells) == [index(2, 0), index(2, 1)]
    assert foundation_card(0, 0) == cells[0]  # level 1 is never removable
