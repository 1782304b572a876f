"""An action is accepted exactly when it is listed, and a refused one changes nothing."""

import random

import pytest

from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.cards import FOUNDATION, ICONS
from games.renaissance.legal import ACTION_FIELDS
from games.renaissance.positions import to_json

from .games import random_game

VALUES = {
    "worker": [*FOUNDATION, "jester"],
    "source": ["worker", "token", "magic"],
    "return_token": [*ICONS, "gold"],
    "knight": ["supply", *ICONS, "horse"],
    "level": [0, 1, 2, 3, 4, 5, 6],
    "pos": [-1, 0, 1, 2, 3, 4],
}


def _variants(st, seat, listed: list[dict], rand: random.Random) -> list[dict]:
    """Actions near the listed ones: one field changed, or a kind's fields made up."""
    hand = st.players[seat].hand
    out = []
    for a in listed:
        for name in a:
            if name == "kind":
                continue
            b = dict(a)
            b[name] = (
                rand.choice(hand + [rand.randrange(96)])
                if name == "card"
                else rand.choice(VALUES[name])
            )
            out.append(b)
        if a["kind"] == "barter":
            b = dict(a)
            if "return_token" in b:
                del b["return_token"]
            else:
                b["return_token"] = rand.choice(ICONS)
            out.append(b)
    for kind, fields in ACTION_FIELDS.items():
        b = {"kind": kind}
        for name in fields:
            if name == "return_token":
                continue
            b[name] = (
                rand.choice(hand + [rand.randrange(96)])
                if name == "card"
                else rand.choice(VALUES[name])
            )
        out.append(b)
    return out


def test_an_action_is_accepted_exactly_when_listed():
    accepted = refused = 0
    for seed in range(10):
        rand = random.Random(seed)
        for move in random_game(seed, max_rounds=8):
            st = move.match.state
            if rand.random() > 0.3:
                continue
            for seat in st.seats:
                listed = engine.legal_actions(st, seat)
                for action in listed:
                    engine.apply(st.clone(), seat, action)  # never raises
                    accepted += 1
                before = to_json(st)
                for action in _variants(st, seat, listed, rand):
                    if action in listed:
                        continue
                    copy = st.clone()
                    with pytest.raises(IllegalAction):
                        engine.apply(copy, seat, action)
                    assert to_json(copy) == before, action
                    refused += 1
    assert accepted > 1000 and refused > 1000


def test_every_decider_has_a_legal_action_and_every_listed_seat_is_involved():
    for seed in range(10):
        for move in random_game(seed, max_rounds=10):
            st = move.match.state
            for seat in engine.deciders(st):
                assert engine.legal_actions(st, seat), (seat, st.stage)
