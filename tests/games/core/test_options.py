"""Option descriptions (games.core.options): checking what a player sends, and the forms
the lobby and the API build from them."""

from __future__ import annotations

import pytest

from games.core import OptionError, OptionSpec, parse_options

SPECS = (
    OptionSpec("rules", "choice", "a", "Rules", choices=(("a", "A"), ("b", "B"))),
    OptionSpec("fast", "bool", False, "Fast"),
    OptionSpec("cards", "int", 5, "Cards", minimum=3, maximum=13),
)


def test_left_out_options_take_their_default():
    assert parse_options(SPECS, {"cards": 7}) == {"rules": "a", "fast": False, "cards": 7}
    assert parse_options(SPECS, None) == {"rules": "a", "fast": False, "cards": 5}


@pytest.mark.parametrize(
    "data, option",
    [
        ({"rules": "c"}, "rules"),
        ({"rules": 1}, "rules"),
        ({"fast": "yes"}, "fast"),
        ({"fast": 1}, "fast"),
        ({"cards": True}, "cards"),  # a bool is not a number here
        ({"cards": 2}, "cards"),
        ({"cards": 14}, "cards"),
        ({"cards": 5.0}, "cards"),
        ({"colour": "red"}, "colour"),
        ([1, 2], "options"),
    ],
)
def test_a_bad_option_is_named(data, option):
    with pytest.raises(OptionError) as refused:
        parse_options(SPECS, data)

    assert refused.value.option == option
    assert option in refused.value.message or option == "options"


def test_a_description_with_a_bad_default_is_refused():
    with pytest.raises(OptionError):
        OptionSpec("cards", "int", 99, "Cards", minimum=3, maximum=13)
    with pytest.raises(ValueError):
        OptionSpec("mode", "choice", "x", "Mode")  # no choices


def test_the_catalog_and_the_schema_say_the_same():
    rules, fast, cards = SPECS

    assert rules.to_json()["choices"] == [
        {"value": "a", "label": "A"},
        {"value": "b", "label": "B"},
    ]
    assert rules.json_schema()["enum"] == ["a", "b"]
    assert fast.json_schema()["type"] == "boolean"
    assert (cards.json_schema()["minimum"], cards.json_schema()["maximum"]) == (3, 13)
    assert cards.to_json()["default"] == cards.json_schema()["default"] == 5
