"""The simultaneous setup (option ``setup``): every seat discards, redraws and places its 3
cards at the same time, in secret, changeable until the last seat has chosen; then the
choices are carried out in seat order (RULINGS 5, played at once)."""

from __future__ import annotations

import json
import random

import pytest

from games.guildhall import (
    IllegalAction,
    Options,
    apply,
    bot,
    decision,
    easy,
    legal_actions,
    new_game,
    search,
)
from games.guildhall.cards import IDENT, card_name
from games.guildhall.determinize import determinize
from games.guildhall.engine import deciders, undo_player
from games.guildhall.errors import PositionError
from games.guildhall.game import GUILDHALL
from games.guildhall.log import describe_all
from games.guildhall.match import Match
from games.guildhall.positions import from_json, to_json
from games.guildhall.simulate import invariants, run
from games.guildhall.views import view

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def fresh(players: int = 3, seed: int = 42, **kw) -> object:
    options = Options(players=players, setup="simultaneous", **kw)
    return new_game(options, NAMES[:players], seed)


def distinct(hand: list[int], n: int) -> list[int]:
    """``n`` cards of ``hand`` of different identities."""
    out: list[int] = []
    for c in hand:
        if len(out) < n and all(IDENT[c] != IDENT[x] for x in out):
            out.append(c)
    return out


def discard_step(st, choices: dict[int, list[int]], order=None) -> list[dict]:
    """Every seat discards ``choices[seat]`` (in that order) and says done, the seats in
    ``order``; the events of the last (resolving) step."""
    events: list[dict] = []
    for seat in order or range(len(st.players)):
        for c in choices.get(seat, []):
            apply(st, {"kind": "discard", "card": c}, seat)
        events = apply(st, {"kind": "done"}, seat)
    return events


def place_step(st, order=None) -> list[dict]:
    events: list[dict] = []
    for seat in order or range(len(st.players)):
        for c in distinct(st.players[seat].hand, 3):
            events = apply(st, {"kind": "place", "card": c}, seat)
    return events


# Options ----------------------------------------------------------------------------------


def test_the_dataclass_and_old_stored_options_are_sequential_the_site_default_is_not():
    assert Options().setup == "sequential"
    stored = {"players": 3, "rules": "yucata", "advanced": False, "names": "classic"}
    assert Options.from_json(stored).setup == "sequential"
    assert GUILDHALL.load_options(stored).setup == "sequential"
    # Read and written back unchanged: old snapshots stay as they were stored.
    assert Options.from_json(stored).to_json() == stored
    assert Options.from_json({**stored, "setup": "simultaneous"}).simultaneous_setup
    assert GUILDHALL.parse_options({}, 3).setup == "simultaneous"
    assert GUILDHALL.parse_options({"setup": "sequential"}, 3).setup == "sequential"
    spec = next(s for s in GUILDHALL.option_specs if s.name == "setup")
    assert (spec.kind, spec.default, spec.values) == (
        "choice",
        "simultaneous",
        ["simultaneous", "sequential"],
    )
    with pytest.raises(ValueError):
        Options(setup="whenever")


def test_options_label_mentions_only_the_setup_in_turn():
    assert "setup" not in GUILDHALL.options_label(GUILDHALL.parse_options({}, 3))
    label = GUILDHALL.options_label(GUILDHALL.parse_options({"setup": "sequential"}, 3))
    assert "setup in turn" in label


def test_a_stored_sequential_position_has_no_setup_fields():
    st = new_game(Options(players=3), NAMES[:3], 1)
    data = to_json(st)
    assert "setup" not in data["options"]
    assert "setup_picks" not in data and "setup_chosen" not in data
    assert view(st, 0)["options"]["setup"] == "sequential"
    assert view(fresh(), 0)["options"]["setup"] == "simultaneous"


# Everyone at once --------------------------------------------------------------------------


def test_every_seat_decides_at_once():
    st = fresh()
    assert deciders(st) == (0, 1, 2)
    assert GUILDHALL.deciders(st) == frozenset({0, 1, 2})
    for seat in range(3):
        actions = GUILDHALL.legal_actions(st, seat)
        hand = st.players[seat].hand
        assert actions == [{"kind": "discard", "card": c} for c in hand] + [{"kind": "done"}]
        d = decision(st, seat)
        assert (d["kind"], d["player"], d["chosen"], d["picks"]) == (
            "setup_discard",
            seat,
            False,
            [],
        )
    # The last seat may go first: no "not_your_decision".
    apply(st, {"kind": "done"}, 2)
    assert deciders(st) == (0, 1)
    assert GUILDHALL.deciders(st) == frozenset({0, 1})


