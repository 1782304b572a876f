"""Real answers of the API about Renaissance Man games, checked against the served OpenAPI
schema by openapi-core, a strict OpenAPI 3.0 validator (for it ``nullable`` admits null only
beside a ``type``, as for the clients generated from the schema): the game, its legal actions
and its moves, for each seat and a spectator, in every stage of a game played to its end, and
the answers to the actions sent. (Every answer of a test client goes through openapi-core:
tests/conftest.py; here the view is also checked against RenaissanceView itself.)"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.models import Game
from games.play import invitations
from games.reads import viewing
from games.renaissance.game import RENAISSANCE
from tests.games.api_helpers import Api, game_url
from tests.games.api_validation import component, strict
from tests.games.helpers import start_game
from tests.games.notifications.helpers import InOrder
from tests.seeds import FixedSeed

STAGES = {"foundation", "action", "rm", "recruit", "discard", "over"}


@pytest.fixture(autouse=True)
def _setup(monkeypatch, settings):
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(20261126))  # the deal
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


def test_the_schema_is_valid_for_openapi_core():
    strict()  # openapi-spec-validator checks the document when it is loaded


def test_answers_of_every_stage_for_seats_and_a_spectator(alice, bob, charlie):
    game = start_game(alice, bob, kind="renaissance")
    people = {0: Api(alice), 1: Api(bob), None: Api(charlie)}
    rand = random.Random(3)
    checked: Counter[str] = Counter()
    seen: set[tuple[str, int | None]] = set()
    for _move in range(2000):
        game.refresh_from_db()
        state = viewing.game_state(game)
        stage = state.stage
        for viewer, api in people.items():
            # Every first view of a stage for each viewer, and every 10th version.
            if (stage, viewer) in seen and game.version % 10:
                continue
            seen.add((stage, viewer))
            for part in ("", "actions", "moves"):
                response = api.get(game_url(game.pk, part))
                assert response.status_code == 200, response.content
                checked[part or "game"] += 1
                if not part:
                    view = response.json()["view"]
                    assert view["stage"] == stage and view["viewer"] == viewer
                    errors = [e.message for e in component("RenaissanceView").iter_errors(view)]
                    assert not errors, errors[:3]
        if game.status == Game.Status.FINISHED:
            break
        seat = sorted(RENAISSANCE.deciders(state))[0]
        action = RENAISSANCE.choose(state, seat, rand)
        sent = people[seat].post(
            game_url(game.pk, "actions"), {"version": game.version, "action": action}
        )
        assert sent.status_code == 201, sent.json()
        checked["sent"] += 1
    assert game.status == Game.Status.FINISHED
    assert {stage for stage, _viewer in seen} == STAGES
    assert {viewer for _stage, viewer in seen} == {0, 1, None}
    assert min(checked.values()) >= 18, checked  # 6 stages x 3 viewers at least


def test_a_refused_action_and_a_stale_version_fit_too(alice, bob):
    game = start_game(alice, bob, kind="renaissance")
    api = Api(alice)
    wrong = api.post(game_url(game.pk, "actions"), {"version": 0, "action": {"kind": "pass"}})
    assert wrong.status_code == 400 and wrong.json()["rule"] == "wrong_decision"
    first = {"kind": "foundation", "worker": "rm"}
    stale = api.post(game_url(game.pk, "actions"), {"version": 7, "action": first})
    assert stale.status_code == 409 and stale.json()["version"] == 0
