"""The computer players: they end games, the better one beats random play, and it prefers
buildable hires and winnable recruits. (That neither reads a secret: test_views_secrets.py.)"""

import random

from games.renaissance import bot, engine, pyramid, random_player
from games.renaissance.builder import build
from games.renaissance.cards import NEED_L, NEED_R, OFFER_L, OFFER_R, TYPE

from .helpers import card, legal


def play(players, seed, choosers):
    st = engine.new_game(None, ["Ann", "Bob", "Cid", "Dee"][:players], seed)
    rand = random.Random(seed)
    while st.stage != "over" and st.round < 200:
        seat = min(engine.deciders(st))
        engine.apply(st, seat, choosers[seat](st, seat, rand))
    return st


def test_random_players_finish_their_games():
    for seed in range(6):
        st = play(3, seed, [random_player.choose] * 3)
        assert st.stage == "over"


def test_the_bot_beats_random_play():
    wins = 0
    for seed in range(10):
        st = play(2, seed, [bot.choose, random_player.choose])
        assert st.stage == "over"
        wins += st.result[0]["seat"] == 0 and st.result[0]["rank"] == 1
    assert wins >= 8


def test_buildability_counts_how_fillable_the_open_positions_are():
    st = build(players=[{}])
    p = st.players[0]
    everything = list(range(96))
    # Level 2 of the default foundation: 3 typed pairs (6 cards each) and one half-wild.
    assert bot.buildability(p.cells, p.down, everything) == (6 + 6 + 6 + 24) / 96 * 3
    none = [c for c in everything if not pyramid.fitting(p.cells, p.down, c)]
    assert bot.buildability(p.cells, p.down, none) == 0  # every position is dead


def test_the_bot_prefers_the_hire_that_keeps_the_pyramid_buildable():
    # (2, 1) is a face-down RM: a card hired at (2, 0) opens (3, 0), half wild; one hired
    # at (2, 3) opens nothing.
    left = card(needs=("coin", "book"))
    right = card(needs=("shield", None), skip=[left])
    st = build(players=[{"cells": {(2, 1): "rm"}, "hand": [left, right]}])
    hires = legal(st, 0, "hire")
    assert {(a["card"], a["level"], a["pos"]) for a in hires} >= {(left, 2, 0), (right, 2, 3)}
    choice = bot.choose(st, 0, random.Random(1))
    assert (choice["kind"], choice["card"]) == ("hire", left)


def test_the_bot_recruits_where_its_knight_makes_a_majority():
    knight = next(
        c
        for c in range(96)
        if TYPE[c] == 3 and (NEED_L[c], NEED_R[c]) == (0, 1)  # a Knight for (2, 0)
    )
    merchant, scholar = card("merchant", skip=[knight]), card("scholar", skip=[knight])
    st = build(
        players=[
            {"cells": {(2, 0): knight}, "hand": [merchant, scholar]},
            {"knights": {"coin": 1}},
        ],
        phase=2,
    )
    assert {a["kind"] for a in legal(st, 0)} == {"recruit", "remove", "pass"}
    choice = bot.choose(st, 0, random.Random(1))
    assert choice["kind"] == "recruit" and choice["card"] == scholar  # the empty book area
    assert OFFER_L and OFFER_R  # the corners the Knight offers do not matter here
