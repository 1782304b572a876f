"""Renaissance Man's OpenAPI components (``api_schema``, derived from ``view_types``) against
the engine: every view of random games and every legal action fit them, read as strict
OpenAPI 3.0 (openapi-core's validator, for which ``nullable`` admits null only beside a
``type``), and with every object closed, so that a view field the types forgot fails."""

from __future__ import annotations

import copy
import json
from collections import Counter
from functools import cache
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator

from games.renaissance.api_schema import ACTION_EXAMPLES, api_components, kinds
from games.renaissance.game import RENAISSANCE as GAME

from .games import random_game


def _closed(node: Any) -> Any:
    """Every object of the components refuses the properties it does not list."""
    if isinstance(node, list):
        return [_closed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _closed(v) for k, v in node.items()}
    if "properties" in out:
        out.setdefault("additionalProperties", False)
    return out


@cache
def validator(name: str, closed: bool = True) -> OAS30Validator:
    schemas = copy.deepcopy(api_components())
    if closed:
        schemas = _closed(schemas)
    root = {"components": {"schemas": schemas}, "$ref": f"#/components/schemas/{name}"}
    return OAS30Validator(root)


def errors(name: str, data: Any) -> list[str]:
    found = validator(name).iter_errors(json.loads(json.dumps(data)))
    return [f"{list(e.absolute_path)}: {e.message}" for e in found]


class TestRandomGames:
    @pytest.mark.parametrize("players", [1, 2, 3, 4])
    def test_every_view_and_legal_action_fits(self, players):
        stages: Counter[str] = Counter()
        checked: set[str] = set()
        for seed in range(2):
            for n, move in enumerate(random_game(100 * players + seed, players, max_rounds=10)):
                st = move.match.state
                # Views take a millisecond or two to check: every 8th, and the rarer stages.
                if n % 8 and st.stage in stages and st.stage in ("action", "discard"):
                    continue
                stages[st.stage] += 1
                for viewer in (None, *st.seats):
                    view = GAME.view(st, viewer)
                    assert not errors("RenaissanceView", view), (n, viewer, errors("View", view))
                    for action in view["legal_actions"]:
                        text = json.dumps(action, sort_keys=True)
                        if text not in checked:
                            checked.add(text)
                            assert not errors("RenaissanceAction", action), action
        assert {"foundation", "action", "discard"} <= set(stages), stages

    def test_views_of_every_stage_and_a_finished_game(self):
        stages: set[str] = set()
        for seed in range(40):
            for move in random_game(seed, 2):
                st = move.match.state
                if st.stage in stages and st.stage != "over":
                    continue
                stages.add(st.stage)
                for viewer in (None, *st.seats):
                    view = GAME.view(st, viewer)
                    assert not errors("RenaissanceView", view), (st.stage, viewer)
            if stages >= {"foundation", "action", "rm", "recruit", "discard", "over"}:
                break
        assert stages == {"foundation", "action", "rm", "recruit", "discard", "over"}


class TestTheSchema:
    def test_every_action_kind_and_example(self):
        union = api_components()["RenaissanceAction"]
        assert set(union["discriminator"]["mapping"]) == set(kinds())
        assert set(ACTION_EXAMPLES) == set(kinds())
        for example in ACTION_EXAMPLES.values():
            assert not errors("RenaissanceAction", example), example

    def test_it_refuses_what_the_engine_refuses(self):
        for action in (
            {"kind": "hire"},
            {"kind": "hire", "card": "7", "source": "worker", "level": 2, "pos": 0},
            {"kind": "pass", "extra": 1},
            {"kind": "teleport"},
            {"kind": "remove", "level": 6, "pos": 0},
            {"kind": "foundation", "worker": "wizard"},
            {"kind": "recruit", "card": 3, "source": "worker", "knight": "sword"},
        ):
            assert errors("RenaissanceAction", action), action

    def test_nullable_values_admit_null_and_nothing_else(self):
        # The hand-written schema's recruit_area enum had no null: a strict client raised on
        # every game. Null must pass each nullable field, and a wrong value still fail.
        view = GAME.view(next(iter(random_game(1, 2))).match.state, 0)
        assert view["recruit_area"] is None and view["revealed"] is None
        assert not errors("RenaissanceView", view)
        assert errors("RenaissanceView", {**view, "recruit_area": "sword"})
        board = [{**area, "card": None} for area in view["recruit_board"]]
        assert not errors("RenaissanceView", {**view, "recruit_board": board})
        board = [{**area, "card": {"face_down": True}} for area in view["recruit_board"]]
        assert errors("RenaissanceView", {**view, "recruit_board": board})
        assert errors("RenaissanceView", {**view, "decision": 3})
