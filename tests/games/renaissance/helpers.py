"""Small helpers for the Renaissance Man tests: find cards by their corners, act, list."""

from __future__ import annotations

from games.renaissance import engine
from games.renaissance.cards import DECK_SIZE, ICONS, NEED_L, NEED_R, OFFER_L, OFFER_R, TYPE, TYPES
from games.renaissance.positions import to_json

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def card(t: str | None = None, needs=None, offers=None, skip=()) -> int:
    """The first deck card of type ``t`` (any if None) with these needs / offers (icon
    names; None for either corner: any), not in ``skip``."""
    for c in range(DECK_SIZE):
        if c in skip or (t is not None and TYPES[TYPE[c]] != t):
            continue
        if needs and not _match((NEED_L[c], NEED_R[c]), needs):
            continue
        if offers and not _match((OFFER_L[c], OFFER_R[c]), offers):
            continue
        return c
    raise LookupError(f"no {t} with needs {needs} and offers {offers}")


def not_fitting(needs_not, t: str | None = None, skip=()) -> int:
    """A card of type ``t`` whose needs are none of the pairs in ``needs_not``."""
    for c in range(DECK_SIZE):
        if c in skip or (t is not None and TYPES[TYPE[c]] != t):
            continue
        if all(not _match((NEED_L[c], NEED_R[c]), pair) for pair in needs_not):
            return c
    raise LookupError("no such card")


def _match(corners, wanted) -> bool:
    return all(w is None or ICONS[c] == w for c, w in zip(corners, wanted, strict=True))


def act(st, seat: int, kind: str, **fields) -> list[dict]:
    return engine.apply(st, seat, {"kind": kind, **fields})


def legal(st, seat: int, kind: str | None = None) -> list[dict]:
    actions = engine.legal_actions(st, seat)
    return actions if kind is None else [a for a in actions if a["kind"] == kind]


def kinds(st, seat: int) -> set[str]:
    return {a["kind"] for a in engine.legal_actions(st, seat)}


def pass_all(st, *seats: int) -> list[dict]:
    events = []
    for seat in seats:
        events += act(st, seat, "pass")
    return events


def snapshot(st) -> dict:
    return to_json(st)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
