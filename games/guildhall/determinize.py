"""A copy of the state as one player could imagine it: hidden cards dealt anew at random.

A computer player that simulates moves on a plain clone would read the deck order and the
other hands. Here every card the player cannot see (the deck, the other players' unknown
hand cards, the hidden part of an advanced discard pile) is shuffled among the same places,
and the generator is replaced: simulations can use only what the player knows.

In a simultaneous setup step the other seats' pending choices are secret too: what a seat
still choosing had picked is dropped, and a seat that has chosen (which is public) gets a
choice imagined at random from its imagined hand (no discards; 3 cards of different
identities to place).
"""

from __future__ import annotations

import random

from .cards import IDENT
from .engine import GUILDHALL_SETUP, looking_through_pile
from .rng import MASK
from .state import State


def determinize(st: State, seat: int, rand: random.Random) -> State:
    s = st.clone()
    hidden: list[int] = list(s.deck)
    slots: list[tuple[list[int], int]] = [(s.deck, i) for i in range(len(s.deck))]
    for q, ps in enumerate(s.players):
        if q == seat:
            continue
        known = set(ps.known)
        for i, c in enumerate(ps.hand):
            if c not in known:
                hidden.append(c)
                slots.append((ps.hand, i))
    if s.options.advanced and looking_through_pile(s) != seat:
        for i in range(len(s.discard) - 1):
            hidden.append(s.discard[i])
            slots.append((s.discard, i))
    # Sorted first, so that the imagined deal depends on what the player knows, not on the
    # real order of the hidden cards.
    hidden.sort()
    rand.shuffle(hidden)
    for (pile, i), c in zip(slots, hidden, strict=True):
        pile[i] = c
    s.vp_deck = sorted(s.vp_deck)
    rand.shuffle(s.vp_deck)
    s.rng = rand.getrandbits(64) & MASK
    if s.simultaneous:
        _imagine_setup_choices(s, seat, rand)
    return s


def _imagine_setup_choices(s: State, seat: int, rand: random.Random) -> None:
    for q, ps in enumerate(s.players):
        if q == seat:
            continue
        picks: list[int] = []
        if s.setup_chosen[q] and s.stage == "place":
            need = GUILDHALL_SETUP - len(ps.guildhall)
            taken = {IDENT[c] for c in ps.guildhall}
            hand = sorted(ps.hand)
            rand.shuffle(hand)
            for c in hand:
                if len(picks) < need and IDENT[c] not in taken:
                    picks.append(c)
                    taken.add(IDENT[c])
        s.setup_picks[q] = picks
        # How many steps the seat took is its secret; whether it may take one back is not.
        s.setup_steps[q] = min(s.setup_steps[q], 1)
