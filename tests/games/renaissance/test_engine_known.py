"""Hand cards every seat saw taken (``PlayerState.known``): a Recruit card taken into the
hand is public (the log names it) until it leaves the hand in the open, or until a secret
discard makes it unsure whether it did; the strong computer's imagined deals keep it."""

import random

from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.determinize import determinize, hidden_cards
from games.renaissance.positions import check

from .helpers import act, card, legal, pass_all
from .test_engine_recruit import BREAD, board


def taken() -> tuple:
    """Ann wins the bread area with a card that fits nowhere: it goes to her hand."""
    st = build(
        players=[{"knights": {"bread": 1}, "hand": [5, 6]}, {"hand": [1, 2]}],
        recruit=board(skip=[1, 2, 5, 6]),
    )
    prize = st.recruit[BREAD]
    pass_all(st, 0, 1)
    assert st.stage == "discard" and prize in st.players[0].hand
    return st, prize


def test_a_recruit_card_taken_into_the_hand_is_known():
    st, prize = taken()
    assert st.players[0].known == [prize]
    assert st.players[1].known == []


def test_the_winner_taking_it_by_choice_is_known_too():
    prize = card("merchant", needs=("coin", "book"))
    st = build(players=[{"knights": {"coin": 1}}, {}], recruit=board(coin=prize))
    pass_all(st, 0, 1)
    act(st, 0, "take")
    assert st.players[0].known == [prize]


def test_it_stays_known_through_a_discard_of_nothing_and_leaves_with_the_card_played():
    st, prize = taken()
    act(st, 0, "done")
    act(st, 1, "done")
    assert st.stage == "action" and st.players[0].known == [prize]
    playing = [a for a in legal(st, 0) if a.get("card") == prize]
    assert playing, "the test needs the card to be playable"
    engine.apply(st, 0, playing[0])
    for q in sorted(engine.deciders(st)):
        act(st, q, "pass")
    assert prize not in st.players[0].hand and st.players[0].known == []
    check(st)


def test_a_secret_discard_makes_it_unknown():
    st, prize = taken()
    other = next(c for c in st.players[0].hand if c != prize)
    act(st, 0, "discard", card=other)
    act(st, 0, "done")
    act(st, 1, "done")
    # Only how many cards Ann discarded is told: the prize may be among them.
    assert prize in st.players[0].hand and st.players[0].known == []


def test_the_imagined_deals_of_the_others_keep_it_in_its_hand():
    st, prize = taken()
    assert prize not in hidden_cards(st, 1)
    unknown = [c for c in st.players[0].hand if c != prize]
    moved = False
    for k in range(20):
        ann = determinize(st, 1, random.Random(k)).players[0]
        assert prize in ann.hand and ann.known == [prize]
        moved |= sorted(c for c in ann.hand if c != prize) != sorted(unknown)
    assert moved, "the cards nobody saw taken are dealt anew"
