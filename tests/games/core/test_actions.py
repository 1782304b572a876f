"""The shape of an action (games.core.actions), the same for every game."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.core.actions import check_shape

FIELDS = {"bid": {"card": int}, "name": {"who": str}, "use": {"level": int}}
OPTIONAL = {"use": {"level"}}


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "bid", "card": 3},
        {"kind": "name", "who": "Ann"},
        {"kind": "use"},
        {"kind": "use", "level": 2},
        {"kind": "undo"},
        {"kind": "resign"},
    ],
)
def test_well_formed_actions_pass(action):
    assert check_shape(action, FIELDS, OPTIONAL) is action


@pytest.mark.parametrize(
    "action, rule",
    [
        ("bid", "malformed_action"),
        ({"card": 3}, "malformed_action"),
        ({"kind": 3}, "malformed_action"),
        ({"kind": "fly"}, "unknown_action"),
        ({"kind": "bid"}, "malformed_action"),
        ({"kind": "bid", "card": "3"}, "malformed_action"),
        ({"kind": "bid", "card": True}, "malformed_action"),
        ({"kind": "bid", "card": 3, "extra": 1}, "malformed_action"),
        ({"kind": "undo", "card": 3}, "malformed_action"),
        ({"kind": "name", "who": 1}, "malformed_action"),
    ],
)
def test_malformed_actions_are_refused_with_a_reason(action, rule):
    with pytest.raises(IllegalAction) as refused:
        check_shape(action, FIELDS, OPTIONAL)

    assert refused.value.rule == rule and refused.value.message
