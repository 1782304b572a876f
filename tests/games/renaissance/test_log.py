"""The move log speaks the board's words: worker types by their names ("Merchant",
"Renaissance Man"), places as "level 2, place 1"; never the engine's identifiers ("rm",
"merchant") that the log once showed ("Foundations revealed: Bob: merchant, ..., rm")."""

from __future__ import annotations

import re

from games.renaissance.builder import build
from games.renaissance.cards import card_name
from games.renaissance.game import RENAISSANCE as GAME

from .games import new_match, random_game
from .helpers import act, card

# The engine's names of worker types and foundation cards, as whole lowercase words.
IDENTIFIERS = re.compile(r"\b(merchant|scholar|baker|knight|rm|face_down|None)\b")


def test_the_foundation_is_told_with_the_boards_words():
    match = new_match(players=2)
    events = match.apply({"kind": "foundation", "worker": "rm"}, 0)
    assert GAME.describe(match.state, events, 0) == [
        "Ann (you) put the Renaissance Man next in the foundation"
    ]
    assert GAME.describe(match.state, events, 1) == []  # secret: nothing to tell yet
    for worker in ("knight", "merchant"):
        match.apply({"kind": "foundation", "worker": worker}, 0)
    events = match.apply({"kind": "foundation", "worker": "baker"}, 0)  # the 5th goes too
    assert GAME.describe(match.state, events, 0) == [
        "Ann (you) put the Baker next in the foundation: it is set"
    ]
    assert GAME.describe(match.state, events, 1) == ["Ann has chosen"]
    for worker in ("merchant", "scholar", "baker", "knight"):
        events = match.apply({"kind": "foundation", "worker": worker}, 1)
    lines = GAME.describe(match.state, events, 1)
    assert lines[0] == "Bob (you) put the Knight next in the foundation: it is set"
    assert lines[1] == (
        "Foundations revealed, left to right: Ann: Renaissance Man, Knight, Merchant, Baker, "
        "Scholar; Bob (you): Merchant, Scholar, Baker, Knight, Renaissance Man"
    )


def test_no_line_of_random_games_shows_an_identifier():
    lines = 0
    for seed in range(6):
        for move in random_game(seed, max_rounds=8):
            st = move.match.state
            for viewer in (None, *st.seats):
                for line in GAME.describe(st, move.events, viewer):
                    assert not IDENTIFIERS.search(line), line
                    assert "position" not in line, line  # the board says "place"
                    lines += 1
    assert lines > 1000


def test_removals_outside_the_action_phases_are_told():
    knight = card("knight", needs=("coin", "book"))
    foundation = "merchant scholar baker knight rm"
    # The Recruit winner's removal is made at once, for all to read.
    prize = card("merchant", needs=("coin", "book"), skip=(knight,))
    st = build(
        players=[
            {"foundation": foundation, "cells": {(2, 0): knight}, "knights": {"coin": 1}},
            {},
        ],
        recruit=[prize, None, None, None],
    )
    for _phase in (1, 2):  # a card on level 2 calls phase 2
        act(st, 0, "pass")
        act(st, 1, "pass")
    events = act(st, 0, "remove", level=2, pos=0)
    assert GAME.describe(st, events, 1) == [
        f"Ann removed Knight ({_corners(knight)}) from level 2, place 1"
    ]
    # In the discard step it is secret until the discards are revealed.
    st = build(
        players=[{"foundation": foundation, "cells": {(2, 0): knight}, "hand": [prize]}, {}],
        stage="discard",
        round=2,
    )
    events = act(st, 0, "remove", level=2, pos=0)
    assert GAME.describe(st, events, 0) == ["Ann (you) will remove the worker at level 2, place 1"]
    assert GAME.describe(st, events, 1) == []
    events = act(st, 0, "done")
    line = next(x for x in GAME.describe(st, events, 1) if x.startswith("Cards discarded"))
    assert line.startswith("Cards discarded: Ann 0, Bob (you) 0; first, Ann removed Knight (")
    assert line.endswith(") from level 2, place 1")


def _corners(c: int) -> str:
    return card_name(c).split("(", 1)[1].rstrip(")")
