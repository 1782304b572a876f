"""Completed chapters, the 3-chapter limit, buying VP cards and the reveal (RULINGS 4)."""

import pytest

from games.guildhall import IllegalAction, Options, decision, legal_actions, undo_player
from games.guildhall.builder import build
from games.guildhall.cards import PROF, PROFESSION_INDEX

from .helpers import act, deciding, find, names, play

CLASSIC = Options(rules="classic")
YUCATA = Options(rules="yucata")
FOUR_TRADERS = ["red trader", "blue trader", "yellow trader", "green trader"]


def completing_weaver(options, me_completed=(), them=None, current=0):
    """Ann holds 4 Weaver colors; her Historian takes the fifth from the discard pile."""
    return build(
        options=options,
        players=[
            {
                "hand": ["red historian", "red weaver"],
                "guildhall": ["red weaver", "blue weaver", "yellow weaver", "green weaver"],
                "completed": list(me_completed),
            },
            them or {"guildhall": ["red trader"]},
        ],
        discard=["purple weaver"],
        current=current,
    )


def complete_weaver_chapter(st):
    play(st, "red historian")
    act(st, "use", level=0)


class TestCompletion:
    def test_five_colors_flip_at_once(self):
        st = completing_weaver(YUCATA)
        complete_weaver_chapter(st)
        ann = st.players[0]
        assert len(ann.completed) == 1
        assert sorted(names(ann.completed[0])) == [
            "blue weaver",
            "green weaver",
            "purple weaver",
            "red weaver",
            "yellow weaver",
        ]
        assert ann.guildhall == []

    def test_four_colors_do_not(self):
        st = build(
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": ["blue weaver", "yellow weaver", "green weaver"],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["purple weaver"],
        )
        complete_weaver_chapter(st)
        assert st.players[0].completed == []
        assert len(st.players[0].guildhall) == 4

    def test_completion_on_another_players_turn(self):
        # Bob's Trader gives Ann the missing purple Weaver: her chapter flips on his turn.
        st = build(
            players=[
                {
                    "guildhall": FOUR_TRADERS[:0]
                    + ["red weaver", "blue weaver", "yellow weaver", "green weaver", "red farmer"]
                },
                {"hand": ["red trader"], "guildhall": ["purple weaver"]},
            ],
            current=1,
        )
        play(st, "red trader")
        act(st, "use", level=0)
        act(st, "pick", card=st.players[1].guildhall[0])
        act(st, "pick", card=find(st.players[0].guildhall, "red farmer"))
        ann = st.players[0]
        assert len(ann.completed) == 1
        assert {PROF[c] for c in ann.completed[0]} == {PROFESSION_INDEX["weaver"]}
        assert ann.guildhall == []

    def test_a_completed_chapter_no_longer_counts_and_a_new_one_may_start(self):
        st = completing_weaver(YUCATA)
        complete_weaver_chapter(st)
        ann = st.players[0]
        assert ann.level(PROFESSION_INDEX["weaver"]) == 0
        # The red Weaver in hand duplicated the guildhall before; now it may be played.
        play(st, "red weaver")
        act(st, "end_turn")
        assert len(ann.completed) == 1
        assert sorted(names(ann.guildhall)) == ["red historian", "red weaver"]
        assert ann.level(PROFESSION_INDEX["weaver"]) == 1

    def test_completed_chapters_are_never_targets(self):
        st = build(
            players=[
                {"hand": ["red assassin"]},
                {"completed": ["weaver"], "guildhall": []},
                {"guildhall": []},
            ]
        )
        play(st, "red assassin")
        assert deciding(st) == "action"  # nothing to discard anywhere: no effect


