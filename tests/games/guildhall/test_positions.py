"""Positions: a full state to and from JSON, checked on loading."""

import json

import pytest

from games.guildhall import PositionError, from_json, to_json
from games.guildhall.builder import build


def base():
    return to_json(
        build(
            players=[
                {"hand": ["red weaver"], "guildhall": ["blue weaver"]},
                {"completed": ["farmer"]},
            ]
        )
    )


def test_round_trip():
    data = base()
    assert to_json(from_json(json.loads(json.dumps(data)))) == data


def broken(change):
    data = base()
    change(data)
    with pytest.raises(PositionError) as e:
        from_json(data)
    return str(e.value)


def test_a_missing_card_is_named():
    assert "missing" in broken(lambda d: d["deck"].pop())


def test_a_card_in_two_places_is_named():
    def twice(d):
        d["players"][1]["hand"].append(d["players"][0]["hand"][0])

    assert "both in player 0's hand and in player 1's hand" in broken(twice)


def test_a_duplicate_in_a_guildhall_is_refused():
    def dup(d):
        blue = d["players"][0]["guildhall"][0]
        twin = blue ^ 1  # another copy of the same identity
        for where in (d["deck"], d["discard"]):
            if twin in where:
                where.remove(twin)
        d["players"][0]["guildhall"].append(twin)

    assert "duplicate" in broken(dup)


def test_a_bad_completed_chapter_is_refused():
    def bad(d):
        chapter = d["players"][1]["completed"][0]
        d["deck"].append(chapter.pop())

    assert "not 5 colors" in broken(bad)


def test_vp_cards_must_match_the_player_count():
    def extra(d):
        d["players"][0]["vp_cards"].append(29)

    assert "VP" in broken(extra)


def test_malformed_positions():
    assert "format" in broken(lambda d: d.update(format=9))
    assert "center" in broken(lambda d: d.update(center=[None]))
    assert "seat" in broken(lambda d: d.update(current=5))
    assert broken(lambda d: d["players"][0].update(hand="7"))
    assert broken(lambda d: d.pop("frames"))
    with pytest.raises(PositionError):
        from_json([1, 2])


def test_a_game_resigned_during_setup_reads_back():
    from games.guildhall import Options, apply, new_game

    st = new_game(Options(players=2), ["Ann", "Bob"], 3)
    apply(st, {"kind": "resign"}, player=0)
    assert st.phase == "over"
    data = to_json(st)
    assert to_json(from_json(json.loads(json.dumps(data)))) == data
