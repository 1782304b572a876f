"""A computer player stronger than random: one-step heuristics that read only what its seat
may know (its hand and submission, every structure's face-up cards, tokens, Knights and the
Recruit board). It never looks at the deck, the discard pile, another hand, another seat's
pending submission or a face-down card's face, so its choice is the same whatever those
are (``test_bot.py``).

What it prefers:
- hires that keep the pyramid buildable: every open position should still be fillable by
  some card it has not seen, the higher the better, and a hired Merchant keeps HIRE for
  the next phase;
- recruits where its Knight makes a strict majority, for a card that fits its structure;
- teaching toward a Renaissance Man, bartering for coin tokens (HIRE), and never spending a
  card that fits its structure on anything but a hire.
It never removes workers and never takes back its own picks, so its submissions end; a
seat that has made no progress for some rounds discards at least one card (``stall``).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Container
from typing import Any

from . import pyramid, random_player, stall
from .cards import (
    ACTION_OF,
    BAKER,
    DECK_SIZE,
    FOUNDATION,
    ICON_INDEX,
    MERCHANT,
    RM,
    SCHOLAR,
    TYPE,
    foundation_card,
)
from .legal import legal_actions, majority, virtual_cells
from .pyramid import LEVEL, Cells
from .state import PlayerState, State


def choose(
    st: State, seat: int, rand: random.Random, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    if actions is None:
        actions = legal_actions(st, seat)
    if stall.wanders(st, seat, rand):
        return random_player.choose(st, seat, rand, actions)
    actions = stall.escape(st, seat, actions)
    if len(actions) == 1:  # a stalled seat's removal toward a Merchant, say
        return actions[0]
    removals = [a for a in actions if a["kind"] == "remove"]
    actions = [a for a in actions if a["kind"] not in ("keep", "reset", "remove")] or actions
    stage = st.stage
    if removals and _stuck(st.players[seat]):
        return _unblock(st, seat, removals, rand)
    if stage == "foundation":
        return _foundation(st, seat, rand, actions)
    if stage == "discard":
        return _discard(st, seat, actions)
    unseen = _unseen(st, seat)
    scored = [(_score(st, seat, a, unseen), i) for i, a in enumerate(actions)]
    best = max(s for s, _ in scored)
    top = [actions[i] for s, i in scored if s >= best - 1e-9]
    return top[rand.randrange(len(top))]


def preferences(st: State, seat: int, actions: list[dict[str, Any]]) -> list[float]:
    """How much this player likes each of ``actions`` (legal for ``seat``), in [0, 1]: 1
    for what it would play; where it scores actions, less the further an action's score
    is below the best (``PREFERENCE_SCALE`` points: a third). The search's prior."""
    removals = [a for a in actions if a["kind"] == "remove"]
    stage = st.stage
    if stage in ("foundation", "discard") or (removals and _stuck(st.players[seat])):
        pick = choose(st, seat, random.Random(0), actions)
        return [1.0 if a == pick else 0.0 for a in actions]
    unseen = _unseen(st, seat)
    scores = [
        -math.inf if a["kind"] in ("keep", "reset", "remove") else _score(st, seat, a, unseen)
        for a in actions
    ]
    best = max(scores)
    if best == -math.inf:
        return [0.0] * len(actions)
    return [math.exp((v - best) / PREFERENCE_SCALE) for v in scores]


PREFERENCE_SCALE = 10.0


def _unseen(st: State, seat: int) -> list[int]:
    """Deck cards the seat has not seen in a public or own place: what it may still draw."""
    seen = set(st.players[seat].hand)
    for p in st.players:
        seen.update(c for c in p.cells if c is not None and c not in p.down)
    seen.update(c for c in st.recruit if c is not None)
    return [c for c in range(DECK_SIZE) if c not in seen]


def buildability(cells: Cells, down: Container[int], unseen: list[int]) -> float:
    """How fillable the open positions are: for each, the share of unseen cards that fit
    (a dead position, which only a Renaissance Man can fill, scores nothing)."""
    total = 0.0
    n = len(unseen) or 1
    for i in pyramid.open_positions(cells):
        fit = sum(1 for c in unseen if pyramid.fits(cells, down, c, i))
        total += fit / n * (1 + LEVEL[i])
    return total


def access(cells: Cells, down: Container[int]) -> int:
    """How many (level, action) pairs the uncovered workers give, HIRE counting twice: a
    structure whose every uncovered card is a Renaissance Man is stuck."""
    total = 0
    for level in range(1, 5):
        for t in range(4):
            if pyramid.gives(cells, down, level, t):
                total += 2 if t == MERCHANT else 1
    return total


def _stuck(p: PlayerState) -> bool:
    """No uncovered worker gives anything at any level, and no token is stored."""
    return not p.stored and access(virtual_cells(p), p.down) == 0


def _unblock(
    st: State, seat: int, removals: list[dict[str, Any]], rand: random.Random
) -> dict[str, Any]:
    """A stuck pyramid only moves again by a removal: the uncovered card whose removal
    gives the most access, the lowest first."""
    p = st.players[seat]
    cells = virtual_cells(p)
    best, chosen = -math.inf, []
    for a in removals:
        i = pyramid.index(a["level"], a["pos"])
        after = cells[:]
        after[i] = None
        value = access(after, p.down) * 10 - LEVEL[i]
        if value > best:
            best, chosen = value, [a]
        elif value == best:
            chosen.append(a)
    return chosen[rand.randrange(len(chosen))]