class TestClassicChapterLimit:
    def test_fourth_chapter_is_discarded_at_once_with_choice_and_order(self):
        st = completing_weaver(CLASSIC, me_completed=["farmer", "dancer", "trader"])
        complete_weaver_chapter(st)
        d = decision(st)
        assert d["kind"] == "discard_chapter" and d["player"] == 0
        chapters = st.players[0].completed
        dancer = next(i for i, ch in enumerate(chapters) if PROF[ch[0]] == 1)
        act(st, "discard_chapter", chapter=dancer)
        assert deciding(st) == "order"
        order = list(decision(st)["cards"])[::-1]
        for c in order[:-1]:
            act(st, "order", card=c)
        # The last card goes by itself, on top.
        assert st.discard[-5:] == order
        assert len(st.players[0].completed) == 3
        assert deciding(st) == "action"

    def test_on_another_players_turn_the_owner_decides_at_once(self):
        st = build(
            options=CLASSIC,
            players=[
                {
                    "guildhall": [
                        "red weaver",
                        "blue weaver",
                        "yellow weaver",
                        "green weaver",
                        "red farmer",
                    ],
                    "completed": ["farmer", "dancer", "trader"],
                },
                {"hand": ["red trader"], "guildhall": ["purple weaver"]},
            ],
            current=1,
        )
        play(st, "red trader")
        act(st, "use", level=0)
        act(st, "pick", card=st.players[1].guildhall[0])
        act(st, "pick", card=find(st.players[0].guildhall, "red farmer"))
        d = decision(st)
        assert (d["kind"], d["player"]) == ("discard_chapter", 0)
        with pytest.raises(IllegalAction):
            from games.guildhall import apply

            apply(st, {"kind": "discard_chapter", "chapter": 0}, player=1)
        act(st, "discard_chapter", chapter=0)
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        assert decision(st)["player"] == 1  # back to Bob's turn


class TestYucataDelayedChapterDiscard:
    def test_excess_kept_during_the_turn_and_spendable(self):
        st = completing_weaver(YUCATA, me_completed=["farmer", "dancer", "trader"])
        complete_weaver_chapter(st)
        assert len(st.players[0].completed) == 4
        assert deciding(st) == "action"

    def test_excess_discarded_at_the_start_of_the_next_turn(self):
        st = build(
            players=[
                {"completed": ["farmer", "dancer", "trader", "weaver"]},
                {"guildhall": ["red trader"]},
            ],
            current=1,
            actions_left=0,
        )
        act(st, "end_turn")
        d = decision(st)
        assert (d["kind"], d["player"], d["excess"]) == ("discard_chapter", 0, 1)
        assert st.actions_left == 2  # before the first action
        act(st, "discard_chapter", chapter=3)
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        assert len(st.players[0].completed) == 3
        assert deciding(st) == "action"

    def test_four_chapters_may_pay_for_two_cards_in_that_turn(self):
        st = build(
            players=[
                {"completed": ["farmer", "dancer", "trader", "weaver"]},
                {"guildhall": ["red trader"]},
            ],
            center=["vp9", "vp7_actions", "vp5", "vp5", None],
        )
        act(st, "buy", vp=st.center[0])
        act(st, "pay", chapter=0)
        act(st, "pay", chapter=0)
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        act(st, "buy", vp=st.center[1])
        assert st.players[0].completed == []


class TestBuying:
    def test_buyer_chooses_the_chapters_and_the_order(self):
        st = build(
            players=[{"completed": ["farmer", "dancer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
        )
        act(st, "buy", vp=st.center[0])
        assert [a["chapter"] for a in legal_actions(st)] == [0, 1]
        act(st, "pay", chapter=1)
        assert [PROF[ch[0]] for ch in st.players[0].completed] == [PROFESSION_INDEX["farmer"]]
        cards = decision(st)["cards"]
        assert {PROF[c] for c in cards} == {PROFESSION_INDEX["dancer"]}
        chosen = [cards[2], cards[0], cards[4], cards[1]]
        for c in chosen:
            act(st, "order", card=c)
        assert st.discard == chosen + [cards[3]]

    def test_classic_reveals_the_replacement_at_once(self):
        st = build(
            options=CLASSIC,
            players=[{"completed": ["farmer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
        )
        top = st.vp_deck[-1]
        act(st, "buy", vp=st.center[0])
        assert st.center[0] == top  # before the chapter's cards are ordered
        assert deciding(st) == "order"
        assert undo_player(st) is None  # a card was revealed

    def test_yucata_reveals_after_the_discard_order_is_submitted(self):
        st = build(
            options=YUCATA,
            players=[{"completed": ["farmer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
        )
        top = st.vp_deck[-1]
        act(st, "buy", vp=st.center[0])
        assert st.center[0] is None
        assert undo_player(st) == 0  # nothing revealed yet: the buy may be taken back
        while deciding(st) == "order":
            assert st.center[0] is None
            act(st, **legal_actions(st)[0])
        assert st.center[0] == top
        assert undo_player(st) is None
