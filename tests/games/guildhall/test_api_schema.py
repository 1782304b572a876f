"""Guildhall's OpenAPI components (``api_schema``) against the engine: every view of
seeded random games and every legal action fit them, and they refuse what is wrong."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from games.guildhall import Options, apply, decision, legal_actions, new_game
from games.guildhall.api_schema import (
    ACTION_EXAMPLES,
    ACTION_TEXT,
    FIELD_TYPES,
    action_examples,
    action_name,
    api_components,
)
from games.guildhall.builder import build
from games.guildhall.engine import ACTION_FIELDS, DECISION_ACTIONS, resign
from games.guildhall.random_player import choose
from games.guildhall.view_types import MAX_PLAYERS
from games.guildhall.views import view
from tests.games.guildhall.helpers import find

URI = "urn:guildhall-components"
ALL_OPTIONS = [
    Options(players=players, rules=rules, advanced=advanced, names=names)
    for players, rules, advanced, names in itertools.product(
        (2, 3, 4), ("classic", "yucata"), (False, True), ("classic", "fantasy")
    )
] + [
    # Everyone sets up at once: its views and its "keep" action.
    Options(players=players, rules=rules, setup="simultaneous")
    for players, rules in itertools.product((2, 3, 4), ("classic", "yucata"))
]


def _json_schema(node: Any, closed: bool) -> Any:
    """OpenAPI 3.0 as JSON Schema: ``nullable`` becomes ``anyOf`` with null. ``closed``
    also refuses properties an object does not list, so that a view field the types
    forgot fails the test (the published schema stays open for additions)."""
    if isinstance(node, list):
        return [_json_schema(x, closed) for x in node]
    if not isinstance(node, dict):
        return node
    dropped = ("nullable", "discriminator")
    out = {k: _json_schema(v, closed) for k, v in node.items() if k not in dropped}
    if closed and "properties" in out:
        out.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


@cache
def validator(name: str, closed: bool = True) -> Draft202012Validator:
    schemas = _json_schema(copy.deepcopy(api_components()), closed)
    doc = json.loads(json.dumps({"components": {"schemas": schemas}}))
    registry = Registry().with_resource(URI, DRAFT202012.create_resource(doc))
    return Draft202012Validator({"$ref": f"{URI}#/components/schemas/{name}"}, registry=registry)


def errors(name: str, data: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(name).iter_errors(data)]


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


class TestRandomGames:
    # What the games below met, for the last test (a test run in parallel skips it).
    decisions: set[str] = set()
    actions: set[str] = set()
    games: set[str] = set()

    @pytest.mark.parametrize("options", ALL_OPTIONS, ids=str)
    def test_every_view_and_legal_action_fits(self, options):
        rand = random.Random(f"api-schema {options}")
        names = [f"P{i}" for i in range(options.players)]
        st = new_game(options, names, seed=rand.getrandbits(63))
        seats = [None, *range(options.players)]
        views_of: Counter[str] = Counter()  # views checked, by decision kind
        checked: set[str] = set()  # actions checked (legal ones repeat a lot)
        for step in range(5000):
            kind = "over" if st.phase == "over" else decision(st)["kind"]
            # Views are slow to check (jsonschema: ms each): every so often, and at the
            # first decision of each kind.
            if step % 40 == 0 or kind not in views_of or kind == "over" or st.simultaneous:
                views_of[kind] += 1
                for seat in seats:
                    v = as_json(view(st, seat))
                    assert not errors("GuildhallView", v), (step, seat, errors("GuildhallView", v))
            if st.phase == "over":
                break
            legal = legal_actions(st)
            for action in legal:
                text = json.dumps(action, sort_keys=True)
                if text not in checked:
                    checked.add(text)
                    assert not errors("GuildhallAction", action), action
            apply(st, choose(st, rand, legal))
        assert st.phase == "over"
        self.decisions.update(views_of)
        self.actions.update(json.loads(text)["kind"] for text in checked)
        self.games.add(str(options))

    def test_the_games_met_every_decision_and_action(self):
        if self.games != {str(options) for options in ALL_OPTIONS}:
            pytest.skip("needs every random game above, in this process")
        # Random play never reaches the chapter limit: see test_the_chapter_limit.
        assert self.decisions == {*DECISION_ACTIONS, "over"} - {"discard_chapter"}
        assert self.actions == set(ACTION_FIELDS) - {"undo", "resign", "discard_chapter"}


def check_views(st) -> None:
    for seat in [None, *range(len(st.players))]:
        v = as_json(view(st, seat))
        assert not errors("GuildhallView", v), (seat, errors("GuildhallView", v))
        for action in v["legal_actions"]:
            assert not errors("GuildhallAction", action)


def test_the_chapter_limit():
    st = build(
        options=Options(rules="classic"),
        players=[
            {
                "guildhall": [
                    "red weaver",
                    "blue weaver",
                    "yellow weaver",
                    "green weaver",
                    "red farmer",
                ],
                "completed": ["farmer", "dancer", "trader"],
            },
            {"hand": ["red trader"], "guildhall": ["purple weaver"]},
        ],
        current=1,
    )
    for action in (
        {"kind": "play", "card": find(st.players[1].hand, "red trader")},
        {"kind": "use", "level": 0},
        {"kind": "pick", "card": st.players[1].guildhall[0]},
        {"kind": "pick", "card": find(st.players[0].guildhall, "red farmer")},
    ):
        apply(st, action)
        check_views(st)
    assert decision(st)["kind"] == "discard_chapter"
    apply(st, {"kind": "discard_chapter", "chapter": 0})
    while decision(st)["kind"] == "order":
        check_views(st)
        apply(st, legal_actions(st)[0])
    check_views(st)


def test_a_resigned_seat_in_the_result():
    rand = random.Random(3)
    st = new_game(Options(players=3), ["A", "B", "C"], seed=3)
    for _ in range(40):
        apply(st, choose(st, rand))
    resign(st, 1)
    while st.phase != "over":
        apply(st, choose(st, rand))
    check_views(st)
    assert view(st, None)["result"][-1] == {
        "seat": 1,
        "rank": 3,
        "vp": st.players[1].vp,
        "completed": len(st.players[1].completed),
        "resigned": True,
        "name": "B",
    }


@pytest.fixture(scope="module")
def a_view() -> dict:
    st = new_game(Options(players=3, rules="yucata"), ["A", "B", "C"], seed=7)
    rand = random.Random(7)
    for _ in range(60):
        apply(st, choose(st, rand))
    v = as_json(view(st, st.current))
    assert not errors("GuildhallView", v)
    return v


class TestStrictness:
    def mine(self, v: dict) -> dict:
        return next(p for p in v["players"] if p["seat"] == v["viewer"])

    def test_a_card_id_out_of_range(self, a_view):
        v = copy.deepcopy(a_view)
        self.mine(v)["hand"][0]["id"] = 120
        assert errors("GuildhallView", v)
        self.mine(v)["hand"][0]["id"] = -1
        assert errors("GuildhallView", v)

    @pytest.mark.parametrize("field", ["can_undo", "players", "decision", "result"])
    def test_a_missing_required_field(self, a_view, field):
        v = copy.deepcopy(a_view)
        del v[field]
        assert errors("GuildhallView", v)

    def test_a_missing_field_of_a_nested_object(self, a_view):
        v = copy.deepcopy(a_view)
        del self.mine(v)["hand"][0]["color"]
        assert errors("GuildhallView", v)

    @pytest.mark.parametrize(
        ("path", "value"),
        [
            (("phase",), "lunch"),
            (("viewer",), 4),
            (("options", "rules"), "house"),
            (("decision", "kind"), "sing"),
            (("decision", "player"), -1),
            (("legal_actions", 0, "level"), 5),
            (("center_row", 0, "id"), 30),
            (("center_row", 0, "kind"), "vp100"),
            (("players", 0, "guildhall", 0, "profession"), "pirate"),
            (("players", 1, "action_area"), None),
            (("unseen", 0, "color"), "black"),
            (("can_undo",), 1),
            (("turn",), -1),
        ],
    )
    def test_a_wrong_value(self, a_view, path, value):
        v = copy.deepcopy(a_view)
        *parents, last = path
        node = v
        for key in parents:
            node = node[key]
        assert last in node or isinstance(node, list), "the position lacks that field"
        node[last] = value
        assert errors("GuildhallView", v)

    def test_an_unknown_field_fails_the_closed_check_only(self, a_view):
        v = copy.deepcopy(a_view)
        v["seed"] = 1
        assert errors("GuildhallView", v)
        assert validator("GuildhallView", closed=False).is_valid(v)

    def test_spectators_and_null_fields(self, a_view):
        v = copy.deepcopy(a_view)
        v.update(viewer=None, decision=None, discard_top=None, legal_actions=[])
        v["center_row"][0] = None
        assert not errors("GuildhallView", v)

    @pytest.mark.parametrize(
        "action",
        [
            {"kind": "play"},
            {"kind": "play", "card": "7"},
            {"kind": "play", "card": 120},
            {"kind": "play", "card": 7, "extra": 1},
            {"kind": "teleport"},
            {"kind": "use", "level": True},
            {"kind": "use", "level": 5},
            {"kind": "buy", "vp": 30},
            {"kind": "target", "player": MAX_PLAYERS},
            {"kind": "pick_chapter", "player": 1, "profession": "pirate"},
            {"kind": "pay", "chapter": -1},
        ],
    )
    def test_actions_the_engine_refuses(self, action):
        assert errors("GuildhallAction", action)


class TestComponents:
    def test_names_are_prefixed_and_every_reference_resolves(self):
        components = api_components()
        assert all(name.startswith("Guildhall") for name in components)
        refs = set()

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                if "$ref" in node:
                    refs.add(node["$ref"].removeprefix("#/components/schemas/"))
                    assert set(node) == {"$ref"}, node  # OpenAPI 3.0 ignores siblings
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(components)
        assert refs <= set(components)
        assert {"GuildhallView", "GuildhallAction", "GuildhallCard"} <= refs | {"GuildhallView"}

    def test_it_is_valid_openapi(self):
        from drf_spectacular.validation import validate_schema

        validate_schema(
            {
                "openapi": "3.0.3",
                "info": {"title": "Guildhall", "version": "1"},
                "paths": {},
                "components": {"schemas": as_json(api_components())},
            }
        )

    def test_one_component_per_action_kind(self):
        components = api_components()
        action = components["GuildhallAction"]
        assert len(action["oneOf"]) == len(ACTION_FIELDS)
        assert set(action["discriminator"]["mapping"]) == set(ACTION_FIELDS)
        for kind, kinds in DECISION_ACTIONS.items():
            assert f"- `{kind}`: " + ", ".join(f"`{k}`" for k in kinds) in (action["description"])
        assert components[action_name("play")]["required"] == ["kind", "card"]
        assert components[action_name("use")]["required"] == ["kind"]
        assert action_name("pick_chapter") == "GuildhallActionPickChapter"

    def test_field_types_agree_with_the_engine(self):
        assert set(ACTION_TEXT) == set(ACTION_EXAMPLES) == set(ACTION_FIELDS)
        for fields in ACTION_FIELDS.values():
            for name, typ in fields.items():
                assert FIELD_TYPES[name].__origin__ is typ, name

    def test_examples_are_valid_actions(self):
        for example in [*ACTION_EXAMPLES.values(), *action_examples().values()]:
            assert not errors("GuildhallAction", example), example
        kinds = {a["kind"] for a in action_examples().values()}
        assert kinds == {"play", "use", "target", "pick_chapter", "buy", "end_turn", "undo"} | {
            "resign"
        }

    def test_the_seat_bound_is_the_options_bound(self):
        Options(players=MAX_PLAYERS)
        with pytest.raises(ValueError):
            Options(players=MAX_PLAYERS + 1)
