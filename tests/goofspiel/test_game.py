"""Goofspiel's side of the platform besides the rules: registration, options, the prompt,
the board (its context and template, rendered on its own) and the API's schemas. No
database: the site-level tests of the board page and the API come separately."""

from __future__ import annotations

import copy
import html
import json
import re
from functools import cache

import pytest
from django.template import Context, Engine
from jsonschema import Draft202012Validator

from games.core import GameKind, OptionError, get

from .game import GOOFSPIEL, action_json
from .simulate import new_match, others_hidden, random_game

GAME = GOOFSPIEL


def test_it_is_registered_under_its_id():
    assert get("goofspiel") is GOOFSPIEL
    assert isinstance(GOOFSPIEL, GameKind) and GOOFSPIEL.name == "Goofspiel"
    assert (GOOFSPIEL.template_dir / GOOFSPIEL.board_template).is_file()


def test_options():
    assert GAME.parse_options(None, 2) == {"cards": 5}
    assert GAME.parse_options({"cards": 13}, 4) == {"cards": 13}
    assert GAME.options_label({"cards": 5}) == "5 cards"
    for data, players in (({"cards": 2}, 3), ({"cards": 14}, 3), ({"cards": "5"}, 3), ({}, 5)):
        with pytest.raises(OptionError):
            GAME.parse_options(data, players)


def test_the_prompt():
    match = new_match(players=2)
    prize = match.state.prize
    assert (
        GAME.prompt(GAME.view(match.state, 0)) == f"Choose a card to bid for the prize of {prize}."
    )
    assert GAME.prompt(GAME.view(match.state, None)) is None
    match.apply({"kind": "bid", "card": 4}, 0)
    assert GAME.prompt(GAME.view(match.state, 0)) == (
        "You chose 4: you may change it until everyone has chosen."
    )


def test_the_board_context():
    match = new_match(players=3)
    match.apply({"kind": "bid", "card": 4}, 0)
    users = {1: {"online": True}, 2: {"computer": True}}
    mine = GAME.board_context(GAME.view(match.state, 0), users)
    assert [(h["card"], h["chosen"]) for h in mine["hand"]] == [(c, c == 4) for c in range(1, 6)]
    assert [h["action"] for h in mine["hand"]] == [
        action_json(a) for a in GAME.legal_actions(match.state, 0)
    ]
    assert mine["hand"][0]["action"] == '{"card":1,"kind":"bid"}'
    assert [p["status"] for p in mine["players"]] == ["has chosen", "choosing", "choosing"]
    assert [(p["online"], p["computer"]) for p in mine["players"]][1:] == [
        (True, False),
        (False, True),
    ]
    assert mine["stage_label"] == "Round 1 of 5"
    assert GAME.scores(GAME.view(match.state, None)) == {0: 0, 1: 0, 2: 0}
    watching = GAME.board_context(GAME.view(match.state, None), users)
    assert watching["hand"] == [] and watching["prompt_text"] is None and watching["watching"]


# The template, rendered on its own -----------------------------------------------------------

# The site provides this one; the stand-in marks where it is included.
MESSAGES = '<p class="board-error">{{ error }}</p>'


@cache
def template():
    engine = Engine(
        loaders=[
            ("django.template.loaders.locmem.Loader", {"games/board_messages.html": MESSAGES}),
            ("django.template.loaders.filesystem.Loader", [str(GAME.template_dir)]),
        ],
    )
    return engine.get_template(GAME.board_template)


def render(view: dict, error: str = "") -> str:
    context = {**GAME.board_context(view, {}), "v": view, "game": None, "error": error}
    return template().render(Context(context))


def buttons(page: str) -> list[dict]:
    return [
        json.loads(html.unescape(v)) for v in re.findall(r'name="action" value="([^"]*)"', page)
    ]


def test_the_board_shows_a_button_per_legal_bid_and_nobody_elses_choice():
    for seed in range(15):
        for move in random_game(seed):
            st = move.match.state
            for viewer in [None, *st.seats]:
                view = GAME.view(st, viewer)
                page = render(view)
                assert buttons(page) == view["legal_actions"]
                assert page == render(GAME.view(others_hidden(st, viewer), viewer))
                assert "style=" not in page and "<script" not in page


def test_the_board_shows_the_error_in_its_decision_panel_and_the_result():
    match = new_match(players=2, cards=3)
    page = render(GAME.view(match.state, 0), error="No such card")
    panel = page.split("</section>")[0]
    assert 'aria-label="Decision"' in panel and "No such card" in panel
    for card in (1, 2, 3):
        match.apply({"kind": "bid", "card": card}, 0)
        match.apply({"kind": "bid", "card": 4 - card}, 1)
    page = render(GAME.view(match.state, None))
    assert "Result" in page and not buttons(page)


# The API's schemas ----------------------------------------------------------------------------


def json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema, recursively."""
    if isinstance(node, list):
        return [json_schema(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: json_schema(v) for k, v in node.items() if k != "nullable"}
    return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out


def validator(name: str) -> Draft202012Validator:
    schema = json_schema(copy.deepcopy(GAME.api_components()[name]))
    return Draft202012Validator(schema)


def test_views_and_actions_fit_their_schemas():
    views, actions = validator(GAME.view_component), validator(GAME.action_component)
    assert set(GAME.api_components()) == {"GoofspielView", "GoofspielAction"}
    for example in GAME.action_examples().values():
        actions.validate(example)
        GAME.check_shape(example)
    for action in ({"kind": "undo"}, {"kind": "resign"}):
        actions.validate(action)
    for seed in range(10):
        for move in random_game(seed):
            actions.validate(move.action)
            for viewer in [None, *move.match.state.seats]:
                views.validate(GAME.view(move.match.state, viewer))