def test_a_seat_cannot_act_on_another_seats_cards_or_out_of_step():
    st = fresh()
    other = st.players[1].hand[0]
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "discard", "card": other}, 0)
    assert e.value.rule == "card_not_in_hand"
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "place", "card": st.players[0].hand[0]}, 0)
    assert e.value.rule == "wrong_decision"
    discard_step(st, {})
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "done"}, 0)
    assert e.value.rule == "wrong_decision"


def test_a_choice_can_change_until_the_last_seat_has_chosen():
    st = fresh()
    bob = st.players[1].hand
    a, b, c = bob[0], bob[1], bob[2]
    apply(st, {"kind": "discard", "card": a}, 1)
    apply(st, {"kind": "discard", "card": b}, 1)
    apply(st, {"kind": "done"}, 1)
    assert 1 not in deciders(st)
    # Chosen, but still changeable: no "done", a card to keep or another to discard.
    actions = legal_actions(st, 1)
    assert {"kind": "done"} not in actions
    assert {"kind": "keep", "card": a} in actions
    assert {"kind": "discard", "card": c} in actions
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "done"}, 1)
    assert e.value.rule == "not_a_choice"
    apply(st, {"kind": "keep", "card": a}, 1)  # changing the choice reopens it
    assert 1 in deciders(st)
    apply(st, {"kind": "discard", "card": c}, 1)
    apply(st, {"kind": "done"}, 1)
    apply(st, {"kind": "done"}, 0)
    assert st.discard == [] and st.stage == "discard"  # nothing happens before the last
    apply(st, {"kind": "done"}, 2)
    assert st.discard == [b, c]
    assert a in st.players[1].hand and len(st.players[1].hand) == 9
    assert st.stage == "place" and deciders(st) == (0, 1, 2)


def test_resolution_in_seat_order_whatever_the_order_of_choosing():
    st = fresh()
    choices = {q: st.players[q].hand[: q + 1][::-1] for q in range(3)}  # 1, 2, 3 cards
    deck = st.deck[:]
    events = discard_step(st, choices, order=[2, 0, 1])
    # The discard pile: seat 0's cards, then seat 1's, then seat 2's, each in its order.
    assert st.discard == choices[0] + choices[1] + choices[2]
    # The deck is drawn in seat order: seat 0 takes the top card, then seat 1 the next 2...
    top = deck[::-1]
    assert st.players[0].hand[-1:] == top[0:1]
    assert st.players[1].hand[-2:] == top[1:3]
    assert st.players[2].hand[-3:] == top[3:6]
    assert all(len(ps.hand) == 9 for ps in st.players)
    moved = [(e["type"], e["player"]) for e in events if e["type"] in ("discard", "draw")]
    assert moved == [
        ("discard", 0),
        ("draw", 0),
        ("discard", 1),
        ("discard", 1),
        ("draw", 1),
        ("discard", 2),
        ("discard", 2),
        ("discard", 2),
        ("draw", 2),
    ]


def test_the_same_seed_and_choices_give_the_same_game():
    a, b = fresh(seed=7), fresh(seed=7)
    choices = {1: a.players[1].hand[:4]}
    discard_step(a, choices, order=[0, 1, 2])
    discard_step(b, choices, order=[1, 2, 0])
    ja, jb = to_json(a), to_json(b)
    assert (ja.pop("last_actor"), jb.pop("last_actor")) == (2, 0)
    assert ja == jb


def test_placing_three_different_cards_at_once_then_the_first_turn():
    st = fresh()
    discard_step(st, {})
    hand = st.players[0].hand
    first = hand[0]
    apply(st, {"kind": "place", "card": first}, 0)
    for twin in [c for c in hand if IDENT[c] == IDENT[first] and c != first]:
        assert {"kind": "place", "card": twin} not in legal_actions(st, 0)
        with pytest.raises(IllegalAction) as e:
            apply(st, {"kind": "place", "card": twin}, 0)
        assert e.value.rule == "no_duplicates"
    apply(st, {"kind": "keep", "card": first}, 0)
    chosen = distinct(hand, 3)
    for c in chosen:
        apply(st, {"kind": "place", "card": c}, 0)
    # The third card is the choice; a fourth is refused; it can still be taken back.
    assert 0 not in deciders(st)
    assert all(a["kind"] == "keep" for a in legal_actions(st, 0))
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "place", "card": next(c for c in hand if c not in chosen)}, 0)
    assert e.value.rule == "not_a_choice"
    assert st.players[0].guildhall == []  # placed only when everyone has chosen
    place_step(st, order=[2, 1])
    assert st.players[0].guildhall == chosen
    assert all(len(ps.guildhall) == 3 and len(ps.hand) == 6 for ps in st.players)
    assert st.phase == "play" and st.turn == 1
    assert all(v is not None for v in st.center)
    assert decision(st) == {"kind": "action", "player": 0, "actions_left": 2}
    assert deciders(st) == (0,)
    assert st.setup_picks == [] and st.setup_chosen == []


