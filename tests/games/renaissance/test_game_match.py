"""The platform's side: replay through games.core.Match, undo, who waits, JSON positions."""

import json

import pytest

from games.core import IllegalAction, Match
from games.core.waits import Waits
from games.renaissance.builder import build
from games.renaissance.game import RENAISSANCE as GAME
from games.renaissance.positions import from_json, to_json

from .games import new_match, random_game


def set_foundations(match, seats):
    for seat in seats:
        for worker in ("merchant", "scholar", "baker", "knight"):
            match.apply({"kind": "foundation", "worker": worker}, seat)


def test_random_games_replay_from_the_record_and_round_trip():
    for seed in range(12):
        moves = list(random_game(seed, max_rounds=40))
        match = moves[-1].match
        st = match.state
        assert match.replayed() == st
        data = json.loads(json.dumps(GAME.to_json(st)))
        assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(st)
        if GAME.phase(st) == "over":
            result = GAME.result(st)
            assert sorted(r["seat"] for r in result) == list(st.seats)
            assert all(set(r) == {"seat", "rank", "score"} for r in result)


def test_undo_takes_back_an_unrevealed_pick_of_ones_own():
    match = new_match(players=2)
    match.apply({"kind": "foundation", "worker": "rm"}, 0)
    assert GAME.can_undo(match.state, 0) and not GAME.can_undo(match.state, 1)
    assert GAME.view(match.state, 0)["can_undo"]
    match.apply({"kind": "undo"}, 0)
    assert match.state.players[0].picks == []
    assert match.replayed() == match.state


def test_another_seats_pick_takes_nobodys_undo_away():
    # Whether Ann may take back her pick may not tell her that Bob picked meanwhile.
    match = new_match(players=3)
    match.apply({"kind": "foundation", "worker": "rm"}, 0)
    match.apply({"kind": "foundation", "worker": "rm"}, 1)
    match.apply({"kind": "foundation", "worker": "merchant"}, 1)
    assert GAME.can_undo(match.state, 0) and GAME.can_undo(match.state, 1)
    assert not GAME.can_undo(match.state, 2)
    match.apply({"kind": "undo"}, 0)  # Ann's pick, made before Bob's two
    assert match.state.players[0].picks == [] and match.state.players[1].picks == [4, 0]
    assert not GAME.can_undo(match.state, 0) and GAME.can_undo(match.state, 1)
    assert match.replayed() == match.state
    match.apply({"kind": "undo"}, 1)
    assert match.state.players[1].picks == [4]
    assert match.replayed() == match.state
    resumed = Match.resume(GAME, match.options, match.names, match.seed, match.state, match.record)
    resumed.apply({"kind": "undo"}, 1)  # rebuilt from the record, with the undos in it
    assert resumed.state.players[1].picks == []
    with pytest.raises(IllegalAction) as caught:
        resumed.apply({"kind": "undo"}, 0)
    assert caught.value.rule == "undo_not_allowed"


def test_no_undo_of_a_submission_that_revealed_everything():
    match = new_match(players=2)
    set_foundations(match, [0, 1])
    assert match.state.stage == "action"
    assert not GAME.can_undo(match.state, 1) and not GAME.can_undo(match.state, 0)


def test_undo_of_a_removal_and_of_a_choice_inside_a_phase():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=2)
    match = Match.resume(GAME, GAME.parse_options(None, 2), ["Ann", "Bob"], 1, st)
    match._before = []  # follow undo from here (a snapshot without a record)
    match.apply({"kind": "remove", "level": 2, "pos": 0}, 0)
    match.apply({"kind": "pass"}, 0)
    assert GAME.can_undo(match.state, 0)
    match.apply({"kind": "undo"}, 0)
    assert match.state.players[0].removals == [5] and not match.state.players[0].done
    match.apply({"kind": "undo"}, 0)
    assert match.state.players[0].removals == []


def test_the_step_changes_at_every_new_simultaneous_step_only():
    match = new_match(players=3)
    waits = Waits(GAME, match.state)
    step = GAME.step(match.state)
    match.apply({"kind": "foundation", "worker": "rm"}, 0)
    waits.after(match.state, 0)
    assert GAME.step(match.state) == step and not waits.seat(1).restarted
    set_foundations(match, [1, 2])
    for w in ("merchant", "scholar", "baker"):
        match.apply({"kind": "foundation", "worker": w}, 0)
    waits.after(match.state, 0)
    assert GAME.step(match.state) != step
    assert all(waits.seat(q).restarted for q in range(3))


def test_a_broken_position_is_refused_naming_the_problem():
    st = build(players=[{"hand": [3, 4]}, {}])
    good = to_json(st)
    assert to_json(from_json(good)) == good

    def broken(change) -> str:
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(ValueError) as caught:
            from_json(data)
        return str(caught.value)

    assert "a card is both in the deck" in broken(lambda d: d["deck"].append(3))
    assert "nowhere" in broken(lambda d: d["deck"].pop())
    assert "foundation" in broken(lambda d: d["players"][0]["cells"].__setitem__(0, 101))
    assert "Knights" in broken(lambda d: d["players"][1].__setitem__("supply", 3))
    assert "exactly the fields" in broken(lambda d: d.pop("rng"))
    assert "exactly the fields" in broken(lambda d: d.__setitem__("seen", []))
    assert "exactly the fields" in broken(lambda d: d["players"][1].pop("idle"))
    assert "exactly the fields" in broken(lambda d: d["players"][0].__setitem__("peek", 1))
    assert "Stored Actions" in broken(
        lambda d: d["players"][0].__setitem__("stored", [0, 0, 0, 0, 0])
    )
    assert "rests on nothing" in broken(
        lambda d: d["players"][0]["cells"].__setitem__(9, d["deck"].pop())
    )
    assert "list of ints" in broken(lambda d: d.__setitem__("deck", "abc"))
    assert "not a deck card" in broken(lambda d: d["discard"].append(200))
    assert "RM area" in broken(lambda d: d["players"][0].__setitem__("rm_tokens", [1, 1]))
    assert "pending" in broken(lambda d: d["players"][0].__setitem__("picks", [3]))
    # Foundation cards: only on their owner's level 1, each once.
    assert "not a deck card" in broken(lambda d: d["players"][0]["hand"].append(97))
    assert "level 1" in broken(lambda d: d["players"][0]["cells"].__setitem__(1, 96))
    assert "level 1" in broken(lambda d: d["players"][1]["cells"].__setitem__(0, 96))
