"""RENAISSANCE.md section 1: the components, the generated deck and the foundations."""

from collections import Counter

import pytest

from games.renaissance import cards
from games.renaissance.cards import (
    DECK,
    NEED_L,
    NEED_R,
    OFFER_L,
    OFFER_R,
    RM,
    TYPE,
    WILD,
    check_deck,
    check_tables,
    foundation_card,
    generate,
)
from games.renaissance.views import card_json


def test_the_deck_has_96_cards_24_of_each_worker_type():
    assert len(DECK) == 96
    assert Counter(TYPE[c] for c in range(96)) == {0: 24, 1: 24, 2: 24, 3: 24}


def test_each_ordered_need_pair_is_on_exactly_six_cards():
    pairs = Counter((NEED_L[c], NEED_R[c]) for c in range(96))
    assert len(pairs) == 16 and set(pairs.values()) == {6}


def test_each_ordered_offer_pair_is_on_exactly_six_cards():
    pairs = Counter((OFFER_L[c], OFFER_R[c]) for c in range(96))
    assert len(pairs) == 16 and set(pairs.values()) == {6}


@pytest.mark.parametrize("t", range(4))
def test_within_a_type_each_icon_is_equally_often_among_needs_and_offers(t):
    mine = [c for c in range(96) if TYPE[c] == t]
    needs = Counter([NEED_L[c] for c in mine] + [NEED_R[c] for c in mine])
    offers = Counter([OFFER_L[c] for c in mine] + [OFFER_R[c] for c in mine])
    assert needs == offers == {0: 12, 1: 12, 2: 12, 3: 12}


def test_the_deck_is_the_documented_rule():
    for i, (t, ol, orr, nl, nr) in enumerate(DECK):
        r, c = (i % 24) // 4, i % 4
        assert t == i // 24
        assert (nl, nr) == (c, (c + cards.NEED_SHIFT[t][r]) % 4)
        left = (c + cards.OFFER_TURN[t][r]) % 4
        assert (ol, orr) == (left, (left + cards.OFFER_SHIFT[t][r]) % 4)


def test_the_check_refuses_a_deck_without_the_properties():
    broken = list(DECK)
    t, ol, orr, nl, nr = broken[0]
    broken[0] = (t, ol, orr, nr, nl)  # one card's needs swapped
    with pytest.raises(ValueError, match="need pair"):
        check_deck(broken)
    with pytest.raises(ValueError, match="24 cards"):
        check_deck([(0, *corners) for _, *corners in DECK])
    with pytest.raises(ValueError):
        check_tables(((0,) * 6,) * 4)
    # Any tables with each shift 6 times give a deck with the properties.
    shifts = tuple(tuple((t + r) % 4 for r in range(6)) for t in range(4))
    check_deck(generate(shifts, shifts, ((0,) * 6,) * 4))


@pytest.mark.parametrize("seat", range(4))
def test_foundation_workers_offer_their_own_icon_and_the_rm_is_wild(seat):
    for w in range(4):
        c = foundation_card(seat, w)
        assert TYPE[c] == w and OFFER_L[c] == OFFER_R[c] == w
    rm = foundation_card(seat, 4)
    assert TYPE[rm] == RM and OFFER_L[rm] == OFFER_R[rm] == WILD
    assert card_json(rm) == {
        "id": rm,
        "type": "rm",
        "offers": ["any", "any"],
        "needs": None,
        "foundation": True,
    }


def test_worker_types_give_their_actions_in_recruit_board_order():
    assert cards.TYPES == ("merchant", "scholar", "baker", "knight")
    assert cards.ICONS == ("coin", "book", "bread", "shield")
    assert [cards.ACTION_OF[a] for a in ("hire", "teach", "barter", "recruit")] == [0, 1, 2, 3]
