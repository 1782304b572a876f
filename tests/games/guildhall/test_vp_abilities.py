"""Every VP card: its cost, its points, its ability (RULINGS 1)."""

import pytest

from games.guildhall import IllegalAction, decision, legal_actions
from games.guildhall.builder import build
from games.guildhall.cards import VP_CARD_KIND, VP_KINDS

from .helpers import act, deciding, find, kinds, names, picks


def buy(st, kind: str) -> int:
    vp = next(v for v in st.center if v is not None and VP_KINDS[VP_CARD_KIND[v]].key == kind)
    act(st, "buy", vp=vp)
    while deciding(st) in ("pay", "order"):
        act(st, **legal_actions(st)[0])
    return vp


def position(kind: str, me: dict | None = None, them: dict | None = None, **kw):
    me = {"completed": ["farmer"], **(me or {})}
    return build(
        players=[me, them or {"guildhall": ["red trader"]}],
        center=[kind, "vp5", "vp5", "vp9", None],
        **kw,
    )


def test_bought_card_goes_to_the_action_area_and_counts():
    st = position("vp5")
    vp = buy(st, "vp5")
    assert st.players[0].action_vp == [vp]
    assert st.players[0].vp == 5
    assert st.players[0].completed == []
    assert deciding(st) == "action"  # no ability
    act(st, "discard_draw")
    act(st, "done")
    act(st, "end_turn")
    assert st.players[0].vp_cards == [vp] and st.players[0].action_vp == []


def test_buying_needs_enough_completed_chapters():
    st = position("vp7_actions")
    assert {a["vp"] for a in legal_actions(st) if a["kind"] == "buy"} == {
        v for v in st.center if v is not None and VP_KINDS[VP_CARD_KIND[v]].cost == 1
    }
    seven = st.center[0]
    with pytest.raises(IllegalAction) as e:
        act(st, "buy", vp=seven)
    assert e.value.rule == "not_enough_chapters"


def test_vp2_places_a_chapter_of_another_player():
    st = position("vp2_chapter", them={"guildhall": ["red trader", "blue trader", "green weaver"]})
    buy(st, "vp2_chapter")
    assert deciding(st) == "vp_ability"
    act(st, "use")
    offered = {a["profession"] for a in legal_actions(st)}
    assert offered == {"trader", "weaver"}
    act(st, "pick_chapter", player=1, profession="trader")
    assert sorted(names(st.players[0].guildhall)) == ["blue trader", "red trader"]
    assert names(st.players[1].guildhall) == ["green weaver"]


def test_vp2_refuses_a_chapter_that_would_duplicate():
    st = position(
        "vp2_chapter",
        me={"guildhall": ["red trader"]},
        them={"guildhall": ["red trader", "blue trader", "green weaver"]},
    )
    buy(st, "vp2_chapter")
    act(st, "use")
    assert [a["profession"] for a in legal_actions(st)] == ["weaver"]


def test_vp3_draws_six():
    st = position("vp3_draw")
    buy(st, "vp3_draw")
    act(st, "use")
    assert len(st.players[0].hand) == 6


def test_vp3_swaps_one_card_for_two():
    st = position(
        "vp3_swap",
        me={"guildhall": ["red weaver"]},
        them={"guildhall": ["blue farmer", "green dancer", "red weaver"]},
    )
    buy(st, "vp3_swap")
    act(st, "use")
    mine = st.players[0].guildhall[0]
    act(st, "pick", card=mine)
    # Taking their red Weaver too is fine: mine leaves at the same time.
    assert len(picks(st)) == 3
    act(st, "pick", card=find(st.players[1].guildhall, "red weaver"))
    act(st, "pick", card=find(st.players[1].guildhall, "green dancer"))
    assert sorted(names(st.players[0].guildhall)) == ["green dancer", "red weaver"]
    assert sorted(names(st.players[1].guildhall)) == ["blue farmer", "red weaver"]


def test_vp3_places_any_number_from_hand():
    st = position("vp3_place", me={"hand": ["red weaver", "blue weaver", "blue weaver"]})
    buy(st, "vp3_place")
    act(st, "use")
    first = find(st.players[0].hand, "red weaver")
    act(st, "pick", card=first)
    act(st, "pick", card=find(st.players[0].hand, "blue weaver"))
    # The second blue Weaver would be a duplicate.
    assert kinds(st) == ["done"]
    act(st, "done")
    assert sorted(names(st.players[0].guildhall)) == ["blue weaver", "red weaver"]
    assert names(st.players[0].hand) == ["blue weaver"]


def test_vp4_takes_a_card_of_another_player():
    st = position(
        "vp4_take",
        me={"guildhall": ["red trader"]},
        them={"guildhall": ["red trader", "blue trader"]},
    )
    buy(st, "vp4_take")
    act(st, "use")
    assert names(picks(st)) == ["blue trader"]
    act(st, "pick", card=picks(st)[0])
    assert sorted(names(st.players[0].guildhall)) == ["blue trader", "red trader"]


def test_vp4_extra_action_is_automatic():
    st = position("vp4_action")
    buy(st, "vp4_action")
    assert st.actions_left == 2  # 1 left + 1
    assert deciding(st) == "action"


def test_vp7_two_extra_actions_are_automatic():
    st = build(
        players=[{"completed": ["farmer", "weaver"]}, {"guildhall": ["red trader"]}],
        center=["vp7_actions", "vp5", "vp5", "vp9", None],
    )
    buy(st, "vp7_actions")
    assert st.actions_left == 3
    assert st.players[0].vp == 7


def test_vp9_costs_two_chapters():
    st = build(
        players=[{"completed": ["farmer", "weaver", "dancer"]}, {"guildhall": ["red trader"]}],
        center=["vp9", "vp5", "vp5", "vp7_actions", None],
    )
    act(st, "buy", vp=st.center[0])
    assert decision(st)["kind"] == "pay"
    act(st, "pay", chapter=0)
    act(st, "pay", chapter=0)
    assert len(st.players[0].completed) == 1
    assert deciding(st) == "order"
    assert len(decision(st)["cards"]) == 10


def test_optional_ability_may_be_declined():
    st = position("vp3_draw")
    buy(st, "vp3_draw")
    act(st, "skip")
    assert st.players[0].hand == []


def test_ability_that_cannot_be_done_is_not_offered():
    # Nothing in any other guildhall to take.
    st = position("vp4_take", them={"guildhall": []})
    buy(st, "vp4_take")
    assert deciding(st) == "action"


def test_extra_action_may_buy_again():
    st = build(
        players=[{"completed": ["farmer", "weaver"]}, {"guildhall": ["red trader"]}],
        center=["vp4_action", "vp5", "vp5", "vp9", None],
        actions_left=1,
    )
    buy(st, "vp4_action")
    assert st.actions_left == 1
    assert any(a["kind"] == "buy" for a in legal_actions(st))
    buy(st, "vp5")
    assert st.players[0].vp == 9