def test_step_names_each_round_of_choices():
    st = fresh()
    assert GUILDHALL.step(st) == ("setup", "discard")
    discard_step(st, {})
    assert GUILDHALL.step(st) == ("setup", "place")
    place_step(st)
    assert GUILDHALL.step(st) == 0
    assert GUILDHALL.step(new_game(Options(players=3), NAMES[:3], 1)) == 0


# Secrets -----------------------------------------------------------------------------------


def _twins(seed: int = 42):
    """Two games alike but for seat 1's pending (chosen) discards."""
    a, b = fresh(seed=seed), fresh(seed=seed)
    hand = a.players[1].hand
    events = {}
    for st, cards in ((a, hand[:2]), (b, hand[5:8])):
        evs = []
        for c in cards:
            evs += apply(st, {"kind": "discard", "card": c}, 1)
        evs += apply(st, {"kind": "done"}, 1)
        events[id(st)] = evs
    return a, b, events[id(a)], events[id(b)]


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_another_seats_pending_choice_is_in_no_view_and_no_log_line(viewer):
    a, b, ea, eb = _twins()
    assert json.dumps(view(a, viewer)) == json.dumps(view(b, viewer))
    assert describe_all(a, ea, viewer) == describe_all(b, eb, viewer)
    assert describe_all(a, ea, viewer) == ["Bob has chosen"]
    d = view(a, viewer)["decision"]
    assert d["choosing"] == [0, 2] and d["simultaneous"] is True
    assert d["player"] == (0 if viewer is None else viewer)
    if viewer is None:
        assert not {"picks", "chosen", "remaining", "picked"} & set(d)
    assert GUILDHALL.prompt(view(a, viewer)) == GUILDHALL.prompt(view(b, viewer))
    assert invariants(a) == []


def test_the_owner_sees_their_own_choice():
    a, _, ea, _ = _twins()
    mine = view(a, 1)
    assert mine["decision"]["picks"] == a.setup_picks[1]
    assert mine["decision"]["chosen"] is True
    assert {"kind": "keep", "card": a.setup_picks[1][0]} in mine["legal_actions"]
    lines = describe_all(a, ea, 1)
    assert lines[0] == f"Bob will discard {card_name(a.setup_picks[1][0])}"
    assert lines[-1].startswith("Bob chose to discard ")


def test_changing_a_choice_tells_the_others_only_that_it_is_being_changed():
    st = fresh()
    apply(st, {"kind": "done"}, 1)
    events = apply(st, {"kind": "discard", "card": st.players[1].hand[3]}, 1)
    assert describe_all(st, events, 0) == ["Bob is choosing again"]
    assert describe_all(st, events, None) == ["Bob is choosing again"]
    place = fresh()
    discard_step(place, {})
    for c in distinct(place.players[2].hand, 3):
        events = apply(place, {"kind": "place", "card": c}, 2)
    assert describe_all(place, events, 0) == ["Cid has chosen"]


def test_redrawn_cards_are_secret_to_their_owner():
    st = fresh()
    events = discard_step(st, {0: st.players[0].hand[:2]})
    draw = next(e for e in events if e["type"] == "draw")
    assert describe_all(st, [draw], 1) == ["Ann drew 2 cards"]
    assert describe_all(st, [draw], 0) == [
        "Ann drew " + ", ".join(card_name(c) for c in draw["cards"])
    ]
    assert invariants(st) == []


def test_determinize_drops_or_reimagines_the_others_pending_choices():
    a, b, _, _ = _twins()
    for st in (a, b):
        s = determinize(st, 0, random.Random(3))
        assert s.setup_picks[1] == [] and s.setup_chosen == [False, True, False]
    ja, jb = (to_json(determinize(st, 0, random.Random(3))) for st in (a, b))
    del ja["undo_steps"], jb["undo_steps"]  # seat 1's number of steps
    assert ja == jb
    # In the placing step a seat that has chosen gets 3 imagined different cards.
    st = fresh()
    discard_step(st, {})
    real = distinct(st.players[1].hand, 3)
    for c in real:
        apply(st, {"kind": "place", "card": c}, 1)
    s = determinize(st, 0, random.Random(5))
    imagined = s.setup_picks[1]
    assert len({IDENT[c] for c in imagined}) == 3 and set(imagined) <= set(s.players[1].hand)
    assert invariants(s) == []


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_computer_players_choose_for_any_seat_still_choosing(level):
    st = fresh()
    apply(st, {"kind": "done"}, 0)
    for seat in (1, 2):
        action = GUILDHALL.choose_at(level, st, seat, random.Random(1), iterations=30)
        assert action in legal_actions(st, seat)
    with pytest.raises(ValueError):
        GUILDHALL.choose_at(level, st, 0, random.Random(1), iterations=30)


