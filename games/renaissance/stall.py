"""How a computer seat leaves a position that repeats without progress (issue 49).

Nothing in the rules makes a game end: a seat may pass in every action phase and discard
nothing for ever, and then its hand, which the refill only tops up to four, never changes.
Between people the site's time limits end such a game; where only computers decide
(stand-ins on every seat, computer seats of a tournament) their own choices must. Two
computer seats did exactly that in the arena: one with only the Master's place open and a
hand that neither fits it nor can be taught, the other stuck at 10 cards, each keeping its
four cards round after round.

A seat is *stalled* when ``STALL_ROUNDS`` rounds in a row have ended without its structure
holding more cards than ever before (``PlayerState.idle``, counted by the engine from what
every seat saw). A stalled computer seat
- never ends the discard step keeping every card: it discards at least one, so the refill
  brings a new one each round and the deck turns over until a card fits, can be taught
  or bartered;
- removes a worker only when its structure gives no action and it holds no token (the
  easy player's random removals undid its structure as fast as it was built), and then
  the one nearest to uncovering a Merchant (``unstick``), so that it can HIRE again: a
  normal seat whose only action was TEACH placed each new Renaissance Man on the one open
  place, which covered its Scholar, removed that card again to teach, and so on for ever;
  stalled for ``DIG_ROUNDS``, it removes toward a Merchant whenever it cannot HIRE, stuck
  or not (the removal that gave it TEACH back only led round the same circle), and
  otherwise makes the removals its level would (the easy player's random ones may open a
  place that a card can fill, where none could before).
Every computer level applies it (``escape``); the strong search in its tree and play-outs
too, so that it plans with the rule it plays by. And a seat stalled for ``WANDER_ROUNDS``
makes half of its decisions by the easy player's random choice (``wanders``): any other
cycle of fixed choices is broken, the easy player's lean toward hiring and placing still
builds, and each round there is a chance of a new best.
The others, and a seat still making progress, choose as before.
"""

from __future__ import annotations

import random
from typing import Any

from . import pyramid
from .cards import MERCHANT, SCHOLAR, TYPE
from .legal import virtual_cells
from .state import State

# Rounds in a row without a new best structure. In games of the normal player against
# itself a seat's structure goes 6 rounds or more without growing at some 8% of discard
# steps, near the top most.
STALL_ROUNDS = 6
WANDER_ROUNDS = 2 * STALL_ROUNDS
WANDER_SHARE = 0.5
DIG_ROUNDS = 3 * STALL_ROUNDS


def stalled(st: State, seat: int) -> bool:
    return st.players[seat].idle >= STALL_ROUNDS


def must_discard(st: State, seat: int) -> bool:
    """Whether the seat may not yet end its discards: stalled, in the discard step, holding
    cards and having picked none."""
    if st.stage != "discard" or not stalled(st, seat):
        return False
    p = st.players[seat]
    return bool(p.hand) and not p.picks


def wanders(st: State, seat: int, rand: random.Random) -> bool:
    """Whether this decision of a long-stalled seat is the easy player's (a draw from
    ``rand`` only when stalled that long: other decisions are as they were)."""
    return st.players[seat].idle >= WANDER_ROUNDS and rand.random() < WANDER_SHARE


def escape(st: State, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``actions`` (the seat's legal ones) as a stalled seat may choose them: no end of the
    discards before one, no removal unless the structure is stuck."""
    if not stalled(st, seat):
        return actions
    removals = [a for a in actions if a["kind"] == "remove"]
    p = st.players[seat]
    if removals and (stuck(st, seat) or (p.idle >= DIG_ROUNDS and not can_hire(st, seat))):
        return [unstick(st, seat, removals)]
    # Stalled that long, any removal the level would make again (the easy player's, which
    # may open a way no card could fill before).
    out = actions if p.idle >= DIG_ROUNDS else [a for a in actions if a["kind"] != "remove"]
    if must_discard(st, seat):
        out = [a for a in out if a["kind"] != "done"]
    return out or actions


def can_hire(st: State, seat: int) -> bool:
    """Some uncovered face-up Merchant gives HIRE at some level, or a coin token is stored."""
    p = st.players[seat]
    if MERCHANT in p.stored:
        return True
    cells = virtual_cells(p)
    return any(pyramid.gives(cells, p.down, level, MERCHANT) for level in range(1, 5))


def unstick(st: State, seat: int, removals: list[dict[str, Any]]) -> dict[str, Any]:
    """The removal nearest to uncovering a face-up Merchant: of the fewest cards resting on
    one, directly or not; the highest of those first."""
    p = st.players[seat]
    cells = virtual_cells(p)
    merchants = [
        i for i, c in enumerate(cells) if c is not None and c not in p.down and TYPE[c] == MERCHANT
    ]
    cones = [(m, {k for k in _CONE[m] if cells[k] is not None}) for m in merchants]

    def distance(action: dict[str, Any]) -> tuple[int, int, int]:
        i = pyramid.index(action["level"], action["pos"])
        near = min((len(cone) for _, cone in cones if i in cone), default=pyramid.SIZE)
        return (near, -pyramid.LEVEL[i], i)

    return min(removals, key=distance)


def _cone(i: int) -> frozenset[int]:
    """Every position resting on ``i``, directly or not."""
    out: set[int] = set()
    for j in pyramid.ABOVE[i]:
        out |= {j} | _cone(j)
    return frozenset(out)


_CONE = [_cone(i) for i in range(pyramid.SIZE)]


def stuck(st: State, seat: int) -> bool:
    """No uncovered worker gives any action at any level (after the pending removals) and
    no token is stored: only a removal can help."""
    p = st.players[seat]
    if p.stored:
        return False
    cells = virtual_cells(p)
    return not any(
        pyramid.gives(cells, p.down, level, t) for level in range(1, 5) for t in range(4)
    )


def least_useful(st: State, seat: int, discards: list[dict[str, Any]]) -> dict[str, Any]:
    """The discard to make when one must be made: the card the seat can use least (one that
    fits an open position where it can hire is kept longest, then one it can teach)."""
    p = st.players[seat]
    cells = virtual_cells(p)
    gives = {
        t
        for t in range(4)
        if t in p.stored or any(pyramid.gives(cells, p.down, level, t) for level in range(1, 5))
    }

    def use(action: dict[str, Any]) -> tuple[int, int]:
        card = action["card"]
        fits = MERCHANT in gives and bool(pyramid.fitting(cells, p.down, card))
        teach = SCHOLAR in gives and TYPE[card] not in p.rm_tokens
        return (2 * fits + teach, card)

    return min(discards, key=use)


__all__ = [
    "DIG_ROUNDS",
    "STALL_ROUNDS",
    "WANDER_ROUNDS",
    "can_hire",
    "escape",
    "least_useful",
    "must_discard",
    "stalled",
    "stuck",
    "unstick",
    "wanders",
]
