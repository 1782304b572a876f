"""The optional abilities of VP cards (RULINGS 1). Extra actions are automatic (engine)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core.i18n import gettext_noop

from .cards import IDENT
from .guildhall_math import chapter_cards, dup_free_after, placement_ok, swap_feasible, swap_ok
from .moves import complete_all, draw, has_identity, place, swap
from .professions import (
    _hand,
    _own_guildhall,
    _target_cards,
    _target_chapters,
    _target_guildhall,
)
from .selection import ANY, Picks, Plan, Slot

if TYPE_CHECKING:
    from .state import State
    from .step import Step


def _steal_chapter_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    assert target is not None  # a plan with target=True has one
    cards = chapter_cards(st.players[target].guildhall, picks[0])
    return dup_free_after(st.players[p].guildhall, (), cards)


def _steal_chapter(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    them = st.players[target]
    cards = chapter_cards(them.guildhall, picks[0])
    them.guildhall = [c for c in them.guildhall if c not in cards]
    st.players[p].guildhall.extend(cards)
    step.emit("take_chapter", player=p, target=target, cards=cards)
    complete_all(st, p, step)


def _draw_six(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    draw(st, p, 6, step)


def _swap_one_for_two_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    assert target is not None  # a plan with target=True has one
    return swap_ok(st.players[p].guildhall, picks[:1], st.players[target].guildhall, picks[1:])


def _swap_one_for_two(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    swap(st, p, target, picks[:1], picks[1:], step)


def _place_from_hand_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    return placement_ok(st.players[p].guildhall, picks)


def _place_from_hand(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    for c in picks:
        st.players[p].remove_from_hand(c)
        place(st, p, c, step, source="hand")


def _take_card_valid(st: State, p: int, target: int | None, picks: Picks) -> bool:
    return not has_identity(st.players[p].guildhall, picks[0])


def _take_card(st: State, p: int, target: int | None, picks: Picks, step: Step) -> None:
    assert target is not None  # a plan with target=True has one
    st.players[target].guildhall.remove(picks[0])
    place(st, p, picks[0], step, source=f"guildhall:{target}")


PLANS: dict[str, Plan] = {
    "vp2_chapter": Plan(
        target=True,
        slots=(Slot("chapter", 1, _target_chapters, "chapter_in_target_guildhall"),),
        valid=_steal_chapter_valid,
        resolve=_steal_chapter,
        rule="no_duplicates",
        message=gettext_noop("The chapter must not duplicate a card in your guildhall"),
    ),
    "vp3_draw": Plan(resolve=_draw_six, rule="vp3_draw", message=gettext_noop("Draw 6 cards")),
    "vp3_swap": Plan(
        target=True,
        slots=(
            Slot("card", 1, _own_guildhall, "card_in_own_guildhall"),
            Slot("card", 2, _target_guildhall, "card_in_target_guildhall"),
        ),
        valid=_swap_one_for_two_valid,
        exact=lambda st, p, q, picks: swap_feasible(
            st.players[p].guildhall, _target_cards(st, q), 1, 2, picks
        ),
        resolve=_swap_one_for_two,
        rule="swap_duplicates",
        message=gettext_noop("A swap must not leave a duplicate in either guildhall"),
    ),
    "vp3_place": Plan(
        slots=(Slot("card", ANY, _hand, "card_in_hand"),),
        valid=_place_from_hand_valid,
        # Placing nothing is the same as not using it: offer it only when a card fits.
        worth_offering=lambda st, p: any(
            IDENT[c] not in {IDENT[g] for g in st.players[p].guildhall} for c in st.players[p].hand
        ),
        resolve=_place_from_hand,
        rule="no_duplicates",
        message=gettext_noop("You cannot place a card that duplicates one in your guildhall"),
    ),
    "vp4_take": Plan(
        target=True,
        slots=(Slot("card", 1, _target_guildhall, "card_in_target_guildhall"),),
        valid=_take_card_valid,
        resolve=_take_card,
        rule="no_duplicates",
        message=gettext_noop("You cannot place a card that duplicates one in your guildhall"),
    ),
}
