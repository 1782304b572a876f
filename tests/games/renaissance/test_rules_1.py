"""Rules 1, under which games begun before 1881389 are played to their end (issue 43):
removals only in an action phase, a face-down Renaissance Man placed at once in a single
open place, and the Recruit winner asked only when the card fits as the structure stands.
Each test is a rules-2 test of its step played under rules 1."""

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.builder import build
from games.renaissance.pyramid import index

from .helpers import act, card, legal, pass_all
from .test_engine_recruit import BOOK, board


def test_a_winner_whose_card_fits_only_after_a_removal_takes_it_without_asking():
    first = card("merchant", needs=("coin", "book"))
    second = card("scholar", needs=("coin", "book"))
    st = build(
        players=[{"knights": {"book": 1}, "cells": {(2, 0): first}}, {}],
        recruit=board(book=second, skip=[first]),
    )
    st.rules = 1
    pass_all(st, 0, 1)
    events = pass_all(st, 0, 1)

    assert {"type": "recruit_take", "player": 0, "card": second, "area": BOOK} in events
    assert second in st.players[0].hand and st.players[0].cells[index(2, 0)] == first


def test_under_rules_2_the_same_winner_is_asked():
    first = card("merchant", needs=("coin", "book"))
    second = card("scholar", needs=("coin", "book"))
    st = build(
        players=[{"knights": {"book": 1}, "cells": {(2, 0): first}}, {}],
        recruit=board(book=second, skip=[first]),
    )
    pass_all(st, 0, 1)
    pass_all(st, 0, 1)
    assert st.stage == "recruit" and engine.deciders(st) == {0}


def _single_place() -> dict:
    return {
        "hand": [card("scholar")],
        "rm_tokens": ["coin", "bread", "shield"],
        "foundation": "merchant baker knight rm scholar",
        "cells": {
            (2, 0): "rm",
            (2, 1): "rm",
            (2, 2): "rm",
            (3, 0): "rm",
            (3, 1): "rm",
            (4, 0): "rm",
        },
    }


def test_a_renaissance_man_with_a_single_place_goes_there_at_once():
    st = build(players=[_single_place(), {}])
    st.rules = 1
    top = st.deck[-1]
    act(st, 0, "teach", card=st.players[0].hand[0], source="worker")
    events = act(st, 1, "pass")

    assert {"type": "rm_placed", "placements": [{"player": 0, "level": 2, "pos": 3}]} in events
    assert st.stage != "rm" and st.players[0].cells[index(2, 3)] == top


def test_no_worker_is_removed_in_the_discard_step():
    worker = card("merchant", needs=("coin", "book"))
    st = build(
        players=[{"hand": [card("baker")], "cells": {(2, 0): worker}}, {"hand": [card("knight")]}],
        stage="discard",
    )
    st.rules = 1
    assert not legal(st, 0, "remove") and not legal(st, 0, "reset")
    for kind in ("remove", "reset"):
        with pytest.raises(IllegalAction) as refused:
            act(st, 0, kind, **({"level": 2, "pos": 0} if kind == "remove" else {}))
        assert refused.value.rule == "wrong_decision"
    assert st.players[0].removals == [] and st.players[0].cells[5] == worker


def test_an_action_phase_s_removals_are_the_same():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
    st.rules = 1
    act(st, 0, "remove", level=2, pos=0)
    assert st.players[0].removals == [5] and {"kind": "reset"} in legal(st, 0)


def test_a_match_replays_under_the_rules_its_game_began_with_and_changed_to():
    from games.core import IllegalAction as Illegal
    from games.core import Match
    from games.renaissance.game import RENAISSANCE

    options = RENAISSANCE.parse_options({}, 2)
    match = Match(RENAISSANCE, options, ["Ann", "Bob"], 7, rules=1)
    assert match.state.rules == 1 and match.rules == 1
    with pytest.raises(Illegal):
        match.apply({"kind": "pass"}, 0, rules=2)  # not an answer to the foundation
    assert match.state.rules == 1 and match.record == []  # nothing changed

    match.apply({"kind": "foundation", "worker": "rm"}, 0, rules=2)

    assert match.state.rules == 2
    assert match.record == [
        {"player": 0, "action": {"kind": "foundation", "worker": "rm"}, "rules": 2}
    ]
    again = Match(RENAISSANCE, options, ["Ann", "Bob"], 7, match.record, rules=1)
    assert again.state == match.state


def test_a_game_with_one_rules_version_has_no_other():
    from games.guildhall.game import GUILDHALL

    state = GUILDHALL.new_state(GUILDHALL.parse_options({}, 2), ["Ann", "Bob"], 1)
    assert GUILDHALL.rules_version == 1 and GUILDHALL.rules_of(state) == 1
    with pytest.raises(ValueError, match="no rules version 2"):
        GUILDHALL.play_under(state, 2)
