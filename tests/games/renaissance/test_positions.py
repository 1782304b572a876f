"""Stored states: the format of today, and games stored before pending removals had a list
of their own (format 1 kept an action phase's removals in ``picks``) or before the hand
cards every seat saw taken were kept (format 2)."""

import pytest

from games.renaissance.builder import build
from games.renaissance.positions import FORMAT, from_json, to_json

from .helpers import act


def _as_format_2(data: dict) -> dict:
    return {
        **data,
        "format": 2,
        "players": [{k: v for k, v in pd.items() if k != "known"} for pd in data["players"]],
    }


def _as_format_1(data: dict) -> dict:
    data = _as_format_2(data)
    old = {**data, "format": 1, "players": []}
    for pd in data["players"]:
        pd = dict(pd)
        removals = pd.pop("removals")
        if data["stage"] == "action":
            pd["picks"] = removals
        old["players"].append(pd)
    return old


def test_a_state_round_trips_in_todays_format():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
    act(st, 0, "remove", level=2, pos=0)
    data = to_json(st)
    assert data["format"] == FORMAT and data["players"][0]["removals"] == [5]
    assert to_json(from_json(data)) == data


def test_a_game_stored_in_format_1_keeps_its_pending_removals():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
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


@pytest.mark.parametrize("known", [[7], [5, 5]])
def test_a_known_card_is_a_card_of_the_hand_once(known):
    st = build(players=[{"hand": [5, 6]}, {}], phase=2)
    st.players[0].known = known
    with pytest.raises(ValueError, match="known hand cards"):
        from_json(to_json(st))
