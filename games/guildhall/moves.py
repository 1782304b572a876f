"""Card movements shared by every rule: draw, discard, place, complete a chapter.

Each function keeps the invariants (no duplicate in a guildhall, completed chapters flip
at once) so that the rules built on them cannot forget to.
"""

from __future__ import annotations

from . import rng
from .cards import IDENT, PROF
from .state import State
from .step import Step


def draw(st: State, p: int, n: int, step: Step) -> list[int]:
    """Draw n cards; an empty deck is rebuilt from the whole discard pile (RULINGS 3)."""
    drawn: list[int] = []
    for _ in range(n):
        if not st.deck:
            if not st.discard:
                break  # both empty: the draw stops short
            reshuffle(st, step)
        drawn.append(st.deck.pop())
    if drawn:
        st.players[p].hand.extend(drawn)
        step.reveal()
        step.emit("draw", player=p, cards=drawn)
    return drawn


def reshuffle(st: State, step: Step) -> None:
    st.deck = st.discard
    st.discard = []
    st.rng = rng.shuffle(st.rng, st.deck)
    step.reveal()
    step.emit("shuffle", count=len(st.deck))


def discard_card(
    st: State, card: int, step: Step, player: int | None = None, why: str = ""
) -> None:
    st.discard.append(card)
    step.emit("discard", player=player, card=card, why=why)


def place(st: State, p: int, card: int, step: Step, source: str) -> None:
    """Put a card into p's guildhall, flipping the chapter if it is now complete."""
    ps = st.players[p]
    ps.guildhall.append(card)
    step.emit("place", player=p, card=card, source=source)
    complete_chapter(st, p, PROF[card], step)


def complete_chapter(st: State, p: int, profession: int, step: Step) -> bool:
    """All five colors of a profession in a guildhall: they become a completed chapter."""
    ps = st.players[p]
    chapter = [c for c in ps.guildhall if PROF[c] == profession]
    if len(chapter) < 5:
        return False
    ps.guildhall = [c for c in ps.guildhall if PROF[c] != profession]
    ps.completed = ps.completed + [chapter]
    step.emit("chapter_completed", player=p, profession=profession, cards=chapter)
    return True


def complete_all(st: State, p: int, step: Step) -> None:
    for profession in {PROF[c] for c in st.players[p].guildhall}:
        complete_chapter(st, p, profession, step)


def has_identity(guildhall: list[int], card: int) -> bool:
    ident = IDENT[card]
    for c in guildhall:
        if IDENT[c] == ident:
            return True
    return False


def refill_center(st: State, slot: int, step: Step) -> None:
    """Reveal the top VP card into an empty slot; an empty VP deck leaves it empty."""
    if st.vp_deck and st.center[slot] is None:
        vp = st.vp_deck.pop()
        st.center[slot] = vp
        step.reveal()
        step.emit("vp_revealed", vp=vp, slot=slot)


def swap(st: State, p: int, target: int, give: list[int], get: list[int], step: Step) -> None:
    """Cards leave both guildhalls, then arrive; either side may complete a chapter."""
    me, them = st.players[p], st.players[target]
    me.guildhall = [c for c in me.guildhall if c not in give] + get
    them.guildhall = [c for c in them.guildhall if c not in get] + give
    step.emit("swap", player=p, target=target, gave=give, got=get)
    complete_all(st, p, step)
    complete_all(st, target, step)
