"""Issue 49: computer seats leave a position that repeats without progress (``stall``).

The position is the arena's (seed 2, game 109): one seat with 14 cards and only the
Master's place open, whose one uncovered worker is a Scholar on level 4, three tokens in
its Renaissance Man area and a hand of four Merchants (whose token it holds: TEACH cannot
use them; they fit the Master, but nothing lets it HIRE); the other stuck at 10 cards the
same way. Both pass and keep their hands: the refill draws nothing, and the next round is
the same one again, for ever, unless a computer seat changes its ways."""

from __future__ import annotations

import random

import pytest

from games.renaissance import bot, engine, random_player, search, stall
from games.renaissance.builder import build
from games.renaissance.cards import NEED_R, OFFER_L, TYPE, TYPES
from games.renaissance.formats import FORMATS
from games.renaissance.positions import from_json, to_json

from .helpers import act, card

SCHOLARS = [card("scholar"), card("scholar", skip=[card("scholar")])]


def merchants(count: int, skip: set[int], needs_right: int | None = None) -> list[int]:
    found = [
        c
        for c in range(96)
        if TYPES[TYPE[c]] == "merchant"
        and needs_right in (None, NEED_R[c])
        and c not in skip
        and c not in SCHOLARS
    ]
    return found[:count]


def the_issue(idle: int, seed: int = 0):
    top, other = SCHOLARS
    ann = merchants(4, set(), OFFER_L[top])  # they fit the Master: its left corner is wild
    bob = merchants(4, set(ann))  # they fit above his Renaissance Men
    rms = {(2, k): "rm" for k in range(4)}
    return build(
        players=[
            {
                "cells": {**rms, **{(3, k): "rm" for k in range(3)}, (4, 0): "rm", (4, 1): top},
                "rm_tokens": ["coin", "book", "shield"],
                "hand": ann,
                "idle": idle,
            },
            {
                "cells": {**rms, (3, 0): other},
                "rm_tokens": ["coin", "book", "shield"],
                "hand": bob,
                "idle": idle,
            },
        ],
        stage="discard",
        phase=4,
        round=40,
        seed=seed,
    )


def strong(st, seat, rand):
    return search.choose(st, seat, rand, iterations=30)


LEVELS = {"easy": random_player.choose, "normal": bot.choose, "strong": strong}


def play_rounds(st, choose, rounds: int, seed: int = 1) -> list[list[list[int]]]:
    """Both seats played by ``choose`` for ``rounds`` rounds or to the end; each seat's
    hand at the start of every round."""
    rand = random.Random(seed)
    hands = []
    end = st.round + rounds
    while st.stage != "over" and st.round < end:
        r = st.round
        seat = min(engine.deciders(st))
        engine.apply(st, seat, choose(st, seat, rand))
        if st.round != r:
            hands.append([sorted(p.hand) for p in st.players])
    return hands


def test_the_position_repeats_until_the_seats_are_stalled_then_the_game_ends():
    st = the_issue(idle=0)
    start = [sorted(p.hand) for p in st.players]

    hands = play_rounds(st, bot.choose, stall.STALL_ROUNDS)

    # Nothing changes while the seats are not yet stalled: the same round, again and again.
    assert hands == [start] * stall.STALL_ROUNDS
    assert [p.idle for p in st.players] == [stall.STALL_ROUNDS] * 2

    play_rounds(st, bot.choose, 30)

    assert st.stage == "over"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_stalled_seat_of_every_level_leaves_the_position(level):
    st = the_issue(idle=stall.STALL_ROUNDS)

    play_rounds(st, LEVELS[level], 40)

    assert st.stage == "over"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_stalled_seat_discards_at_least_one_card(level):
    st = the_issue(idle=stall.STALL_ROUNDS)
    rand = random.Random(2)
    for seat in (0, 1):
        action = LEVELS[level](st, seat, rand)
        assert action["kind"] == "discard"
        assert {"kind": "done"} not in stall.escape(st, seat, engine.legal_actions(st, seat))


def test_a_seat_making_progress_may_keep_its_hand():
    st = the_issue(idle=stall.STALL_ROUNDS - 1)
    assert bot.choose(st, 0, random.Random(2)) == {"kind": "done"}


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_long_stalled_seat_that_cannot_hire_removes_until_it_can(level):
    # Its Merchant and its Scholar are covered by Renaissance Men; removing the one above
    # the Scholar gives TEACH back, and its next Renaissance Man went back there, for ever
    # (the arena's normal seat). Stalled that long, it goes on until a Merchant is free.
    st = build(
        players=[
            {
                "cells": {
                    (2, 0): card("scholar", needs=("coin", "book")),
                    (2, 1): card("merchant", needs=("book", "bread")),
                    (2, 2): "rm",
                    (2, 3): "rm",
                    (3, 0): "rm",
                    (3, 1): "rm",
                },
                "idle": stall.DIG_ROUNDS,
            },
            {},
        ],
        phase=1,
    )
    assert stall.stuck(st, 0) and not stall.can_hire(st, 0)
    removed = []
    while (action := LEVELS[level](st, 0, random.Random(1)))["kind"] == "remove":
        removed.append((action["level"], action["pos"]))
        act(st, 0, "remove", level=action["level"], pos=action["pos"])

    assert sorted(removed) == [(3, 0), (3, 1)]
    assert stall.can_hire(st, 0)


def test_the_engine_counts_rounds_without_a_new_best():
    st = the_issue(idle=3)
    st.players[1].best -= 1  # Bob's structure holds more than ever: progress
    act(st, 0, "done")
    act(st, 1, "done")

    assert st.stage == "action" and st.round == 41
    assert [p.idle for p in st.players] == [4, 0]
    assert [p.best for p in st.players] == [14, 10]


def test_a_state_stored_before_progress_was_counted_starts_counting_now():
    data = to_json(the_issue(idle=5))
    old = FORMATS.project(data, 5)
    assert "idle" not in old["players"][0]

    loaded = from_json(old)

    assert [(p.best, p.idle) for p in loaded.players] == [(14, 0), (10, 0)]
