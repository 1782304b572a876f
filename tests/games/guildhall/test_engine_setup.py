"""Components and setup (RULINGS 1 and 5)."""

from collections import Counter

import pytest

from games.guildhall import IllegalAction, Options, decision, legal_actions, new_game
from games.guildhall.cards import COLOR, PROF, VP_CARD_KIND, VP_KINDS, vp_cards_for

from .helpers import act, deciding, names


def fresh(players=3, **kw):
    return new_game(Options(players=players, **kw), ["Ann", "Bob", "Cid", "Dee"][:players], 42)


def all_cards(st):
    cards = list(st.deck) + list(st.discard)
    for ps in st.players:
        cards += ps.hand + ps.guildhall
    return cards


def test_profession_deck_is_6_professions_5_colors_4_copies():
    st = fresh()
    cards = all_cards(st)
    assert sorted(cards) == list(range(120))
    assert Counter((PROF[c], COLOR[c]) for c in cards) == {
        (p, c): 4 for p in range(6) for c in range(5)
    }


def test_vp_deck_has_30_cards_with_four_players():
    cards = vp_cards_for(4)
    kinds = Counter(VP_KINDS[VP_CARD_KIND[v]].key for v in cards)
    assert len(cards) == 30
    assert kinds["vp5"] == 6
    assert all(n == 3 for k, n in kinds.items() if k != "vp5")
    assert len(kinds) == 9


@pytest.mark.parametrize("players", [2, 3])
def test_smaller_games_remove_two_fives_and_one_of_each_other(players):
    cards = vp_cards_for(players)
    kinds = Counter(VP_KINDS[VP_CARD_KIND[v]].key for v in cards)
    assert len(cards) == 20
    assert kinds["vp5"] == 4
    assert all(n == 2 for k, n in kinds.items() if k != "vp5")
    st = fresh(players)
    assert len(st.vp_deck) == 20


def test_vp_table():
    table = {k.key: (k.points, k.cost, k.extra_actions) for k in VP_KINDS}
    assert table == {
        "vp2_chapter": (2, 1, 0),
        "vp3_draw": (3, 1, 0),
        "vp3_swap": (3, 1, 0),
        "vp3_place": (3, 1, 0),
        "vp4_take": (4, 1, 0),
        "vp4_action": (4, 1, 1),
        "vp5": (5, 1, 0),
        "vp7_actions": (7, 2, 2),
        "vp9": (9, 2, 0),
    }


def test_each_player_is_dealt_nine():
    st = fresh()
    assert [len(ps.hand) for ps in st.players] == [9, 9, 9]
    assert len(st.deck) == 120 - 27


def test_setup_in_seat_order_discard_redraw_to_nine_place_three():
    st = fresh()
    assert decision(st) == {"kind": "setup_discard", "player": 0, "draw_to": 9}
    ann = st.players[0]
    discarded = ann.hand[:2]
    for c in discarded:
        act(st, "discard", card=c)
    assert st.discard == discarded
    act(st, "done")
    assert len(ann.hand) == 9
    assert decision(st)["kind"] == "setup_place"
    placed = []
    while decision(st)["player"] == 0:
        c = legal_actions(st)[0]["card"]
        placed.append(c)
        act(st, "place", card=c)
    assert ann.guildhall == placed and len(placed) == 3
    assert len(ann.hand) == 6
    assert decision(st) == {"kind": "setup_discard", "player": 1, "draw_to": 9}
    # The center row is dealt after setup.
    assert st.center == [None] * 5


def test_setup_placement_refuses_duplicates():
    st = fresh()
    act(st, "done")
    ann = st.players[0]
    first = ann.hand[0]
    act(st, "place", card=first)
    twins = [c for c in ann.hand if c >> 2 == first >> 2]
    for twin in twins:
        with pytest.raises(IllegalAction) as e:
            act(st, "place", card=twin)
        assert e.value.rule == "no_duplicates"
        assert {"kind": "place", "card": twin} not in legal_actions(st)


def test_after_setup_center_row_is_dealt_and_first_player_begins():
    st = fresh(2)
    while st.phase == "setup":
        act(st, **legal_actions(st)[-1 if deciding(st) == "setup_discard" else 0])
    assert all(v is not None for v in st.center)
    assert len(st.vp_deck) == 15
    assert decision(st) == {"kind": "action", "player": 0, "actions_left": 2}
    assert st.turn == 1
    assert all(len(ps.guildhall) == 3 and len(ps.hand) == 6 for ps in st.players)
    assert names([]) == []


def test_same_seed_same_game_and_different_seed_different_game():
    a = new_game(Options(players=2), ["A", "B"], 1)
    b = new_game(Options(players=2), ["A", "B"], 1)
    c = new_game(Options(players=2), ["A", "B"], 2)
    assert a == b
    assert a != c


def test_options_are_checked():
    with pytest.raises(ValueError):
        Options(players=5)
    with pytest.raises(ValueError):
        Options(rules="bga")
    with pytest.raises(ValueError):
        Options(names="elvish")
    with pytest.raises(ValueError):
        new_game(Options(players=2), ["only one"], 1)


def test_fantasy_names_change_nothing_else():
    from games.guildhall import apply, to_json

    a = new_game(Options(players=2), ["A", "B"], 9)
    b = new_game(Options(players=2, names="fantasy"), ["A", "B"], 9)
    for _ in range(60):
        action = legal_actions(a)[0]
        assert legal_actions(b)[0] == action
        apply(a, action)
        apply(b, action)
    ja, jb = to_json(a), to_json(b)
    ja.pop("options"), jb.pop("options")
    assert ja == jb
