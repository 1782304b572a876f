"""Actions, turns, draws and the end of a turn (RULINGS 3)."""

import pytest

from games.guildhall import IllegalAction, Options, decision, legal_actions
from games.guildhall.builder import build

from .helpers import act, deciding, find, kinds, names, play, snapshot

ADVANCED = Options(advanced=True)


def two(me: dict, **kw):
    return build(players=[me, {"guildhall": ["red trader"]}], **kw)


class TestActions:
    def test_a_turn_is_two_actions_then_the_end_of_turn(self):
        st = two({"hand": ["red farmer", "blue weaver"]})
        assert set(kinds(st)) == {"play", "discard_draw"}
        play(st, "red farmer")
        play(st, "blue weaver")  # nothing to place: no effect, no decision
        assert kinds(st) == ["end_turn"]
        act(st, "end_turn")
        assert decision(st)["player"] == 1

    def test_discard_any_number_then_draw_up_to_six(self):
        st = two({"hand": ["red farmer", "blue weaver", "green dancer"]})
        act(st, "discard_draw")
        act(st, "discard", card=find(st.players[0].hand, "blue weaver"))
        act(st, "discard", card=find(st.players[0].hand, "red farmer"))
        act(st, "done")
        assert len(st.players[0].hand) == 6
        assert names(st.discard) == ["blue weaver", "red farmer"]  # in the order discarded

    def test_discarding_nothing_is_legal_and_a_big_hand_draws_nothing(self):
        hand = [
            "red farmer",
            "blue weaver",
            "green dancer",
            "red trader",
            "blue trader",
            "green trader",
            "yellow trader",
        ]
        st = two({"hand": hand})
        deck = len(st.deck)
        act(st, "discard_draw")
        act(st, "done")
        assert len(st.players[0].hand) == 7
        assert len(st.deck) == deck

    def test_one_card_per_profession_per_turn(self):
        st = two({"hand": ["red farmer", "blue farmer"]})
        play(st, "red farmer")
        assert "play" not in kinds(st)
        with pytest.raises(IllegalAction) as e:
            play(st, "blue farmer")
        assert e.value.rule == "one_profession_per_turn"

    def test_a_card_already_in_the_guildhall_cannot_be_played(self):
        st = two({"hand": ["blue farmer", "red weaver"], "guildhall": ["blue farmer"]})
        with pytest.raises(IllegalAction) as e:
            play(st, "blue farmer")
        assert e.value.rule == "no_duplicates"
        assert [a["card"] for a in legal_actions(st) if a["kind"] == "play"] == [
            find(st.players[0].hand, "red weaver")
        ]

    def test_base_rule_ignores_the_action_area_for_unplayed_professions(self):
        # A farmer lies in the action area but none was played this turn.
        st = two({"hand": ["blue farmer"], "action_area": ["red farmer"]})
        assert "play" in kinds(st)

    def test_advanced_rule_blocks_a_profession_in_the_action_area(self):
        st = two({"hand": ["blue farmer"], "action_area": ["red farmer"]}, options=ADVANCED)
        assert "play" not in kinds(st)
        with pytest.raises(IllegalAction) as e:
            play(st, "blue farmer")
        assert e.value.rule == "action_area_restriction"

    def test_advanced_rule_allows_a_played_profession_once_the_area_is_clear(self):
        st = two({"hand": ["blue farmer"]}, options=ADVANCED, played=("farmer",))
        assert "play" in kinds(st)

    def test_extra_action_comes_after_the_ability_and_may_play_another_card(self):
        st = two(
            {"hand": ["red dancer", "blue weaver"], "guildhall": ["blue dancer"]}, actions_left=1
        )
        play(st, "red dancer")
        act(st, "use", level=0)
        assert st.actions_left == 1
        assert "play" in kinds(st)


