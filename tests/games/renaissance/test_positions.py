"""Stored states: the format of today, and games stored before pending removals had a list
of their own (format 1 kept an action phase's removals in ``picks``), before the hand
cards every seat saw taken were kept (format 2), or before the rules version was (format
3), or before several seats could each take back their own step (format 4). The old formats
are made by the projections beside the upgraders (``formats``)."""

import pytest

from games.renaissance.builder import build
from games.renaissance.formats import FORMATS
from games.renaissance.positions import FORMAT, from_json, to_json

from .helpers import act


def _as_format_4(data: dict) -> dict:
    return FORMATS.project(data, 4)


def _as_format_2(data: dict) -> dict:
    return FORMATS.project(data, 2)


def _as_format_1(data: dict) -> dict:
    return FORMATS.project(data, 1)


def test_a_state_round_trips_in_todays_format():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
    act(st, 0, "remove", level=2, pos=0)
    data = to_json(st)
    assert data["format"] == FORMAT and data["players"][0]["removals"] == [5]
    assert to_json(from_json(data)) == data


def test_a_game_stored_in_format_1_keeps_its_pending_removals():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
    st.rules = 1  # format 1 was written under rules 1 alone
    act(st, 0, "remove", level=2, pos=0)
    act(st, 0, "pass")
    stored = _as_format_1(to_json(st))
    assert stored["players"][0]["picks"] == [5]

    loaded = from_json(stored)

    assert loaded.players[0].removals == [5] and loaded.players[0].picks == []
    assert loaded.players[0].done and to_json(loaded) == to_json(st)


def test_a_game_stored_in_format_2_knows_no_hand_card():
    st = build(players=[{"hand": [5, 6]}, {}], phase=2)
    st.players[0].known = [6]
    stored = _as_format_2(to_json(st))

    loaded = from_json(stored)

    assert loaded.players[0].known == [] and loaded.players[0].hand == [5, 6]
    st.players[0].known = []
    assert to_json(loaded) == to_json(st)


def test_a_game_stored_in_format_4_lets_its_last_seat_undo():
    st = build(players=[{"hand": [5, 6]}, {"hand": [7]}, {}], phase=2)
    act(st, 1, "pass")
    act(st, 0, "pass")
    assert st.undoable == [0, 1]
    stored = _as_format_4(to_json(st))
    assert "undoable" not in stored

    loaded = from_json(stored)

    assert loaded.undoable == [0]
    with pytest.raises(ValueError):
        from_json({**stored, "undoable": [0]})  # a field format 4 did not have


@pytest.mark.parametrize("known", [[7], [5, 5]])
def test_a_known_card_is_a_card_of_the_hand_once(known):
    st = build(players=[{"hand": [5, 6]}, {}], phase=2)
    st.players[0].known = known
    with pytest.raises(ValueError, match="known hand cards"):
        from_json(to_json(st))


@pytest.mark.parametrize(("fmt", "rules"), [(1, 1), (2, 2), (3, 2)])
def test_an_old_snapshot_is_played_under_the_rules_it_was_written_under(fmt, rules):
    st = build(players=[{"hand": [5, 6]}, {}], phase=2)
    st.rules = rules
    stored = FORMATS.project(to_json(st), fmt)
    assert stored["format"] == fmt and "rules" not in stored

    assert from_json(stored).rules == rules


@pytest.mark.parametrize("fmt", [1, 2, 3])
def test_each_old_format_comes_back_through_its_upgraders(fmt):
    st = build(players=[{"cells": {(2, 0): "rm"}, "hand": [5, 6]}, {}], phase=2)
    st.rules = 1
    act(st, 0, "remove", level=2, pos=0)
    stored = FORMATS.project(to_json(st), fmt)

    again = FORMATS.project(FORMATS.upgrade(stored), fmt)

    assert again == stored


def test_an_unknown_format_or_rules_version_is_refused():
    data = to_json(build(players=[{}, {}], phase=2))
    with pytest.raises(ValueError, match="unknown state format"):
        from_json({**data, "format": FORMAT + 1})
    with pytest.raises(ValueError, match="no rules version"):
        from_json({**data, "rules": 3})
    with pytest.raises(ValueError, match="has no rules version"):
        from_json({**FORMATS.project(data, 3), "rules": 2})
