"""Property tests: hundreds of random games (a thousand at full scale), invariants checked
after every action.

Random-legal play (with the engine's own random player) from hypothesis-chosen seeds,
player counts and rule sets. After every action: every card is in exactly one place and no
guildhall holds a duplicate (``positions.check``). In the full-check games also: the JSON
round trip gives the same state, a view never shows another hand, the deck or the seed,
and illegal actions are refused without changing anything; at the end, replaying the
record gives the same state. ``GUILDHALL_PROPERTY_GAMES`` scales the number of games.
"""

import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from games.guildhall import IllegalAction, Options, apply, from_json, legal_actions, to_json
from games.guildhall.engine import ACTION_FIELDS
from games.guildhall.match import Match
from games.guildhall.positions import check
from games.guildhall.random_player import choose
from games.guildhall.simulate import leaks
from games.guildhall.views import view

# The suite plays half of the games named below (its 20 minutes); GUILDHALL_PROPERTY_GAMES=1
# (or more) plays them all, and ``python -m games.guildhall simulate`` plays long runs.
SCALE = float(os.environ.get("GUILDHALL_PROPERTY_GAMES", "0.5"))
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

games = st_.fixed_dictionaries(
    {
        "seed": st_.integers(0, 2**64 - 1),
        "players": st_.sampled_from([2, 3, 4]),
        "rules": st_.sampled_from(["classic", "yucata"]),
        "advanced": st_.booleans(),
        "names": st_.sampled_from(["classic", "fantasy"]),
    }
)


def _settings(examples: int):
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        deadline=None,
        derandomize=CI,  # CI runs the same games every time
        suppress_health_check=[HealthCheck.too_slow],
        print_blob=True,
    )


def _options(g) -> Options:
    return Options(players=g["players"], rules=g["rules"], advanced=g["advanced"], names=g["names"])


def _names(n):
    return ["Ann", "Bob", "Cid", "Dee"][:n]


@_settings(1000)
@given(g=games)
def test_cards_are_conserved_and_guildhalls_never_hold_a_duplicate(g):
    match = Match(_options(g), _names(g["players"]), g["seed"])
    st = match.state
    rand = random.Random(g["seed"])
    while st.phase != "over" and st.turn <= 300:
        apply(st, choose(st, rand))
        check(st)  # raises PositionError naming the broken invariant


def _illegal_candidates(rand: random.Random) -> list[dict]:
    out = []
    for kind, fields in ACTION_FIELDS.items():
        if kind in ("undo", "resign"):
            continue
        action = {"kind": kind}
        for name, typ in fields.items():
            if typ is int:
                action[name] = rand.choice([rand.randrange(0, 120), -1, 10**6])
            else:
                action[name] = rand.choice(["trader", "weaver", "knight"])
        out.append(action)
    out.append({"kind": "play", "card": "1"})
    out.append({"kind": "nonsense"})
    return out


@_settings(150)
@given(g=games)
def test_every_invariant_after_every_action(g):
    match = Match(_options(g), _names(g["players"]), g["seed"])
    rand = random.Random(g["seed"] ^ 0x5EED)
    n = 0
    viewers = [None, *range(g["players"])]
    while match.state.phase != "over" and match.state.turn <= 200:
        st = match.state
        legal = legal_actions(st)
        assert legal, "a decision without any legal action"
        if n % 5 == 0:
            before = to_json(st)
            for action in rand.sample(_illegal_candidates(rand), 3):
                if action in legal:
                    continue
                try:
                    match.apply(action)
                except IllegalAction as e:
                    assert e.rule and e.message
                else:
                    raise AssertionError(f"illegal action accepted: {action}")
                assert to_json(match.state) == before
        staying = [q for q in range(g["players"]) if q not in st.resigned]
        if rand.random() < 0.003 and len(staying) > 1:
            match.apply({"kind": "resign"}, rand.choice(staying))  # at any moment, even setup
        else:
            match.apply(choose(st, rand, legal))
        n += 1
        st = match.state
        check(st)
        data = to_json(st)
        assert to_json(from_json(json.loads(json.dumps(data)))) == data
        viewer = viewers[n % len(viewers)]
        assert leaks(st, view(st, viewer), viewer) == []
    assert match.replayed() == match.state
