"""Random games for the tests, and the secrets a viewer must not depend on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.core import Match
from games.renaissance import engine, pyramid
from games.renaissance.cards import FOUNDATION
from games.renaissance.game import RENAISSANCE
from games.renaissance.random_player import choose
from games.renaissance.state import State

# No digits in the names: the secrets tests read numbers in a line as cards or places.
NAMES = ["Ann", "Bob", "Cid", "Dee"]
CLOSING = ("hire", "barter", "teach", "recruit", "pass")


@dataclass
class Move:
    match: Match
    seat: int
    action: dict
    events: list[dict]


def new_match(players: int = 3, seed: int = 7, options: dict | None = None) -> Match:
    opts = RENAISSANCE.parse_options(options, players)
    return Match(RENAISSANCE, opts, NAMES[:players], seed)


def random_game(seed: int, players: int | None = None, max_rounds: int = 60) -> Iterator[Move]:
    """One game of random-legal play with changed submissions, undos, the odd resignation
    and the odd computer move; yields after every action."""
    rand = random.Random(seed)
    match = new_match(players or rand.randint(1, 4), seed)
    st = match.state
    while RENAISSANCE.phase(match.state) != "over" and match.state.round <= max_rounds:
        seat, action = _next_move(match, rand)
        events = match.apply(action, seat)
        st = match.state
        yield Move(match, seat, action, events)
    assert st is match.state


def _next_move(match: Match, rand: random.Random) -> tuple[int, dict]:
    st = match.state
    staying = [q for q in st.seats if q not in st.resigned]
    if rand.random() < 0.002 and staying:
        return rand.choice(staying), {"kind": "resign"}
    last = st.last_seat
    if last is not None and RENAISSANCE.can_undo(st, last) and rand.random() < 0.05:
        return last, {"kind": "undo"}
    done = [q for q in st.seats if st.players[q].done and engine.legal_actions(st, q)]
    if done and st.stage != "recruit" and rand.random() < 0.1:  # change a submission
        seat = rand.choice(done)
        return seat, rand.choice(engine.legal_actions(st, seat))
    seat = rand.choice(sorted(engine.deciders(st)))
    if rand.random() < 0.05:
        return seat, RENAISSANCE.choose(st, seat, rand)
    return seat, choose(st, seat, rand)


def others_hidden(st: State, viewer: int | None, rand: random.Random) -> State:
    """``st`` with everything ``viewer`` may not know changed: the order and contents of
    the deck and the discard pile, other hands (but for the cards every seat saw taken),
    every face-down card's face, other seats' unrevealed submissions (to other ones of the
    same status) and the generator."""
    other = st.clone()
    other.rng = rand.getrandbits(64)
    ps = other.players
    # Every card whose identity the viewer cannot know, dealt again among the same places.
    slots: list[tuple[str, int, int]] = []
    slots += [("deck", 0, k) for k in range(len(other.deck))]
    slots += [("discard", 0, k) for k in range(len(other.discard))]
    for q, p in enumerate(ps):
        if q != viewer:  # but the cards every seat saw it take
            slots += [("hand", q, k) for k, c in enumerate(p.hand) if c not in p.known]
        slots += [("cell", q, i) for i in range(pyramid.SIZE) if p.cells[i] in p.down]
        if other.stage == "rm" and p.picks:
            slots.append(("rm", q, 0))
    cards = [_get(other, s) for s in slots]
    rand.shuffle(cards)
    for s, c in zip(slots, cards, strict=True):
        _put(other, s, c)
    for q, p in enumerate(ps):
        p.down = [
            p.cells[i] for i in range(pyramid.SIZE) if st.players[q].cells[i] in st.players[q].down
        ]
        if q != viewer:
            _other_submission(other, q, rand)
    return other


def _get(st: State, slot) -> int:
    where, q, k = slot
    if where == "deck":
        return st.deck[k]
    if where == "discard":
        return st.discard[k]
    if where == "hand":
        return st.players[q].hand[k]
    if where == "cell":
        return st.players[q].cells[k]
    return st.players[q].picks[0]


def _put(st: State, slot, card: int) -> None:
    where, q, k = slot
    if where == "deck":
        st.deck[k] = card
    elif where == "discard":
        st.discard[k] = card
    elif where == "hand":
        st.players[q].hand[k] = card
    elif where == "cell":
        st.players[q].cells[k] = card
    else:
        st.players[q].picks[0] = card


def _other_submission(st: State, q: int, rand: random.Random) -> None:
    p = st.players[q]
    stage = st.stage
    if stage == "foundation":
        order = list(range(5))
        rand.shuffle(order)
        p.picks = order if p.done else order[: rand.randint(0, 3)]
    elif stage == "action":
        p.picks, p.choice = [], None
        if p.done:
            options = [a for a in engine.legal_actions(st, q) if a["kind"] in CLOSING]
            p.choice = rand.choice(options)
    elif stage == "rm" and p.picks and p.done:
        p.choice = pyramid.where(rand.choice(pyramid.open_positions(p.cells)))
    elif stage == "discard":
        p.picks = [c for c in p.hand if rand.random() < 0.5]


SECRET_FIELDS = {
    "foundation": ("worker",),
    "remove": ("level", "pos"),
    "choose": ("action",),
    "place_rm": ("level", "pos"),
    "discard": ("card",),
    "keep": ("card",),
    "discard_done": ("cards",),
    "deal": ("cards",),
}


def hide_events(events: list[dict], viewer: int | None, rand: random.Random) -> list[dict]:
    """The events with every secret ``viewer`` may not know changed."""
    out = []
    for e in events:
        e = dict(e)
        kind = e["type"]
        if kind == "rm_drawn":  # a face-down card: secret even to its owner
            e["card"] = rand.randrange(96)
        elif kind == "discards":
            e["cards"] = [
                cards if q == viewer else [rand.randrange(96) for _ in cards]
                for q, cards in enumerate(e["cards"])
            ]
        elif kind in SECRET_FIELDS and e["player"] != viewer:
            for name in SECRET_FIELDS[kind]:
                e[name] = _other_value(name, e[name], rand)
        out.append(e)
    return out


def _other_value(name: str, value, rand: random.Random):
    if name == "worker":
        return rand.choice(FOUNDATION)
    if name == "level":
        return rand.randint(2, 5)
    if name == "pos":
        return rand.randint(0, 3)
    if name == "action":
        return {"kind": "pass"}
    if name == "card":
        return rand.randrange(96)
    return [rand.randrange(96) for _ in value]  # cards
