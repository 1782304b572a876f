"""The shape of an action, checked the same way for every game: a JSON object with a known
``kind`` and exactly the fields of that kind, each of its type. Whether it is legal now is
the game's question; a malformed action is refused the same way whatever the state."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from .errors import IllegalAction
from .i18n import gettext as _

# Every game takes these two; the platform's Match carries them out.
PLATFORM_ACTIONS: dict[str, dict[str, type]] = {"undo": {}, "resign": {}}


def check_shape(
    action: object,
    fields: Mapping[str, Mapping[str, type]],
    optional: Mapping[str, Set[str]] | None = None,
) -> dict[str, Any]:
    """``action`` if it has the shape ``fields`` gives its kind (field name -> type;
    ``optional`` names fields that may be left out), else IllegalAction
    ("malformed_action" or "unknown_action") saying what is wrong."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action", _("An action must be a JSON object"))
    kind = action.get("kind")
    if not isinstance(kind, str):
        raise IllegalAction("malformed_action", _('An action needs a "kind"'))
    kinds = fields if kind in fields else PLATFORM_ACTIONS
    if kind not in kinds:
        raise IllegalAction(
            "unknown_action", _("Unknown action kind {kind}").format(kind=repr(kind))
        )
    wanted = kinds[kind]
    may_lack = (optional or {}).get(kind, set())
    for name in action:
        if name != "kind" and name not in wanted:
            raise IllegalAction(
                "malformed_action",
                _("A {kind} action has no field {name}").format(kind=repr(kind), name=repr(name)),
            )
    for name, typ in wanted.items():
        if name not in action:
            if name in may_lack:
                continue
            raise IllegalAction(
                "malformed_action",
                _("A {kind} action needs {name}").format(kind=repr(kind), name=repr(name)),
            )
        if type(action[name]) is not typ:  # exactly: a bool must not pass for an int
            message = _("{name} must be an int") if typ is int else _("{name} must be a string")
            raise IllegalAction("malformed_action", message.format(name=repr(name)))
    return action