class TestDraws:
    def test_empty_deck_shuffles_the_whole_discard_pile(self):
        st = two({"hand": []}, discard=["red weaver", "blue weaver", "green weaver"])
        # Move the whole deck to the guildhall-free void: put it into player 1's hand.
        st.players[1].hand.extend(st.deck)
        st.deck = []
        act(st, "discard_draw")
        act(st, "done")
        # All three, the former top card included, were shuffled in and drawn.
        assert sorted(names(st.players[0].hand)) == ["blue weaver", "green weaver", "red weaver"]
        assert st.discard == [] and st.deck == []

    def test_with_deck_and_pile_empty_the_draw_stops_short(self):
        st = two({"hand": []}, discard=["red weaver"])
        st.players[1].hand.extend(st.deck)
        st.deck = []
        act(st, "discard_draw")
        act(st, "done")
        assert names(st.players[0].hand) == ["red weaver"]

    def test_empty_vp_deck_leaves_the_slot_empty(self):
        st = build(
            players=[{"completed": ["farmer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
        )
        st.players[1].vp_cards.extend(st.vp_deck)
        st.vp_deck = []
        five = st.center[0]
        act(st, "buy", vp=five)
        act(st, "order", card=decision(st)["cards"][0])
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        assert st.center[0] is None


class TestEndOfTurn:
    def test_action_area_moves_to_the_guildhall(self):
        st = two({"hand": ["red farmer", "blue weaver"]})
        play(st, "red farmer")
        play(st, "blue weaver")
        act(st, "end_turn")
        assert sorted(names(st.players[0].guildhall)) == ["blue weaver", "red farmer"]
        assert st.players[0].action_area == []

    def test_a_duplicate_in_the_action_area_is_discarded_at_the_end(self):
        # Play a red Weaver, then place its twin from hand with the Weaver: legal, because
        # the twin is only in the action area; at the end the played one is discarded.
        st = two({"hand": ["red weaver", "red weaver"]})
        play(st, "red weaver")
        act(st, "use", level=0)
        twin = st.players[0].hand[0]
        act(st, "pick", card=twin)
        assert st.players[0].guildhall == [twin]
        played = st.players[0].action_area[0]
        act(st, "discard_draw")
        act(st, "done")
        act(st, "end_turn")
        assert st.players[0].guildhall == [twin]
        assert st.discard[-1] == played

    def test_bought_vp_cards_move_with_the_action_area(self):
        st = build(
            players=[{"completed": ["farmer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
            actions_left=1,
        )
        five = st.center[0]
        act(st, "buy", vp=five)
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        act(st, "end_turn")
        assert st.players[0].vp_cards == [five]

    def test_play_passes_to_the_next_seat_and_wraps(self):
        st = build(players=[{}, {}, {"guildhall": ["red trader"]}], current=2, actions_left=0)
        act(st, "end_turn")
        assert st.current == 0 and st.actions_left == 2


class TestIllegalActions:
    @pytest.mark.parametrize(
        "action,rule",
        [
            ({"kind": "play"}, "malformed_action"),
            ({"kind": "play", "card": "7"}, "malformed_action"),
            ({"kind": "play", "card": True}, "malformed_action"),
            ({"kind": "play", "card": 1, "extra": 2}, "malformed_action"),
            ({"kind": "fly"}, "unknown_action"),
            ({"card": 1}, "malformed_action"),
            ({"kind": "end_turn"}, "wrong_decision"),
            ({"kind": "buy", "vp": 0}, "not_in_center_row"),
            ({"kind": "pick", "card": 0}, "wrong_decision"),
            ({"kind": "play", "card": 999}, "card_not_in_hand"),
        ],
    )
    def test_refused_with_the_rule_and_nothing_changes(self, action, rule):
        st = two({"hand": ["red farmer"]})
        before = snapshot(st)
        with pytest.raises(IllegalAction) as e:
            from games.guildhall import apply

            apply(st, action)
        assert e.value.rule == rule
        assert e.value.message
        assert snapshot(st) == before

    def test_not_an_object(self):
        from games.guildhall import apply

        st = two({})
        with pytest.raises(IllegalAction) as e:
            apply(st, ["play", 3])
        assert e.value.rule == "malformed_action"

    def test_another_seat_cannot_decide(self):
        from games.guildhall import apply

        st = two({"hand": ["red farmer"]})
        before = snapshot(st)
        with pytest.raises(IllegalAction) as e:
            apply(st, {"kind": "discard_draw"}, player=1)
        assert e.value.rule == "not_your_decision"
        assert snapshot(st) == before
