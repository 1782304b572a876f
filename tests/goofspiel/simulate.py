"""Random Goofspiel games for the tests, and the secrets a viewer must not depend on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.core import Match

from .engine import State
from .game import GOOFSPIEL

# No digits in the names: a line that shows a card number shows a card.
NAMES = ["Ann", "Bob", "Cy", "Dee"]


@dataclass
class Move:
    match: Match
    seat: int
    action: dict
    events: list[dict]


def new_match(players: int = 3, cards: int = 5, seed: int = 7) -> Match:
    options = GOOFSPIEL.parse_options({"cards": cards}, players)
    return Match(GOOFSPIEL, options, NAMES[:players], seed)


def random_game(seed: int) -> Iterator[Move]:
    """One game of random size, played by ``choose``, with changed choices and the odd
    resignation; yields after every action."""
    rand = random.Random(seed)
    match = new_match(rand.randint(2, 4), rand.randint(3, 13), seed)
    while GOOFSPIEL.phase(match.state) != "over":
        seat, action = _next_move(match.state, rand)
        events = match.apply(action, seat)
        yield Move(match, seat, action, events)


def _next_move(st: State, rand: random.Random) -> tuple[int, dict]:
    if rand.random() < 0.02:
        staying = [q for q in st.seats if q not in st.resigned]
        return rand.choice(staying), {"kind": "resign"}
    chosen = [q for q in st.seats if st.pending[q] is not None]
    if chosen and rand.random() < 0.25:  # change a choice
        seat = rand.choice(chosen)
        return seat, rand.choice(GOOFSPIEL.legal_actions(st, seat))
    seat = rand.choice(sorted(GOOFSPIEL.deciders(st)))
    return seat, GOOFSPIEL.choose(st, seat, rand)


def others_hidden(st: State, viewer: int | None) -> State:
    """``st`` with everything ``viewer`` may not know changed: every other seat's pending
    bid (to another card of its hand, where it has one) and the order of the prize deck."""
    other = GOOFSPIEL.clone(st)
    other.deck.reverse()
    for q in other.seats:
        card = other.pending[q]
        if q != viewer and card is not None and len(other.hands[q]) > 1:
            other.pending[q] = next(c for c in other.hands[q] if c != card)
    return other