def _can_hire(st: State, p: PlayerState) -> bool:
    return MERCHANT in p.stored or _reaches(st, p, MERCHANT)


def _fits_anywhere(p: PlayerState, card: int) -> bool:
    return bool(pyramid.fitting(p.cells, p.down, card))


def _score(st: State, seat: int, a: dict[str, Any], unseen: list[int]) -> float:
    p = st.players[seat]
    kind = a["kind"]
    if kind == "pass":
        return 0.0
    if kind in ("hire", "place", "place_rm"):
        i = pyramid.index(a["level"], a["pos"])
        card = a.get("card")
        if kind == "place":
            card = st.recruit[st.area]
        cells = p.cells[:]
        cells[i] = card if card is not None else -1
        down = set(p.down)
        if card is None:  # the face-down RM: wild, like the foundation one
            down.add(-1)
        after = buildability(cells, down, unseen)
        value = 100 + 12 * LEVEL[i] + 8 * after + 3 * access(cells, down)
        if card is not None and TYPE[card] == MERCHANT:
            value += 6  # HIRE at its level's phase
        if i == pyramid.MASTER:
            value += 1000
        if a.get("source") == "token":
            value -= 3
        return value
    if kind == "take":
        return 50.0
    card = a["card"]
    t = TYPE[card]
    # A card that fits is worth keeping for a hire, if the structure can still hire.
    waste = 25.0 if _fits_anywhere(p, card) and _can_hire(st, p) else 0.0
    stored = p.stored[:]
    cost = 0.0
    if a.get("source") == "token":  # a used token is a token less
        used = ACTION_OF[kind]
        stored.remove(used)
        cost = _token_value(st, p, used, stored)
    if kind == "teach":
        held = len(p.rm_tokens)
        return (90.0 if held == 3 else 20.0 + 12 * held) - waste - cost
    if kind == "barter":
        back = a.get("return_token")
        if back is not None:
            stored.remove(ICON_INDEX[back])
            cost += _token_value(st, p, ICON_INDEX[back], stored)
        return 2.0 + _token_value(st, p, t, stored) - waste - cost
    # recruit: worth it where this Knight makes a strict majority
    area = t
    mine = st.knights[area][seat] + 1
    others = max([n for q, n in enumerate(st.knights[area]) if q != seat] + [st.opposing[area]])
    value = 4.0
    target = st.recruit[area]
    if mine > others and target is not None:
        value = 35.0 + (40.0 if _fits_anywhere(p, target) else 0.0)
    origin = a["knight"]
    if origin != "supply" and majority(st, ICON_INDEX[origin]) == seat:
        value -= 30.0  # moving it would give up an area it is winning
    return value - waste - cost


# What a stored token is worth (coin, book, bread, shield), less for each one already held.
TOKEN_VALUE = (20.0, 10.0, 4.0, 8.0)


def _token_value(st: State, p: PlayerState, t: int, stored: list[int]) -> float:
    value = TOKEN_VALUE[t]
    if t == SCHOLAR and len(p.rm_tokens) == 3 and not _reaches(st, p, SCHOLAR):
        value = 30.0  # the last RM token needs a TEACH it has no other way to take
    return value / (1 + stored.count(t))


def _reaches(st: State, p: PlayerState, t: int) -> bool:
    """Whether some uncovered worker gives the action of type ``t`` at some level (after
    the seat's pending removals)."""
    cells = virtual_cells(p) if st.stage == "action" else p.cells
    return any(pyramid.gives(cells, p.down, level, t) for level in range(1, 5))


def _foundation(
    st: State, seat: int, rand: random.Random, actions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The order whose level-2 positions the Recruit board's cards fit best, a Merchant on
    an edge (covered by one card only, it gives HIRE longer); then its next worker."""
    p = st.players[seat]
    if p.done:  # nothing to change: keep the choice (only "reset" was offered)
        return actions[0]
    best, best_orders = -1.0, []
    visible = [c for c in st.recruit if c is not None]
    for order in itertools.permutations(range(5)):
        if list(order[: len(p.picks)]) != p.picks:
            continue
        cells = [foundation_card(seat, w) for w in order] + [None] * 10
        value = sum(1 for c in visible if pyramid.fitting(cells, (), c))
        if order[0] == MERCHANT or order[4] == MERCHANT:
            value += 2
        if order[0] == RM or order[4] == RM:
            value -= 1  # a wild RM in the middle helps two positions
        if value > best:
            best, best_orders = value, [order]
        elif value == best:
            best_orders.append(order)
    order = best_orders[rand.randrange(len(best_orders))]
    return {"kind": "foundation", "worker": FOUNDATION[order[len(p.picks)]]}


def _discard(st: State, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Discard the cards that fit nowhere and that no action it can take would use well
    (a fresh card may fit); then confirm."""
    p = st.players[seat]
    reach = {t for t in range(4) if t in p.stored or _reaches(st, p, t)}
    for a in actions:
        if a["kind"] != "discard":
            continue
        card = a["card"]
        if _fits_anywhere(p, card):
            continue
        teach = SCHOLAR in reach and TYPE[card] not in p.rm_tokens
        barter = BAKER in reach and _token_value(st, p, TYPE[card], p.stored) >= 8.0
        if not teach and not barter:
            return a
    done = [a for a in actions if a["kind"] == "done"]
    if done:
        return done[0]
    discards = [a for a in actions if a["kind"] == "discard"]  # stalled: one must go
    return stall.least_useful(st, seat, discards) if discards else actions[0]
