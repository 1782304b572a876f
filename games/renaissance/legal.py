"""Which actions a seat may take now, and why another is refused.

For every decision there is one place that lists its candidates and one that checks a
single action with a stable rule code; ``tests/.../test_legality.py`` checks that an action
is accepted exactly when it is listed. Everything here reads only the seat's own state and
the public board, so that legality never depends on another seat's secrets.
"""

from __future__ import annotations

from typing import Any

from games.core.actions import check_shape as core_check_shape
from games.core.errors import IllegalAction
from games.core.i18n import gettext as _

from . import pyramid
from .cards import ACTION_OF, FOUNDATION, ICON_INDEX, ICONS, TYPE, action_name, icon_before
from .pyramid import LEVEL, POS, Cells
from .state import STORE_SLOTS, PlayerState, State

# Every action kind and its fields ("undo" and "resign" are the platform's).
ACTION_FIELDS: dict[str, dict[str, type]] = {
    "foundation": {"worker": str},
    "reset": {},
    "remove": {"level": int, "pos": int},
    "hire": {"card": int, "source": str, "level": int, "pos": int},
    "barter": {"card": int, "source": str, "return_token": str},
    "teach": {"card": int, "source": str},
    "recruit": {"card": int, "source": str, "knight": str},
    "pass": {},
    "place_rm": {"level": int, "pos": int},
    "take": {},
    "place": {"level": int, "pos": int},
    "discard": {"card": int},
    "keep": {"card": int},
    "done": {},
}
OPTIONAL = {"barter": {"return_token"}}
ACTS = ("hire", "teach", "barter", "recruit")  # the four action types
# The decision each kind answers. A removal is the first part of any decision (rulings
# §2): its seat's submission in a simultaneous step, or the Recruit winner's choice.
ANSWERS = {
    "foundation": ("foundation",),
    "reset": ("foundation", "action", "rm", "discard"),
    "remove": ("action", "rm", "recruit", "discard"),
    "hire": ("action",),
    "barter": ("action",),
    "teach": ("action",),
    "recruit": ("action",),
    "pass": ("action",),
    "place_rm": ("rm",),
    "take": ("recruit",),
    "place": ("recruit",),
    "discard": ("discard",),
    "keep": ("discard",),
    "done": ("discard",),
}


# What rules 2 added (RULES): a removal, and taking removals back, outside an action phase.
_SINCE_RULES_2 = {"remove": ("rm", "recruit", "discard"), "reset": ("rm", "discard")}


def answers(st: State, kind: str) -> bool:
    """Whether an action of ``kind`` answers the step ``st`` is in, under its rules."""
    if st.stage not in ANSWERS[kind]:
        return False
    return st.rules >= 2 or st.stage not in _SINCE_RULES_2.get(kind, ())


def check_shape(action: object) -> dict[str, Any]:
    return core_check_shape(action, ACTION_FIELDS, OPTIONAL)


def _at(i: int) -> dict[str, Any]:
    return {"level": LEVEL[i], "pos": POS[i]}


def virtual_cells(p: PlayerState) -> list[int | None]:
    """The seat's structure after its pending removals."""
    cells = p.cells[:]
    for i in p.removals:
        cells[i] = None
    return cells


def _removals(cells: Cells) -> list[dict[str, Any]]:
    return [{"kind": "remove", **_at(i)} for i in pyramid.removable(cells)]


def majority(st: State, area: int) -> int | None:
    """The seat with strictly more Knights in ``area`` than anyone (the opposing Knights
    included: -1 for them), or None."""
    best, who, tied = 0, None, False
    for seat, n in enumerate(st.knights[area]):
        if n > best:
            best, who, tied = n, seat, False
        elif n == best and n:
            tied = True
    n = st.opposing[area]
    if n > best:
        return -1
    if n == best and n:
        return None
    return None if tied else who


# Listing ----------------------------------------------------------------------------------


def legal_actions(st: State, seat: int) -> list[dict[str, Any]]:
    if st.stage == "over" or type(seat) is not int or not 0 <= seat < len(st.players):
        return []
    p = st.players[seat]
    stage = st.stage
    if stage == "action":
        return _action_phase(st, seat, p)
    if stage == "foundation":
        out: list[dict[str, Any]] = []
        if not p.done:
            out = [
                {"kind": "foundation", "worker": FOUNDATION[w]}
                for w in range(5)
                if w not in p.picks
            ]
        if p.picks:
            out.append({"kind": "reset"})
        return out
    if stage == "discard":
        if not p.hand:
            return []
        out = _removals(virtual_cells(p)) if st.rules >= 2 else []
        out += [{"kind": "discard", "card": c} for c in p.hand if c not in p.picks]
        out += [{"kind": "keep", "card": c} for c in p.picks]
        if not p.done:
            out.append({"kind": "done"})
        if p.removals:
            out.append({"kind": "reset"})
        return out
    if stage == "rm":
        if not p.picks:
            return []
        cells = virtual_cells(p)
        out = _removals(cells) if st.rules >= 2 else []
        out += [{"kind": "place_rm", **_at(i)} for i in pyramid.open_positions(cells)]
        if p.removals:
            out.append({"kind": "reset"})
        return out
    if stage == "recruit":
        if majority(st, st.area) != seat:
            return []
        card = st.recruit[st.area]
        assert card is not None  # an area without a card has no winner to choose
        # Made at once: nothing in this step is secret.
        out = _removals(p.cells) if st.rules >= 2 else []
        out.append({"kind": "take"})
        out += [{"kind": "place", **_at(i)} for i in pyramid.fitting(p.cells, p.down, card)]
        return out
    return []


