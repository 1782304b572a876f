"""The shape of an action, checked the same way for every game: a JSON object with a known
``kind`` and exactly the fields of that kind, each of its type. Whether it is legal now is
the game's question; a malformed action is refused the same way whatever the state."""

from __future__ import annotations

from collections.abc import Mapping, Set

from .errors import IllegalAction

# Every game takes these two; the platform's Match carries them out.
PLATFORM_ACTIONS: dict[str, dict[str, type]] = {"undo": {}, "resign": {}}


def check_shape(
    action: object,
    fields: Mapping[str, Mapping[str, type]],
    optional: Mapping[str, Set[str]] | None = None,
) -> dict:
    """``action`` if it has the shape ``fields`` gives its kind (field name -> type;
    ``optional`` names fields that may be left out), else IllegalAction
    ("malformed_action" or "unknown_action") saying what is wrong."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action", "An action must be a JSON object")
    kind = action.get("kind")
    if not isinstance(kind, str):
        raise IllegalAction("malformed_action", 'An action needs a "kind"')
    kinds = fields if kind in fields else PLATFORM_ACTIONS
    if kind not in kinds:
        raise IllegalAction("unknown_action", f"Unknown action kind {kind!r}")
    wanted = kinds[kind]
    may_lack = (optional or {}).get(kind, set())
    for name in action:
        if name != "kind" and name not in wanted:
            raise IllegalAction("malformed_action", f"A {kind!r} action has no field {name!r}")
    for name, typ in wanted.items():
        if name not in action:
            if name in may_lack:
                continue
            raise IllegalAction("malformed_action", f"A {kind!r} action needs {name!r}")
        if type(action[name]) is not typ:  # exactly: a bool must not pass for an int
            raise IllegalAction(
                "malformed_action", f"{name!r} must be {'an int' if typ is int else 'a string'}"
            )
    return action
