"""The six professions: what each does at each level (RULINGS 2).

``LEVELS[profession]`` lists the thresholds; ``PLANS[(profession, level)]`` is how the
effect is chosen and resolved. A level is the number of cards of that profession in the
player's guildhall when the card is played (the played card is in the action area).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import TYPE_CHECKING

from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop

from .cards import ASSASSIN, DANCER, FARMER, HISTORIAN, IDENT, PROF, TRADER, WEAVER
from .guildhall_math import (
    chapter_cards,
    dup_free_after,
    placement_ok,
    professions_in,
    swap_feasible,
    swap_ok,
)
from .moves import complete_all, discard_card, draw, has_identity, place, swap
from .selection import ANY, Check, Picks, Plan, Quick, Resolve, Slot

if TYPE_CHECKING:
    from .state import State
    from .step import Step

# What each level does, in the rulebook's words (RULINGS 2), for pages and API clients;
# English here, shown translated (``effect_text``).
EFFECT_TEXT = {
    ("assassin", 0): gettext_noop("Discard 1 card from another player's guildhall"),
    ("assassin", 2): gettext_noop(
        "Discard 1 card from each of 2 chapters of another player's guildhall"
    ),
    ("assassin", 4): gettext_noop("Discard 2 cards from another player's guildhall"),
    ("dancer", 0): gettext_noop(
        "Draw 1 card per Dancer in your guildhall, then take 1 more action"
    ),
    ("farmer", 1): gettext_noop("Gain 1 VP token"),
    ("farmer", 3): gettext_noop("Gain 2 VP tokens"),
    ("historian", 0): gettext_noop("Place the top card of the discard pile into your guildhall"),
    ("historian", 2): gettext_noop("Place 1 card from the discard pile into your guildhall"),
    ("historian", 4): gettext_noop("Place 2 cards from the discard pile into your guildhall"),
    ("trader", 0): gettext_noop("Swap 1 card with another player's guildhall"),
    ("trader", 2): gettext_noop("Swap 2 cards with another player's guildhall"),
    ("trader", 4): gettext_noop("Swap a whole chapter with another player's guildhall"),
    ("weaver", 0): gettext_noop("Place 1 hand card into your guildhall"),
    ("weaver", 2): gettext_noop("Exchange 2 hand cards for 1 guildhall card"),
    ("weaver", 4): gettext_noop("Exchange any number of hand cards for 2 guildhall cards"),
}


def effect_text(profession: str, level: int) -> str:
    """What ``profession`` ("assassin") does at ``level``, in the active language."""
    return _(EFFECT_TEXT[(profession, level)])


LEVELS = {
    ASSASSIN: (0, 2, 4),
    DANCER: (0,),
    FARMER: (1, 3),
    HISTORIAN: (0, 2, 4),
    TRADER: (0, 2, 4),
    WEAVER: (0, 2, 4),
}


def _target_cards(st: State, target: int | None) -> list[int]:
    """The target's guildhall (a plan with target=True has a target)."""
    assert target is not None
    return st.players[target].guildhall


# Sources of picks --------------------------------------------------------------------------


