"""Legal actions and refusals come from one checker per decision.

``legal_actions`` lists the candidates a decision's checker accepts and ``apply`` refuses
with the rule that checker names, so the two can only disagree if a checker accepts an
action it never lists: the first test probes actions of every kind at every decision of
random games. The rest pin down refusals no other test reaches.
"""

import random

import pytest

from games.guildhall import IllegalAction, Options, apply, decision, legal_actions, new_game
from games.guildhall.builder import build
from games.guildhall.cards import PROFESSIONS
from games.guildhall.engine import DECISION_ACTIONS
from games.guildhall.positions import to_json
from games.guildhall.random_player import choose

from .helpers import act, assassin_chooses_a_player, deciding, find, play, snapshot


def _card_probes(st, rand: random.Random) -> list[int]:
    """Cards anywhere in play, some of the discard pile, and ids out of range."""
    cards = {-1, 120}
    for ps in st.players:
        cards.update(ps.hand, ps.guildhall, ps.action_area)
    for fr in st.frames:
        cards.update(fr.get("cards", ()))
    cards.update(st.discard[-3:])
    cards.update(rand.sample(st.discard, min(3, len(st.discard))))
    return sorted(cards)


def _probes(st, rand: random.Random) -> list[dict]:
    """Actions of every kind: of the kinds answering the decision, with every value that
    could matter now; of the others, one each (the kind alone refuses them)."""
    answering = DECISION_ACTIONS[decision(st)["kind"]]
    out, first_of = [], {}
    for action in _all_probes(st, rand):
        if action["kind"] in answering:
            out.append(action)
        else:
            first_of.setdefault(action["kind"], action)
    return out + list(first_of.values())


def _all_probes(st, rand: random.Random) -> list[dict]:
    cards = _card_probes(st, rand)
    kinds = ("play", "discard", "place", "pick", "order")
    out = [{"kind": kind, "card": c} for kind in kinds for c in cards]
    out += [{"kind": "buy", "vp": v} for v in range(-1, 31)]
    out += [{"kind": kind} for kind in ("discard_draw", "done", "skip", "end_turn", "use")]
    out += [{"kind": "use", "level": level} for level in range(-1, 6)]
    for q in range(-1, len(st.players) + 1):
        out.append({"kind": "target", "player": q})
        out += [
            {"kind": "pick_chapter", "player": q, "profession": name}
            for name in (*PROFESSIONS, "knight")
        ]
    out += [
        {"kind": kind, "chapter": i} for kind in ("pay", "discard_chapter") for i in range(-1, 6)
    ]
    return out


def _accepted(st, action: dict) -> bool:
    try:
        apply(st.clone(), action)
    except IllegalAction as e:
        assert e.rule and e.message
        return False
    return True


@pytest.mark.parametrize(
    "players,rules,advanced",
    [(2, "yucata", False), (3, "classic", True), (4, "yucata", True), (4, "classic", False)],
)
def test_an_action_is_accepted_exactly_when_it_is_listed(players, rules, advanced):
    rand = random.Random(players * 10 + advanced)
    options = Options(players=players, rules=rules, advanced=advanced)
    st = new_game(options, ["Ann", "Bob", "Cid", "Dee"][:players], rand.getrandbits(63))
    while st.phase != "over" and st.turn <= 60:
        legal = legal_actions(st)
        assert legal
        before = to_json(st)
        for action in _probes(st, rand):
            assert _accepted(st, action) == (action in legal), action
        assert to_json(st) == before
        apply(st, choose(st, rand, legal))


def _refused(st, action: dict) -> IllegalAction:
    before = snapshot(st)
    with pytest.raises(IllegalAction) as e:
        apply(st, action)
    assert snapshot(st) == before
    return e.value


class TestRefusals:
    def test_a_level_the_profession_does_not_have(self):
        st = build(players=[{"hand": ["red weaver", "blue farmer"]}, {"guildhall": ["red trader"]}])
        play(st, "red weaver")
        assert _refused(st, {"kind": "use", "level": 1}).rule == "no_such_level"
        assert _refused(st, {"kind": "use"}).rule == "no_such_level"

    def test_a_vp_ability_has_no_level(self):
        st = build(
            players=[{"completed": ["farmer"]}, {"guildhall": ["red trader"]}],
            center=["vp3_draw", "vp5", "vp9", "vp5", "vp4_take"],
        )
        act(st, "buy", vp=st.center[0])
        while deciding(st) == "order":
            act(st, **legal_actions(st)[0])
        assert deciding(st) == "vp_ability"
        assert _refused(st, {"kind": "use", "level": 0}).rule == "malformed_action"

    def test_a_target_that_cannot_suffer_the_whole_effect(self):
        st = assassin_chooses_a_player(
            [
                {"hand": ["red assassin"]},
                {"guildhall": ["blue trader"]},
                {"guildhall": ["green trader"]},
                {},
            ]
        )
        assert [a["player"] for a in legal_actions(st)] == [1, 2]
        for q in (3, 0, 4, -1):  # an empty guildhall, yourself, no such seat
            assert _refused(st, {"kind": "target", "player": q}).rule == "no_target"

    def test_a_pick_that_is_not_offered_and_an_early_done(self):
        st = build(players=[{"hand": ["red weaver", "blue farmer"]}, {"guildhall": ["red trader"]}])
        play(st, "red weaver")
        act(st, "use", level=0)
        elsewhere = find(st.players[1].guildhall, "red trader")
        e = _refused(st, {"kind": "pick", "card": elsewhere})
        assert (e.rule, e.message) == ("not_a_choice", "Pick a card in hand")
        assert _refused(st, {"kind": "done"}).rule == "not_a_choice"

    def test_paying_with_a_chapter_you_do_not_have_then_ordering_a_card_not_paid(self):
        st = build(
            players=[{"completed": ["farmer", "dancer"]}, {"guildhall": ["red trader"]}],
            center=["vp5", "vp5", "vp9", "vp3_draw", "vp4_take"],
        )
        act(st, "buy", vp=st.center[0])
        assert _refused(st, {"kind": "pay", "chapter": 2}).rule == "no_such_chapter"
        act(st, "pay", chapter=1)
        assert deciding(st) == "order"
        assert _refused(st, {"kind": "order", "card": 119}).rule == "not_a_choice"

    def test_nothing_after_the_game_is_over(self):
        st = build(players=[{"hand": ["red weaver"]}, {"guildhall": ["red trader"]}])
        apply(st, {"kind": "resign"}, player=1)
        assert legal_actions(st) == []
        assert _refused(st, {"kind": "discard_draw"}).rule == "game_over"
