"""Choosing what an ability acts on, one small step at a time.

An ability at a level is a ``Plan``: maybe a target player, then slots of picks (cards,
or whole chapters named by profession). Each step lists only the picks from which the
whole effect can still be completed, so a player can never walk into a dead end: "an
effect is done in full or not at all" (RULINGS 2). Completeness is decided by a small
depth-first search over the remaining picks; plans may add a quick exact test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State
    from .step import Step

ANY = None  # slot count: any number of picks, then "done"

# The picks made so far: card ids, or professions for a "chapter" slot.
Picks = list[int]
# source(state, player, target, picks) -> candidate values for the next pick
Source = Callable[["State", int, "int | None", Picks], list[int]]
# valid(state, player, target, picks), exact(...): see Plan
Check = Callable[["State", int, "int | None", Picks], bool]
Resolve = Callable[["State", int, "int | None", Picks, "Step"], None]
# quick(state, player, target)
Quick = Callable[["State", int, "int | None"], bool]


class Slot:
    __slots__ = ("kind", "count", "source", "label")

    def __init__(self, kind: str, count: int | None, source: Source, label: str) -> None:
        self.kind = kind  # "card" | "chapter"
        self.count = count
        self.source = source
        self.label = label  # what the player is picking, for views: "card_in_target_guildhall"


class Plan:
    """One ability at one level."""

    def __init__(
        self,
        *,
        target: bool = False,
        slots: tuple[Slot, ...] = (),
        valid: Check | None = None,
        ordered: bool = False,
        prefix_valid: bool = False,
        resolve: Resolve,
        rule: str,
        message: str,
        quick: Quick | None = None,
        exact: Check | None = None,
        worth_offering: Callable[[State, int], bool] | None = None,
        changes_nothing: Callable[[State, int, int | None, Picks, int], bool] | None = None,
    ) -> None:
        self.target = target  # needs one other player
        self.slots = slots
        # valid(state, player, target, picks) on a complete selection (and on every
        # prefix when prefix_valid: the check can only get worse as picks are added)
        self._valid = valid
        self.ordered = ordered  # the order of picks inside a slot changes the result
        self.prefix_valid = prefix_valid
        self.resolve = resolve
        self.rule = rule  # the rule a rejected pick breaks, and how to say it
        self.message = message
        # quick(state, player, target) -> True/False, an exact shortcut for feasible(..., [])
        self.quick = quick
        # exact(state, player, target, picks) -> whether the picks so far can be completed;
        # replaces the search when the structure of the effect allows a direct count.
        self.exact = exact
        # worth_offering(state, player): an extra condition for offering the ability at all,
        # when using it could change nothing (placing "any number" of zero cards).
        self.worth_offering = worth_offering
        # changes_nothing(state, player, target, picks, x): a legal pick that changes no
        # guildhall (a card swapped for its identical twin): offered after the others.
        self.changes_nothing = changes_nothing

    def valid(self, st: State, p: int, target: int | None, picks: Picks) -> bool:
        return self._valid is None or self._valid(st, p, target, picks)

    def position(self, picks: Picks) -> tuple[int | None, int]:
        """(slot index, picks already made in it) for the next pick; (None, 0) if complete."""
        n = len(picks)
        for i, slot in enumerate(self.slots):
            if slot.count is ANY or n < slot.count:
                return i, n
            n -= slot.count
        return None, 0

    def is_complete(self, picks: Picks) -> bool:
        return self.position(picks)[0] is None

    def feasible(self, st: State, p: int, target: int | None, picks: Picks) -> bool:
        if not picks and self.quick is not None:
            return self.quick(st, p, target)
        if self.exact is not None:
            return self.exact(st, p, target, picks)
        return self._search(st, p, target, picks, None)

    def searched(self, st: State, p: int, target: int | None, picks: Picks) -> bool:
        """The plain search, without shortcuts: tests compare the shortcuts against it."""
        return self._search(st, p, target, picks, None)

    def _search(
        self, st: State, p: int, target: int | None, picks: Picks, floor: int | None
    ) -> bool:
        slot_i, k = self.position(picks)
        if slot_i is None or self.slots[slot_i].count is ANY or self.prefix_valid:
            if not self.valid(st, p, target, picks):
                return False
            if slot_i is None or self.slots[slot_i].count is ANY:
                return True
        slot = self.slots[slot_i]
        last_in_slot = k + 1 == slot.count
        for x in slot.source(st, p, target, picks):
            # Unordered picks: try each combination once, in increasing order.
            if floor is not None and x <= floor:
                continue
            nxt = None if (self.ordered or last_in_slot) else x
            if self._search(st, p, target, picks + [x], nxt):
                return True
        return False

    def targets(self, st: State, p: int) -> list[int]:
        n = len(st.players)
        return [q for q in range(n) if q != p and self.feasible(st, p, q, [])]

    def usable(self, st: State, p: int) -> bool:
        if self.worth_offering is not None and not self.worth_offering(st, p):
            return False
        if self.target:
            n = len(st.players)
            return any(q != p and self.feasible(st, p, q, []) for q in range(n))
        return self.feasible(st, p, None, [])

    def choices(self, st: State, p: int, target: int | None, picks: Picks) -> list[int]:
        """The picks offered now: those from which the effect can still be completed."""
        slot_i, _ = self.position(picks)
        if slot_i is None:
            return []
        test = self.exact or (lambda st, p, target, picks: self._search(st, p, target, picks, None))
        offered = [
            x
            for x in self.slots[slot_i].source(st, p, target, picks)
            if test(st, p, target, picks + [x])
        ]
        return self.in_offer_order(st, p, target, picks, offered)

    def in_offer_order(
        self, st: State, p: int, target: int | None, picks: Picks, xs: list[int]
    ) -> list[int]:
        """``xs`` with the picks that change nothing after the others."""
        changes_nothing = self.changes_nothing
        if changes_nothing is None:
            return xs
        return sorted(xs, key=lambda x: changes_nothing(st, p, target, picks, x))

    def can_finish(self, st: State, p: int, target: int | None, picks: Picks) -> bool:
        slot_i, _ = self.position(picks)
        return (
            slot_i is not None
            and self.slots[slot_i].count is ANY
            and self.valid(st, p, target, picks)
        )
