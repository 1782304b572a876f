"""The move log speaks the board's words: worker types by their names ("Merchant",
"Renaissance Man"), places as "level 2, place 1"; never the engine's identifiers ("rm",
"merchant") that the log once showed ("Foundations revealed: Bob: merchant, ..., rm")."""

from __future__ import annotations

import re

from games.renaissance.kind import RENAISSANCE as GAME

from .games import new_match, random_game

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
