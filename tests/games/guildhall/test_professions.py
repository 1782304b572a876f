"""Each profession at each level (RULINGS 2), and the player's choice of level."""

import pytest

from games.guildhall import IllegalAction, Options, decision, legal_actions
from games.guildhall.builder import build

from .helpers import act, deciding, find, kinds, levels, names, picks, play, snapshot

CLASSIC = Options(rules="classic")


class TestLevels:
    def test_levels_offered_up_to_the_reached_level(self):
        st = build(
            players=[
                {
                    "hand": ["red weaver", "yellow farmer", "purple trader"],
                    "guildhall": ["blue weaver", "green weaver"],
                },
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red weaver")
        assert decision(st)["reach"] == 2
        assert levels(st) == [0, 2]
        assert "skip" in kinds(st)

    def test_played_card_and_completed_chapters_do_not_count(self):
        st = build(
            players=[
                {
                    "hand": ["red weaver", "blue farmer"],
                    "completed": ["weaver"],
                    "guildhall": ["yellow trader"],
                },
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red weaver")
        assert decision(st)["reach"] == 0
        assert levels(st) == [0]

    def test_a_level_above_the_reached_one_is_refused(self):
        st = build(players=[{"hand": ["red weaver", "blue farmer"]}, {"guildhall": ["red trader"]}])
        play(st, "red weaver")
        before = snapshot(st)
        with pytest.raises(IllegalAction) as e:
            act(st, "use", level=2)
        assert e.value.rule == "level_not_reached"
        assert snapshot(st) == before

    def test_a_level_that_cannot_be_done_in_full_is_not_offered(self):
        # Weaver 2 needs two different hand cards that fit: there is only one kind.
        st = build(
            players=[
                {
                    "hand": ["red weaver", "yellow farmer", "yellow farmer"],
                    "guildhall": ["green weaver", "purple weaver", "blue trader"],
                },
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red weaver")
        assert levels(st) == [0]
        with pytest.raises(IllegalAction) as e:
            act(st, "use", level=2)
        assert e.value.rule == "effect_in_full"

    def test_no_effect_is_always_a_choice(self):
        st = build(players=[{"hand": ["red dancer"]}, {"guildhall": ["red trader"]}])
        play(st, "red dancer")
        hand = len(st.players[0].hand)
        act(st, "skip")
        assert len(st.players[0].hand) == hand
        assert st.actions_left == 1  # no extra action without the effect


class TestAssassin:
    def _st(self, level_cards, victim):
        return build(
            players=[
                {"hand": ["red assassin"], "guildhall": level_cards},
                {"guildhall": victim, "completed": ["farmer"], "vp_cards": ["vp5"]},
                {"guildhall": ["red farmer"]},
            ]
        )

    def test_level_0_discards_one_card_of_a_chosen_player(self):
        st = self._st([], ["blue trader", "green trader"])
        play(st, "red assassin")
        act(st, "use", level=0)
        assert deciding(st) == "target"
        assert [a["player"] for a in legal_actions(st)] == [1, 2]  # never yourself
        act(st, "target", player=1)
        victim = st.players[1]
        # Completed chapters and VP cards are never targets.
        assert sorted(picks(st)) == sorted(victim.guildhall)
        card = find(victim.guildhall, "green trader")
        act(st, "pick", card=card)
        assert names(victim.guildhall) == ["blue trader"]
        assert st.discard[-1] == card
        assert len(victim.completed) == 1 and victim.vp_cards

    def test_level_2_takes_one_card_from_each_of_two_chapters(self):
        st = self._st(
            ["blue assassin", "green assassin"], ["blue trader", "green trader", "red weaver"]
        )
        play(st, "red assassin")
        assert levels(st) == [0, 2]
        act(st, "use", level=2)
        # Only player 1 has two chapters: the only possible target is chosen at once.
        assert st.frames[-1]["target"] == 1
        first = find(st.players[1].guildhall, "blue trader")
        act(st, "pick", card=first)
        # The second card must come from a different chapter.
        assert names(picks(st)) == ["red weaver"]
        with pytest.raises(IllegalAction) as e:
            act(st, "pick", card=find(st.players[1].guildhall, "green trader"))
        assert e.value.rule == "assassin_two_chapters"
        act(st, "pick", card=picks(st)[0])
        assert names(st.players[1].guildhall) == ["green trader"]
        # Discarded in the order chosen, the last chosen on top.
        assert names(st.discard[-2:]) == ["blue trader", "red weaver"]

    def test_level_2_needs_a_victim_with_two_chapters(self):
        st = self._st(["blue assassin", "green assassin"], ["blue trader", "green trader"])
        play(st, "red assassin")
        # Player 1 has one chapter, player 2 one: nobody can be the target of level 2.
        assert levels(st) == [0]
        with pytest.raises(IllegalAction) as e:
            act(st, "use", level=2)
        assert e.value.rule == "effect_in_full"

    def test_level_4_takes_any_two_cards(self):
        st = self._st(
            ["blue assassin", "green assassin", "yellow assassin", "purple assassin"],
            ["blue trader", "green trader"],
        )
        play(st, "red assassin")
        assert levels(st) == [0, 4]  # level 2 impossible: one chapter only
        act(st, "use", level=4)
        assert st.frames[-1]["target"] == 1  # player 2 has a single card
        act(st, "pick", card=find(st.players[1].guildhall, "green trader"))
        act(st, "pick", card=find(st.players[1].guildhall, "blue trader"))
        assert st.players[1].guildhall == []
        assert names(st.discard[-2:]) == ["green trader", "blue trader"]


class TestFarmer:
    def test_classic_player_chooses_the_level(self):
        st = build(
            options=CLASSIC,
            players=[
                {
                    "hand": ["red farmer"],
                    "guildhall": ["blue farmer", "green farmer", "yellow farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
        )
        play(st, "red farmer")
        assert levels(st) == [1, 3]
        act(st, "use", level=1)
        assert st.players[0].tokens == 1

    def test_classic_level_3_gains_two_tokens(self):
        st = build(
            options=CLASSIC,
            players=[
                {
                    "hand": ["red farmer"],
                    "guildhall": ["blue farmer", "green farmer", "yellow farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
        )
        play(st, "red farmer")
        act(st, "use", level=3)
        assert st.players[0].tokens == 2
        assert st.players[0].vp == 2

    def test_yucata_applies_the_highest_level_by_itself(self):
        st = build(
            players=[
                {
                    "hand": ["red farmer"],
                    "guildhall": ["blue farmer", "green farmer", "yellow farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
        )
        play(st, "red farmer")
        assert st.players[0].tokens == 2
        assert deciding(st) == "action"

    def test_without_a_farmer_in_the_guildhall_there_is_no_effect(self):
        st = build(
            options=CLASSIC, players=[{"hand": ["red farmer"]}, {"guildhall": ["red trader"]}]
        )
        play(st, "red farmer")
        assert st.players[0].tokens == 0
        assert deciding(st) == "action"


class TestHistorian:
    def test_level_0_places_the_top_card_of_the_discard_pile(self):
        st = build(
            players=[{"hand": ["red historian"]}, {"guildhall": ["red trader"]}],
            discard=["blue weaver", "green farmer"],
        )
        play(st, "red historian")
        act(st, "use", level=0)
        assert names(st.players[0].guildhall) == ["green farmer"]
        assert names(st.discard) == ["blue weaver"]

    def test_level_0_cannot_place_a_duplicate(self):
        st = build(
            players=[
                {"hand": ["red historian"], "guildhall": ["green farmer"]},
                {"guildhall": ["red trader"]},
            ],
            discard=["blue weaver", "green farmer"],
        )
        play(st, "red historian")
        assert deciding(st) == "action"  # nothing could be done: no decision offered
        assert names(st.players[0].guildhall) == ["green farmer"]

    def test_level_2_searches_and_keeps_the_order_of_the_rest(self):
        st = build(
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": ["blue historian", "green historian", "green farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["blue weaver", "green farmer", "yellow dancer", "red assassin"],
        )
        play(st, "red historian")
        act(st, "use", level=2)
        # The duplicate green Farmer is not offered; top of the pile first.
        assert names(picks(st)) == ["red assassin", "yellow dancer", "blue weaver"]
        act(st, "pick", card=find(st.discard, "yellow dancer"))
        assert "yellow dancer" in names(st.players[0].guildhall)
        assert names(st.discard) == ["blue weaver", "green farmer", "red assassin"]

    def test_level_4_places_two_cards(self):
        st = build(
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": [
                        "blue historian",
                        "green historian",
                        "yellow historian",
                        "purple historian",
                    ],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["blue weaver", "green farmer", "yellow dancer"],
        )
        play(st, "red historian")
        assert levels(st) == [0, 2, 4]
        act(st, "use", level=4)
        act(st, "pick", card=find(st.discard, "blue weaver"))
        act(st, "pick", card=find(st.discard, "yellow dancer"))
        assert {"blue weaver", "yellow dancer"} <= set(names(st.players[0].guildhall))
        assert names(st.discard) == ["green farmer"]

    def test_level_4_two_copies_of_one_card_cannot_both_enter(self):
        st = build(
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": [
                        "blue historian",
                        "green historian",
                        "yellow historian",
                        "purple historian",
                    ],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["blue weaver", "blue weaver"],
        )
        play(st, "red historian")
        assert levels(st) == [0, 2]

    def test_advanced_a_hidden_card_may_conflict_and_is_discarded(self):
        st = build(
            options=Options(advanced=True),
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": ["blue historian", "green historian", "green farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["green farmer", "yellow dancer"],
        )
        play(st, "red historian")
        act(st, "use", level=2)
        offered = names(picks(st))
        assert "green farmer" in offered  # below the top: hidden, may be taken knowingly
        conflicting = find(st.discard, "green farmer")
        act(st, "pick", card=conflicting)
        assert names(st.players[0].guildhall).count("green farmer") == 1
        assert st.discard[-1] == conflicting  # the entering card was discarded

    def test_advanced_the_public_top_card_may_not_conflict(self):
        st = build(
            options=Options(advanced=True),
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": ["blue historian", "green historian", "green farmer"],
                },
                {"guildhall": ["red trader"]},
            ],
            discard=["yellow dancer", "green farmer"],
        )
        play(st, "red historian")
        act(st, "use", level=2)
        assert names(picks(st)) == ["yellow dancer"]


class TestTrader:
    def test_level_0_swaps_one_card(self):
        st = build(
            players=[
                {"hand": ["red trader"], "guildhall": ["blue weaver"]},
                {"guildhall": ["green farmer"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=0)  # the only other player is the target at once
        act(st, "pick", card=find(st.players[0].guildhall, "blue weaver"))
        act(st, "pick", card=find(st.players[1].guildhall, "green farmer"))
        assert names(st.players[0].guildhall) == ["green farmer"]
        assert names(st.players[1].guildhall) == ["blue weaver"]

    def test_a_swap_may_not_leave_a_duplicate(self):
        st = build(
            players=[
                {"hand": ["red trader"], "guildhall": ["blue weaver", "green farmer"]},
                {"guildhall": ["green farmer", "yellow dancer"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=0)
        act(st, "pick", card=find(st.players[0].guildhall, "blue weaver"))
        # Taking their green Farmer would duplicate mine.
        assert names(picks(st)) == ["yellow dancer"]
        with pytest.raises(IllegalAction) as e:
            act(st, "pick", card=find(st.players[1].guildhall, "green farmer"))
        assert e.value.rule == "swap_duplicates"

    def test_swapping_two_identical_cards_is_legal(self):
        st = build(
            players=[
                {"hand": ["red trader"], "guildhall": ["green farmer"]},
                {"guildhall": ["green farmer"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=0)
        mine = st.players[0].guildhall[0]
        theirs = st.players[1].guildhall[0]
        act(st, "pick", card=mine)
        act(st, "pick", card=theirs)
        assert st.players[0].guildhall == [theirs]
        assert st.players[1].guildhall == [mine]

    def test_level_2_swaps_two_cards(self):
        st = build(
            players=[
                {
                    "hand": ["red trader"],
                    "guildhall": ["blue trader", "green trader", "blue weaver", "red farmer"],
                },
                {"guildhall": ["green farmer", "yellow dancer", "purple assassin"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=2)
        me, them = st.players
        give = [find(me.guildhall, "blue weaver"), find(me.guildhall, "red farmer")]
        get = [find(them.guildhall, "green farmer"), find(them.guildhall, "yellow dancer")]
        for c in give + get:
            act(st, "pick", card=c)
        assert sorted(names(me.guildhall)) == [
            "blue trader",
            "green farmer",
            "green trader",
            "yellow dancer",
        ]
        assert sorted(names(them.guildhall)) == ["blue weaver", "purple assassin", "red farmer"]

    def test_level_4_swaps_whole_chapters(self):
        st = build(
            players=[
                {
                    "hand": ["red trader"],
                    "guildhall": [
                        "blue trader",
                        "green trader",
                        "yellow trader",
                        "purple trader",
                        "blue weaver",
                        "red weaver",
                    ],
                },
                {"guildhall": ["green farmer", "yellow farmer", "purple assassin"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=4)
        chapters = [a for a in legal_actions(st) if a["kind"] == "pick_chapter"]
        assert {a["profession"] for a in chapters} == {"trader", "weaver"}
        act(st, "pick_chapter", player=0, profession="weaver")
        act(st, "pick_chapter", player=1, profession="farmer")
        assert sorted(names(st.players[0].guildhall)) == [
            "blue trader",
            "green farmer",
            "green trader",
            "purple trader",
            "yellow farmer",
            "yellow trader",
        ]
        assert sorted(names(st.players[1].guildhall)) == [
            "blue weaver",
            "purple assassin",
            "red weaver",
        ]

    def test_level_4_chapter_swap_refused_when_it_would_duplicate(self):
        st = build(
            players=[
                {
                    "hand": ["red trader"],
                    "guildhall": [
                        "blue trader",
                        "green trader",
                        "yellow trader",
                        "purple trader",
                        "blue weaver",
                        "red farmer",
                    ],
                },
                {"guildhall": ["red farmer", "yellow farmer"]},
            ]
        )
        play(st, "red trader")
        act(st, "use", level=4)
        # Their only chapter brings a red Farmer: only my Farmer chapter can go for it.
        offered = [a["profession"] for a in legal_actions(st) if a["kind"] == "pick_chapter"]
        assert offered == ["farmer"]
        with pytest.raises(IllegalAction) as e:
            act(st, "pick_chapter", player=0, profession="weaver")
        assert e.value.rule == "swap_duplicates"
        act(st, "pick_chapter", player=0, profession="farmer")
        act(st, "pick_chapter", player=1, profession="farmer")
        assert {"red farmer", "yellow farmer"} <= set(names(st.players[0].guildhall))
        assert names(st.players[1].guildhall) == ["red farmer"]


class TestDancer:
    def test_draws_one_card_per_dancer_then_an_extra_action(self):
        st = build(
            players=[
                {"hand": ["red dancer"], "guildhall": ["blue dancer", "green dancer"]},
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red dancer")
        act(st, "use", level=0)
        assert len(st.players[0].hand) == 2
        assert st.actions_left == 2  # 1 left + 1 extra

    def test_with_no_dancer_in_the_guildhall_draws_nothing_but_still_acts_again(self):
        st = build(players=[{"hand": ["red dancer"]}, {"guildhall": ["red trader"]}])
        play(st, "red dancer")
        act(st, "use", level=0)
        assert st.players[0].hand == []
        assert st.actions_left == 2


class TestWeaver:
    def test_level_0_places_one_hand_card(self):
        st = build(players=[{"hand": ["red weaver", "blue farmer"]}, {"guildhall": ["red trader"]}])
        play(st, "red weaver")
        act(st, "use", level=0)
        assert names(picks(st)) == ["blue farmer"]
        act(st, "pick", card=picks(st)[0])
        assert names(st.players[0].guildhall) == ["blue farmer"]

    def test_level_2_exchanges_two_hand_cards_for_one_guildhall_card(self):
        st = build(
            players=[
                {
                    "hand": ["red weaver", "blue farmer", "green dancer"],
                    "guildhall": ["blue weaver", "green weaver", "yellow assassin"],
                },
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red weaver")
        act(st, "use", level=2)
        me = st.players[0]
        taken = find(me.guildhall, "yellow assassin")
        act(st, "pick", card=taken)
        act(st, "pick", card=find(me.hand, "blue farmer"))
        act(st, "pick", card=find(me.hand, "green dancer"))
        assert sorted(names(me.guildhall)) == [
            "blue farmer",
            "blue weaver",
            "green dancer",
            "green weaver",
        ]
        assert me.hand == [taken]
        assert me.known == [taken]  # everyone saw it leave the guildhall

    def test_level_4_exchanges_any_number_for_two_guildhall_cards(self):
        st = build(
            players=[
                {
                    "hand": ["red weaver", "blue farmer"],
                    "guildhall": [
                        "blue weaver",
                        "green weaver",
                        "yellow weaver",
                        "purple weaver",
                        "yellow assassin",
                    ],
                },
                {"guildhall": ["red trader"]},
            ]
        )
        play(st, "red weaver")
        act(st, "use", level=4)
        me = st.players[0]
        act(st, "pick", card=find(me.guildhall, "yellow assassin"))
        act(st, "pick", card=find(me.guildhall, "blue weaver"))
        assert "done" in kinds(st)  # zero hand cards is allowed
        act(st, "done")
        assert sorted(names(me.hand)) == ["blue farmer", "blue weaver", "yellow assassin"]
        assert sorted(names(me.guildhall)) == ["green weaver", "purple weaver", "yellow weaver"]