def sources(st: State, p: PlayerState, cells: Cells, t: int) -> tuple[str, ...]:
    """How the seat may get the action of type ``t`` this phase: a worker of the phase's
    level, else a Stored Actions token (a token is never offered beside a worker: using
    it could only lose a token, docs/renaissance.md)."""
    if pyramid.gives(cells, p.down, st.phase, t):
        return ("worker",)
    if t in p.stored:
        return ("token",)
    return ()


def _action_phase(st: State, seat: int, p: PlayerState) -> list[dict[str, Any]]:
    cells = virtual_cells(p)
    out = _removals(cells)
    via = [sources(st, p, cells, t) for t in range(4)]
    hire, teach, barter, recruit = (via[ACTION_OF[a]] for a in ACTS)
    open_cells = pyramid.open_positions(cells) if hire else ()
    full = len(p.stored) >= STORE_SLOTS
    returns = sorted(set(p.stored))
    for card in p.hand:
        t = TYPE[card]
        for src in hire:
            for i in open_cells:
                if pyramid.fits(cells, p.down, card, i):
                    out.append({"kind": "hire", "card": card, "source": src, **_at(i)})
        for src in barter:
            if full and src == "worker":
                for r in returns:
                    out.append(
                        {
                            "kind": "barter",
                            "card": card,
                            "source": src,
                            "return_token": ICONS[r],
                        }
                    )
            else:
                out.append({"kind": "barter", "card": card, "source": src})
        if t not in p.rm_tokens:
            for src in teach:
                out.append({"kind": "teach", "card": card, "source": src})
        if recruit:
            knights = ["supply"] if p.supply else []
            knights += [ICONS[a] for a in range(4) if a != t and st.knights[a][seat]]
            for src in recruit:
                for k in knights:
                    out.append({"kind": "recruit", "card": card, "source": src, "knight": k})
    out.append({"kind": "pass"})
    if p.removals or p.choice is not None:
        out.append({"kind": "reset"})
    return out


# Checking one action ----------------------------------------------------------------------


def position(action: dict[str, Any]) -> int:
    try:
        return pyramid.index(action["level"], action["pos"])
    except ValueError:
        raise IllegalAction(
            "no_such_position",
            _("There is no position {position} on level {level}").format(
                position=action["pos"], level=action["level"]
            ),
        ) from None


def check_act(st: State, seat: int, action: dict[str, Any]) -> None:
    """An action-phase action (hire, barter, teach, recruit), checked against the seat's
    structure after its pending removals: it must be possible to carry out in full."""
    p = st.players[seat]
    kind = action["kind"]
    card = action["card"]
    if card not in p.hand:
        raise IllegalAction("card_not_in_hand", _("That card is not in your hand"))
    cells = virtual_cells(p)
    t = ACTION_OF[kind]
    src = action["source"]
    if src not in ("worker", "token"):
        raise IllegalAction("no_such_source", _('The source is "worker" or "token"'))
    if src not in sources(st, p, cells, t):
        if src == "token" and t in p.stored:
            raise IllegalAction(
                "worker_available",
                _("A worker gives {action} now: no token is needed").format(
                    action=action_name(kind)
                ),
            )
        if src == "worker":
            text = _("You have no {action} from an uncovered level-{level} worker")
        else:
            text = _("You have no {action} from a token")
        raise IllegalAction("no_access", text.format(action=action_name(kind), level=st.phase))
    if kind == "hire":
        i = position(action)
        if not pyramid.fits(cells, p.down, card, i):
            raise IllegalAction(
                "does_not_fit", _("The card's needs do not match the offers of that position")
            )
    elif kind == "barter":
        full = len(p.stored) >= STORE_SLOTS and src == "worker"
        back = action.get("return_token")
        if full and back is None:
            raise IllegalAction(
                "store_full", _("Your Stored Actions are full: name a token to return")
            )
        if not full and back is not None:
            raise IllegalAction("no_return_needed", _("There is room for the token: return none"))
        if back is not None and ICON_INDEX.get(back) not in p.stored:
            raise IllegalAction(
                "no_such_token",
                _("You have no {icon} token stored").format(
                    icon=icon_before(back) if back in ICONS else back
                ),
            )
    elif kind == "teach":
        if TYPE[card] in p.rm_tokens:
            raise IllegalAction(
                "rm_token_held",
                # Translators: {icon} is the token's icon: "... already holds a coin".
                _("Your Renaissance Man area already holds a {icon}").format(
                    icon=icon_before(ICONS[TYPE[card]])
                ),
            )
    elif kind == "recruit":
        k = action["knight"]
        if k == "supply":
            if not p.supply:
                raise IllegalAction("no_knight", _("All your Knights are on the Recruit board"))
        else:
            area = ICON_INDEX.get(k)
            if area is None:
                raise IllegalAction("no_knight", _('The Knight comes from "supply" or an area'))
            if area == TYPE[card] or not st.knights[area][seat]:
                raise IllegalAction(
                    "no_knight",
                    _("You have no Knight to move from the {icon} area").format(
                        icon=icon_before(k)
                    ),
                )