def _own_guildhall(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    return [c for c in st.players[p].guildhall if c not in picks]


def _target_guildhall(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    assert target is not None  # a plan with target=True has one
    return [c for c in st.players[target].guildhall if c not in picks]


def _hand(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    return [c for c in st.players[p].hand if c not in picks]


def _discard_pile(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    # Top first: the order a player reads a pile in.
    return [c for c in reversed(st.discard) if c not in picks]


def _own_chapters(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    return professions_in(st.players[p].guildhall)


def _target_chapters(st: State, p: int, target: int | None, picks: Picks) -> list[int]:
    assert target is not None  # a plan with target=True has one
    return professions_in(st.players[target].guildhall)


# Assassin ----------------------------------------------------------------------------------


def _assassinate(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    victim = st.players[target]
    for c in picks:  # in the order chosen: the last chosen ends on top
        victim.guildhall.remove(c)
        discard_card(st, c, step, player=target, why="assassin")


def _assassin_plan(level: int) -> Plan:
    if level == 0:
        return Plan(
            target=True,
            slots=(Slot("card", 1, _target_guildhall, "card_in_target_guildhall"),),
            resolve=_assassinate,
            quick=lambda st, p, q: len(_target_cards(st, q)) >= 1,
            rule="assassin",
            message=gettext_noop("The Assassin discards 1 card from another player's guildhall"),
        )
    if level == 2:
        return Plan(
            target=True,
            slots=(Slot("card", 2, _target_guildhall, "card_in_target_guildhall"),),
            valid=lambda st, p, q, picks: len(picks) < 2 or PROF[picks[0]] != PROF[picks[1]],
            resolve=_assassinate,
            quick=lambda st, p, q: len(professions_in(_target_cards(st, q))) >= 2,
            rule="assassin_two_chapters",
            message=gettext_noop("The Assassin's 2 discards must come from 2 different chapters"),
        )
    return Plan(
        target=True,
        slots=(Slot("card", 2, _target_guildhall, "card_in_target_guildhall"),),
        resolve=_assassinate,
        quick=lambda st, p, q: len(_target_cards(st, q)) >= 2,
        rule="assassin",
        message=gettext_noop("The Assassin discards 2 cards from another player's guildhall"),
    )


# Farmer ------------------------------------------------------------------------------------


def _farmer(tokens: int) -> Plan:
    def resolve(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
        st.players[p].tokens += tokens
        step.emit("tokens", player=p, count=tokens)

    return Plan(resolve=resolve, rule="farmer", message=gettext_noop("The Farmer gains VP tokens"))


# Historian ---------------------------------------------------------------------------------


def _historian_may_conflict(st: State) -> Callable[[int], bool] | None:
    """Advanced: a card from the hidden part of the pile may knowingly conflict [002]."""
    if not st.options.advanced or not st.discard:
        return None
    top = st.discard[-1]
    return lambda c: c != top


def _historian_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    return placement_ok(st.players[p].guildhall, picks, _historian_may_conflict(st))


def _historian_resolve(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    ps = st.players[p]
    rejected = []
    for c in picks:
        st.discard.remove(c)  # the rest of the pile keeps its order
        if has_identity(ps.guildhall, c):
            rejected.append(c)  # advanced: the entering card is discarded
        else:
            place(st, p, c, step, source="discard_pile")
    for c in rejected:
        discard_card(st, c, step, player=p, why="conflict")


def _historian_top_ok(st: State, p: int, target: int | None) -> bool:
    return bool(st.discard) and not has_identity(st.players[p].guildhall, st.discard[-1])


def _historian_top(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    card = st.discard.pop()
    place(st, p, card, step, source="discard_pile")


def _historian_quick(count: int) -> Quick:
    def quick(st: State, p: int, target: int | None) -> bool:
        pile = st.discard
        if len(pile) < count:
            return False
        if st.options.advanced:
            # Any hidden card may be taken; only the public top card must fit.
            if len(pile) > count:
                return True
            return any(_historian_valid(st, p, target, list(order)) for order in permutations(pile))
        guildhall = st.players[p].guildhall
        owned = {IDENT[c] for c in guildhall}
        fitting = {IDENT[c] for c in pile} - owned
        if count == 1 or len(fitting) >= 2:
            return bool(fitting)
        # One fitting identity: the second card must come after it completes its chapter.
        if not fitting:
            return False
        return any(_historian_valid(st, p, target, [a, b]) for a in pile for b in pile if a != b)

    return quick


def _historian_plan(level: int) -> Plan:
    if level == 0:
        return Plan(
            valid=lambda st, p, q, picks: _historian_top_ok(st, p, q),
            quick=_historian_top_ok,
            resolve=_historian_top,
            rule="historian_top",
            message=gettext_noop(
                "The Historian places the top card of the discard pile, which must not "
                "duplicate a card in your guildhall"
            ),
        )
    count = 1 if level == 2 else 2
    return Plan(
        slots=(Slot("card", count, _discard_pile, "card_in_discard_pile"),),
        valid=_historian_valid,
        prefix_valid=True,
        ordered=True,
        quick=_historian_quick(count),
        resolve=_historian_resolve,
        rule="no_duplicates",
        message=gettext_noop(
            "The Historian cannot place a card that duplicates one in your guildhall"
        ),
    )


# Trader ------------------------------------------------------------------------------------


def _trader_swap(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    half = len(picks) // 2
    swap(st, p, target, picks[:half], picks[half:], step)


def _swap_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    assert target is not None  # a plan with target=True has one
    half = len(picks) // 2
    return swap_ok(
        st.players[p].guildhall, picks[:half], st.players[target].guildhall, picks[half:]
    )


def _trader_cards_quick(count: int) -> Quick:
    def quick(st: State, p: int, target: int | None) -> bool:
        assert target is not None  # a plan with target=True has one
        mine, theirs = st.players[p].guildhall, st.players[target].guildhall
        if len(mine) < count or len(theirs) < count:
            return False
        mine_ids = {IDENT[c] for c in mine}
        their_ids = {IDENT[c] for c in theirs}
        # A card may cross freely, or be swapped with its identical twin.
        free_mine = sum(1 for c in mine if IDENT[c] not in their_ids)
        free_theirs = sum(1 for c in theirs if IDENT[c] not in mine_ids)
        twins = len(mine_ids & their_ids)
        return any(
            twins >= k and free_mine >= count - k and free_theirs >= count - k
            for k in range(count + 1)
        )

    return quick


def twin_for_a_pick(st: State, p: int, target: int | None, picks: Picks, x: int) -> bool:
    """Whether picking ``x`` for a swap with ``target`` can only swap it with its identical
    twin, which is legal (RULINGS 2) but changes nothing: a card of the player's own
    guildhall whose twin the target holds (no other swap could take it there), or the
    target's twin of a card the player picked."""
    if target is None:
        return False
    mine, theirs = st.players[p].guildhall, st.players[target].guildhall
    if x in mine:
        return IDENT[x] in {IDENT[c] for c in theirs}
    return x in theirs and IDENT[x] in {IDENT[c] for c in picks if c in mine}


def _chapter_swap_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    if len(picks) < 2:
        return True
    assert target is not None  # a plan with target=True has one
    mine, theirs = st.players[p].guildhall, st.players[target].guildhall
    give, get = chapter_cards(mine, picks[0]), chapter_cards(theirs, picks[1])
    return swap_ok(mine, give, theirs, get)


def _chapter_swap(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    mine, theirs = st.players[p].guildhall, st.players[target].guildhall
    swap(st, p, target, chapter_cards(mine, picks[0]), chapter_cards(theirs, picks[1]), step)


def _trader_plan(level: int) -> Plan:
    if level in (0, 2):
        count = 1 if level == 0 else 2
        return Plan(
            target=True,
            slots=(
                Slot("card", count, _own_guildhall, "card_in_own_guildhall"),
                Slot("card", count, _target_guildhall, "card_in_target_guildhall"),
            ),
            valid=_swap_valid,
            quick=_trader_cards_quick(count),
            exact=lambda st, p, q, picks: swap_feasible(
                st.players[p].guildhall, _target_cards(st, q), count, count, picks
            ),
            resolve=_trader_swap,
            rule="swap_duplicates",
            message=gettext_noop("A swap must not leave a duplicate in either guildhall"),
            changes_nothing=twin_for_a_pick,
        )
    return Plan(
        target=True,
        slots=(
            Slot("chapter", 1, _own_chapters, "chapter_in_own_guildhall"),
            Slot("chapter", 1, _target_chapters, "chapter_in_target_guildhall"),
        ),
        valid=_chapter_swap_valid,
        ordered=True,
        resolve=_chapter_swap,
        rule="swap_duplicates",
        message=gettext_noop("A chapter swap must not leave a duplicate in either guildhall"),
    )


# Dancer ------------------------------------------------------------------------------------


def _dancer(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    dancers = st.players[p].level(DANCER)
    draw(st, p, dancers, step)
    st.actions_left += 1
    step.emit("extra_actions", player=p, count=1)


# Weaver ------------------------------------------------------------------------------------


def _weaver_place_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    return placement_ok(st.players[p].guildhall, picks)


def _weaver_place(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    for c in picks:
        st.players[p].remove_from_hand(c)
        place(st, p, c, step, source="hand")


def _exchange(take_count: int) -> tuple[Check, Resolve]:
    """Hand cards into the guildhall, guildhall cards into the hand, at the same time."""

    def valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
        return dup_free_after(st.players[p].guildhall, picks[:take_count], picks[take_count:])

    def resolve(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
        ps = st.players[p]
        take, give = picks[:take_count], picks[take_count:]
        for c in give:
            ps.remove_from_hand(c)
        ps.guildhall = [c for c in ps.guildhall if c not in take] + give
        ps.hand.extend(take)
        ps.known.extend(take)  # everyone saw them leave the guildhall
        step.emit("exchange", player=p, to_hand=take, to_guildhall=give)
        complete_all(st, p, step)

    return valid, resolve


def _weaver_plan(level: int) -> Plan:
    if level == 0:
        return Plan(
            slots=(Slot("card", 1, _hand, "card_in_hand"),),
            valid=_weaver_place_valid,
            prefix_valid=True,
            quick=lambda st, p, q: any(
                not has_identity(st.players[p].guildhall, c) for c in st.players[p].hand
            ),
            resolve=_weaver_place,
            rule="no_duplicates",
            message=gettext_noop("You cannot place a card that duplicates one in your guildhall"),
        )
    if level == 2:
        valid, resolve = _exchange(1)
        return Plan(
            slots=(
                Slot("card", 1, _own_guildhall, "card_in_own_guildhall"),
                Slot("card", 2, _hand, "card_in_hand"),
            ),
            valid=valid,
            quick=_weaver2_quick,
            resolve=resolve,
            rule="no_duplicates",
            message=gettext_noop("The exchange must not leave a duplicate in your guildhall"),
        )
    valid, resolve = _exchange(2)
    return Plan(
        slots=(
            Slot("card", 2, _own_guildhall, "card_in_own_guildhall"),
            Slot("card", ANY, _hand, "card_in_hand"),
        ),
        valid=valid,
        quick=lambda st, p, q: len(st.players[p].guildhall) >= 2,
        resolve=resolve,
        rule="no_duplicates",
        message=gettext_noop("The exchange must not leave a duplicate in your guildhall"),
    )


def _weaver2_quick(st: State, p: int, target: int | None) -> bool:
    ps = st.players[p]
    if not ps.guildhall:
        return False
    owned = {IDENT[c] for c in ps.guildhall}
    in_hand = {IDENT[c] for c in ps.hand}
    free = len(in_hand - owned)
    # Two different identities must enter: free ones, or the twin of the card taken out.
    return free >= 2 or (free == 1 and bool(in_hand & owned))


PLANS: dict[tuple[int, int], Plan] = {}
for _level in (0, 2, 4):
    PLANS[(ASSASSIN, _level)] = _assassin_plan(_level)
    PLANS[(HISTORIAN, _level)] = _historian_plan(_level)
    PLANS[(TRADER, _level)] = _trader_plan(_level)
    PLANS[(WEAVER, _level)] = _weaver_plan(_level)
PLANS[(FARMER, 1)] = _farmer(1)
PLANS[(FARMER, 3)] = _farmer(2)
PLANS[(DANCER, 0)] = Plan(
    resolve=_dancer, rule="dancer", message=gettext_noop("The Dancer draws, then acts")
)
