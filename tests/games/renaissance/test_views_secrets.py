"""RENAISSANCE.md 5, information: what every view and log line may show. Over many random
games, every other seat's view and log lines are the same whatever the hidden parts are
(deck order, discard pile, other hands, face-down faces, other seats' unrevealed
submissions, the generator), and the computer players choose the same."""

import json
import random

from games.renaissance import bot, random_player
from games.renaissance.builder import build
from games.renaissance.game import RENAISSANCE as GAME
from games.renaissance.views import view

from .games import hide_events, others_hidden, random_game
from .helpers import act, card


def test_no_view_or_log_line_depends_on_what_the_viewer_may_not_know():
    changed = checked = 0
    for seed in range(24):
        rand = random.Random(seed)
        for move in random_game(seed, max_rounds=10):
            st = move.match.state
            for viewer in [None, *st.seats]:
                hidden = others_hidden(st, viewer, rand)
                changed += GAME.to_json(hidden) != GAME.to_json(st)
                seen = GAME.view(st, viewer)
                assert seen == GAME.view(hidden, viewer), (seed, viewer, move.action)
                said = GAME.describe(st, move.events, viewer)
                other_events = hide_events(move.events, viewer, rand)
                assert said == GAME.describe(hidden, other_events, viewer)
                checked += 1
    assert changed > checked // 2  # the perturbation did hide something


def test_the_computer_players_read_no_secret():
    for seed in range(8):
        rand = random.Random(100 + seed)
        for move in random_game(seed, max_rounds=5):
            st = move.match.state
            for seat in sorted(GAME.deciders(st)):
                hidden = others_hidden(st, seat, rand)
                for player in (bot.choose, random_player.choose):
                    assert player(st, seat, random.Random(seed)) == player(
                        hidden, seat, random.Random(seed)
                    )


def test_views_are_json_and_hold_no_secret_field():
    for move in random_game(3, players=3, max_rounds=3):
        st = move.match.state
        for viewer in [None, *st.seats]:
            seen = GAME.view(st, viewer)
            assert json.loads(json.dumps(seen)) == seen
            text = json.dumps(seen)
            assert '"rng"' not in text and '"deck":' not in text and '"picks"' not in text
            assert set(seen) >= {"phase", "viewer", "legal_actions", "can_undo", "decision"}
            if viewer is None:
                assert seen["hand"] is None and seen["legal_actions"] == []


def test_who_has_submitted_is_public_but_not_what():
    merchant = card("merchant", needs=("coin", "book"))
    st = build(players=[{"hand": [merchant]}, {"hand": [card("baker")]}])
    act(st, 0, "hire", card=merchant, source="worker", level=2, pos=0)
    mine, theirs = view(st, 0), view(st, 1)
    assert [p["submitted"] for p in theirs["players"]] == [True, False]
    assert (
        theirs["decision"]["choice"] is None
        and mine["decision"]["choice"]["card"]["id"] == merchant
    )
    assert theirs["players"][0]["structure"][1][0] is None  # not placed before the reveal
    assert theirs["revealed"] is None


def test_a_face_down_card_shows_its_face_to_nobody():
    st = build(players=[{"cells": {(2, 0): "rm"}}, {}])
    face = st.players[0].cells[5]
    for viewer in (None, 0, 1):
        seen = view(st, viewer)
        assert seen["players"][0]["structure"][1][0] == {"face_down": True}
        assert f'"id": {face},' not in json.dumps(seen["players"])


def test_the_reveal_names_every_submission():
    merchant = card("merchant", needs=("coin", "book"))
    baker = card("baker")
    st = build(players=[{"hand": [merchant]}, {"hand": [baker]}])
    first = act(st, 0, "hire", card=merchant, source="worker", level=2, pos=0)
    assert GAME.describe(st, first, 1) == ["Ann has chosen"]
    assert GAME.describe(st, first, 0)[0].startswith("Ann (you) chose: HIRE: Merchant")
    events = act(st, 1, "barter", card=baker, source="worker")
    line = GAME.describe(st, events, None)[1]
    assert line.startswith("Action phase 1 revealed: Ann: HIRE: Merchant")
    assert "Bob: BARTER: Baker" in line and "for a bread token" in line