def test_the_normal_player_does_not_read_the_others_pending_choices():
    a, b, _, _ = _twins()
    for seat in (0, 2):
        assert bot.choose(a, random.Random(4), seat=seat) == bot.choose(
            b, random.Random(4), seat=seat
        )
        assert search.choose(a, seat, random.Random(4), iterations=40) == search.choose(
            b, seat, random.Random(4), iterations=40
        )


def test_a_timed_out_seat_gets_a_whole_choice():
    """As ``services.do_time_out`` does: the computer decides while the seat is waited for."""
    st = fresh(4)
    for stage in ("discard", "place"):
        assert st.stage == stage
        for seat in (3, 1, 0, 2):
            rand = random.Random(seat)
            for _ in range(100):
                if seat not in GUILDHALL.deciders(st) or st.stage != stage:
                    break
                GUILDHALL.apply(st, seat, GUILDHALL.choose(st, seat, rand))
            assert seat not in GUILDHALL.deciders(st) or st.stage != stage
    assert st.phase == "play"
    assert easy.choose(st, random.Random(1)) in legal_actions(st)


# Undo, positions, resigning ----------------------------------------------------------------


def test_undo_each_ones_own_steps_and_not_past_the_resolution():
    m = Match(Options(players=3, setup="simultaneous"), NAMES[:3], 9)
    card = m.state.players[0].hand[0]
    m.apply({"kind": "discard", "card": card}, 0)
    assert GUILDHALL.can_undo(m.state, 0)
    m.apply({"kind": "done"}, 1)
    # Bob's step takes nothing from Ann (her undo would tell her that someone chose).
    assert GUILDHALL.can_undo(m.state, 0) and GUILDHALL.can_undo(m.state, 1)
    assert not GUILDHALL.can_undo(m.state, 2)
    assert GUILDHALL.private_record(m.state)
    m.apply({"kind": "undo"}, 1)
    assert deciders(m.state) == (0, 1, 2) and m.state.setup_picks[0] == [card]
    m.apply({"kind": "undo"}, 0)
    assert m.state.setup_picks[0] == []
    for seat in range(3):
        m.apply({"kind": "done"}, seat)
    assert undo_player(m.state) is None
    with pytest.raises(IllegalAction):
        m.apply({"kind": "undo"}, 2)
    assert m.replayed() == m.state


def test_positions_keep_the_pending_choices_and_refuse_broken_ones():
    st = fresh()
    apply(st, {"kind": "discard", "card": st.players[1].hand[0]}, 1)
    apply(st, {"kind": "done"}, 2)
    data = json.loads(json.dumps(to_json(st)))
    assert data["setup_chosen"] == [False, False, True]
    assert from_json(data) == st
    broken = json.loads(json.dumps(data))
    broken["setup_picks"][0] = [st.players[1].hand[1]]
    with pytest.raises(PositionError):
        from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["setup_chosen"] = [True, True, True]
    with pytest.raises(PositionError):
        from_json(broken)
    broken = json.loads(json.dumps(data))
    del broken["setup_chosen"], broken["setup_picks"]
    with pytest.raises(PositionError):
        from_json(broken)


def test_resigning_during_the_simultaneous_setup():
    st = fresh()
    GUILDHALL.resign(st, 1)
    assert deciders(st) == (0, 1, 2)  # the computer chooses for the seat on the site
    two = fresh(2)
    GUILDHALL.resign(two, 0)
    assert two.phase == "over" and GUILDHALL.deciders(two) == frozenset()
    assert from_json(to_json(two)) == two


# Sequential, as before ---------------------------------------------------------------------


def test_the_sequential_setup_is_unchanged():
    st = new_game(Options(players=3), NAMES[:3], 42)
    assert decision(st) == {"kind": "setup_discard", "player": 0, "draw_to": 9}
    assert deciders(st) == (0,) and GUILDHALL.deciders(st) == frozenset({0})
    assert GUILDHALL.legal_actions(st, 1) == []
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "done"}, 1)
    assert e.value.rule == "not_your_decision"
    with pytest.raises(IllegalAction) as e:
        apply(st, {"kind": "keep", "card": st.players[0].hand[0]}, 0)
    assert e.value.rule == "wrong_decision"
    card = st.players[0].hand[0]
    apply(st, {"kind": "discard", "card": card}, 0)
    assert st.discard == [card]  # at once, as at the table
    assert view(st, 1)["decision"] == {"kind": "setup_discard", "player": 0, "draw_to": 9}


@pytest.mark.parametrize("setup", ["simultaneous", "sequential"])
def test_random_games_keep_every_invariant(setup):
    summary = run(3, 3, "yucata", 5, check_every=1, out=lambda *_: None, setup=setup)
    assert summary["violations"] == 0
    assert summary["ended"]["won"] == 3
