"""A copy of the state as one seat could imagine it: what it cannot see dealt anew.

The search (``search.py``) plays its imagined futures on these copies only. The seat cannot
see the deck's order, the discard pile's contents, the other hands (but for the cards every
seat saw them take: ``PlayerState.known``), any face-down card's face (its own included, and
the new Renaissance Man it waits to place), nor the generator: all those cards are gathered,
sorted (so that the deal depends on what the seat knows, not on where the real cards are),
shuffled and dealt back to the same places.

In a simultaneous step the other seats' submissions are secret too. That a seat has
submitted is public (its view says so), what it chose is not: every other seat's pending
submission is dropped, and one that had submitted gets one imagined for it (``chooser``,
from its imagined hand), so that the step still waits only for the seats it waits for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from games.core.rng import MASK

from .legal import legal_actions
from .stall import escape
from .state import PlayerState, State

# A seat's public and own parts: everything else of a PlayerState is its submission in the
# current step (picks, choice, done, and whatever a later engine adds there).
_NOT_SUBMISSION = frozenset(
    {"hand", "known", "cells", "down", "stored", "rm_tokens", "supply", "best", "idle"}
)
_SUBMISSION = tuple(name for name in PlayerState.__slots__ if name not in _NOT_SUBMISSION)
# The steps where every seat chooses at once, in secret (views.py's list).
SIMULTANEOUS = frozenset({"foundation", "action", "rm", "discard"})
# Taking back a part of one's own submission: never imagined, so that submissions end.
TAKE_BACK = frozenset({"reset", "keep"})

Chooser = Callable[[State, int, list[dict[str, Any]], random.Random], dict[str, Any]]


def determinize(st: State, seat: int, rand: random.Random, chooser: Chooser | None = None) -> State:
    """A fresh copy of ``st`` as ``seat`` may imagine it (``chooser(state, seat, actions,
    rand)`` imagines the submissions of the seats that have submitted; by default a random
    legal action, never a take-back)."""
    s = st.clone()
    _redeal(s, seat, rand)
    s.rng = rand.getrandbits(64) & MASK
    if s.stage in SIMULTANEOUS:
        last = s.last_seat, s.last_undoable, s.undoable  # who may undo is public: kept
        _imagine_submissions(s, seat, rand, chooser or _any_action)
        s.last_seat, s.last_undoable, s.undoable = last
    return s


def _redeal(s: State, seat: int, rand: random.Random) -> None:
    """Every card ``seat`` cannot see dealt again among the same places."""
    # (a list of cards, a place in it): the deck, the discard pile, hands, structures, picks
    slots: list[tuple[list[Any], int]] = [(s.deck, i) for i in range(len(s.deck))]
    slots += [(s.discard, i) for i in range(len(s.discard))]
    down_at: list[list[int]] = []
    for q, p in enumerate(s.players):
        if q != seat:
            known = set(p.known)
            slots += [(p.hand, i) for i, c in enumerate(p.hand) if c not in known]
        at = [i for i, c in enumerate(p.cells) if c is not None and c in p.down]
        down_at.append(at)
        slots += [(p.cells, i) for i in at]
        if s.stage == "rm" and p.picks:  # a new Renaissance Man, face down until placed
            slots.append((p.picks, 0))
    _deal(slots, rand)
    for p, at in zip(s.players, down_at, strict=True):
        # In place order, not in the real order of play (a face-down place holds a card).
        p.down = [cast(int, p.cells[i]) for i in at]


def _deal(slots: list[tuple[list[Any], int]], rand: random.Random) -> None:
    cards = sorted(place[i] for place, i in slots)
    rand.shuffle(cards)
    for (place, i), card in zip(slots, cards, strict=True):
        place[i] = card


def _imagine_submissions(s: State, seat: int, rand: random.Random, chooser: Chooser) -> None:
    for q, p in enumerate(s.players):
        if q == seat:
            continue
        submitted = p.done
        drawn = p.picks[:1] if s.stage == "rm" else []  # that it has one to place is public
        blank = PlayerState()
        for name in _SUBMISSION:
            value = getattr(blank, name)
            setattr(p, name, value[:] if isinstance(value, list) else value)
        p.picks = drawn
        if not legal_actions(s, q):  # nothing to decide in this step: not waited for
            p.done = True
        elif submitted:
            complete(s, q, rand, chooser)


def complete(s: State, q: int, rand: random.Random, chooser: Chooser) -> None:
    """Seat ``q`` chooses until it has submitted (``chooser`` never takes anything back)."""
    from .engine import apply  # the engine imports nothing of the computer players

    for _ in range(64):  # a safety stop: a submission is a few choices
        if s.players[q].done:
            return
        actions = [a for a in escape(s, q, legal_actions(s, q)) if a["kind"] not in TAKE_BACK]
        apply(s, q, chooser(s, q, actions, rand))
    raise RuntimeError(f"seat {q}'s imagined submission does not end")


def _any_action(
    s: State, q: int, actions: list[dict[str, Any]], rand: random.Random
) -> dict[str, Any]:
    # Never a removal unless nothing else is offered: a random one undoes the structure.
    closing = [a for a in actions if a["kind"] != "remove"] or actions
    return closing[rand.randrange(len(closing))]


def hidden_cards(st: State, seat: int) -> list[int]:
    """The cards ``seat`` cannot see, sorted (what ``determinize`` deals out)."""
    cards = list(st.deck) + list(st.discard)
    for q, p in enumerate(st.players):
        if q != seat:
            cards += [c for c in p.hand if c not in p.known]
        cards += [c for c in p.cells if c is not None and c in p.down]
        if st.stage == "rm" and p.picks:
            cards.append(p.picks[0])
    return sorted(cards)


__all__ = ["SIMULTANEOUS", "TAKE_BACK", "complete", "determinize", "hidden_cards"]
