"""A full state (hidden parts included) to and from JSON, checked on loading.

This is how games are stored and how a test sets up any situation (with ``builder``).
Loading refuses a broken position with a ValueError that names what is wrong: every one of
the 96 cards and every player's 5 foundation cards must be in exactly one place.
"""

from __future__ import annotations

import copy
from typing import Any, Literal, overload

from . import pyramid
from .cards import DECK_SIZE, NEED_L, NEED_R, foundation_cards, is_foundation
from .engine import MAX_PLAYERS, MIN_PLAYERS, SOLO_VARIANTS
from .formats import FORMATS
from .legal import ACTION_FIELDS
from .pyramid import BELOW, LEVEL, POS, SIZE
from .state import KNIGHTS, RULES, STAGES, STORE_SLOTS, PlayerState, State, copy_revealed

# The formats and their upgraders are in ``formats``; every one is read.
FORMAT = FORMATS.current
# A stored state has exactly the fields the state has (``State.fields_json`` writes them),
# after its format number.
_STATE_KEYS = frozenset({"format", *State.__slots__})
_PLAYER_KEYS = frozenset(PlayerState.__slots__)


def to_json(st: State) -> dict[str, Any]:
    return {"format": FORMAT, **st.fields_json()}


def from_json(data: object) -> State:
    """Read a stored state back; ValueError naming the first thing wrong."""
    try:
        st = _read(data)
        check(st)
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        # The error's type only: its text may name a card (a KeyError's key).
        raise ValueError(f"malformed Renaissance Man state: {type(error).__name__}") from None
    return st


def _read(data: object) -> State:
    if not isinstance(data, dict):
        raise ValueError("a Renaissance Man state is a JSON object")
    data = FORMATS.upgrade(data)
    if set(data) != _STATE_KEYS:
        raise ValueError(f"a Renaissance Man state has exactly the fields {sorted(_STATE_KEYS)}")
    names = data["names"]
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise ValueError("names must be a list of strings")
    st = State(dict(data["options"]), names, data["rng"])
    st.rules = data["rules"]
    st.deck = _ints(data["deck"], "deck")
    st.discard = _ints(data["discard"], "discard pile")
    st.recruit = _ints(data["recruit"], "Recruit board", none=True)
    st.knights = [_ints(row, "knights") for row in data["knights"]]
    st.opposing = _ints(data["opposing"], "opposing Knights")
    players = data["players"]
    if not isinstance(players, list) or len(players) != len(names):
        raise ValueError("one player entry per name")
    st.players = [_read_player(q, pd) for q, pd in enumerate(players)]
    for key in ("stage", "round", "phase", "step", "area", "reshuffles", "last_seat"):
        setattr(st, key, data[key])
    st.last_undoable = data["last_undoable"]
    st.undoable = _ints(data["undoable"], "seats that may undo")
    st.revealed = copy_revealed(data["revealed"])
    st.resigned = _ints(data["resigned"], "resigned seats")
    st.result = copy.deepcopy(data["result"])
    return st


def _read_player(q: int, pd: object) -> PlayerState:
    if not isinstance(pd, dict) or set(pd) != _PLAYER_KEYS:
        raise ValueError(f"player {q} must have exactly the fields {sorted(_PLAYER_KEYS)}")
    p = PlayerState()
    p.hand = _ints(pd["hand"], f"player {q}'s hand")
    p.known = _ints(pd["known"], f"player {q}'s known hand cards")
    p.cells = _ints(pd["cells"], f"player {q}'s structure", none=True)
    p.down = _ints(pd["down"], f"player {q}'s face-down cards")
    p.stored = _ints(pd["stored"], f"player {q}'s Stored Actions")
    p.rm_tokens = _ints(pd["rm_tokens"], f"player {q}'s RM area")
    p.supply = pd["supply"]
    p.picks = _ints(pd["picks"], f"player {q}'s submission")
    p.removals = _ints(pd["removals"], f"player {q}'s removals")
    choice = pd["choice"]
    if choice is not None and not isinstance(choice, dict):
        raise ValueError(f"player {q}'s choice must be an object or null")
    p.choice = None if choice is None else dict(choice)
    p.done = pd["done"]
    p.best = pd["best"]
    p.idle = pd["idle"]
    return p


@overload
def _ints(xs: object, what: str) -> list[int]: ...


@overload
def _ints(xs: object, what: str, none: Literal[True]) -> list[int | None]: ...


def _ints(xs: object, what: str, none: bool = False) -> list[int] | list[int | None]:
    if not isinstance(xs, list) or not all(type(x) is int or (none and x is None) for x in xs):
        raise ValueError(f"the {what} must be a list of ints")
    return list(xs)


def _is_int(x: object, low: int, high: int) -> bool:
    return type(x) is int and low <= x <= high


def check(st: State) -> None:
    """Every invariant of a position; ValueError naming the first one broken."""
    n = len(st.names)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not _is_int(st.rules, 1, RULES):
        raise ValueError(f"no rules version {st.rules!r}")
    opts = st.options
    if (
        set(opts) != {"solo", "solo_cards"}
        or opts["solo"] not in SOLO_VARIANTS
        or not _is_int(opts["solo_cards"], 1, 60)
    ):
        raise ValueError("bad options")
    if not _is_int(st.rng, 0, (1 << 64) - 1):
        raise ValueError("the generator state must be a 64-bit int")
    if st.stage not in STAGES:
        raise ValueError(f"unknown stage {st.stage!r}")
    for key, high in (("round", 10**6), ("phase", 4), ("step", 10**9), ("area", 4)):
        if not _is_int(getattr(st, key), 0, high):
            raise ValueError(f"bad {key}")
    if not _is_int(st.reshuffles, 0, 10**6):
        raise ValueError("bad reshuffle count")
    if st.last_seat is not None and not _is_int(st.last_seat, 0, n - 1):
        raise ValueError("bad last seat")
    if type(st.last_undoable) is not bool:
        raise ValueError("bad undo flag")
    if st.undoable != sorted(set(st.undoable)) or not all(0 <= q < n for q in st.undoable):
        raise ValueError("bad seats that may undo")
    if len(set(st.resigned)) != len(st.resigned) or not all(0 <= q < n for q in st.resigned):
        raise ValueError("bad resigned seats")
    if (st.stage == "over") != (st.result is not None):
        raise ValueError("a result exactly when the game is over")
    if st.stage == "action" and not 1 <= st.phase <= 4:
        raise ValueError("an action phase is 1 to 4")
    _check_cards(st)
    _check_board(st)
    for q, p in enumerate(st.players):
        _check_structure(st, q, p)
        _check_tokens(q, p)
        _check_known(q, p)
        _check_submission(st, q, p)


def _check_cards(st: State) -> None:
    """Each of the 96 cards in exactly one place; foundation cards only in level 1."""
    place: dict[int, str] = {}

    def put(card: int, where: str) -> None:
        if card < 0 or card >= DECK_SIZE:
            raise ValueError(f"the {where} holds something that is not a deck card")
        if card in place:
            raise ValueError(f"a card is both in the {place[card]} and in the {where}")
        place[card] = where

    card: int | None
    for card in st.deck:
        put(card, "deck")
    for card in st.discard:
        put(card, "discard pile")
    for area, card in enumerate(st.recruit):
        if card is not None:
            put(card, f"Recruit area {area}")
    for q, p in enumerate(st.players):
        for card in p.hand:
            put(card, f"hand of player {q}")
        for i, card in enumerate(p.cells):
            if card is not None and (i >= 5 or not is_foundation(card)):
                put(card, f"structure of player {q}")
        if st.stage == "rm":
            for card in p.picks:
                put(card, f"new Renaissance Man of player {q}")
    missing = sorted(set(range(DECK_SIZE)) - set(place))
    if missing:
        raise ValueError(f"{len(missing)} cards are nowhere")


def _check_board(st: State) -> None:
    n = len(st.names)
    if len(st.recruit) != 4 or len(st.knights) != 4 or len(st.opposing) != 4:
        raise ValueError("the Recruit board has 4 areas")
    for area in range(4):
        row = st.knights[area]
        if len(row) != n or any(k < 0 for k in row):
            raise ValueError(f"bad Knights in Recruit area {area}")
        if st.opposing[area] < 0 or (st.opposing[area] and n != 1):
            raise ValueError(f"bad opposing Knights in Recruit area {area}")
    for q, p in enumerate(st.players):
        on_board = sum(st.knights[a][q] for a in range(4))
        if type(p.supply) is not int or p.supply < 0 or p.supply + on_board != KNIGHTS:
            raise ValueError(f"player {q} must have {KNIGHTS} Knights")
        if not _is_int(p.best, 0, SIZE) or not _is_int(p.idle, 0, 10**6):
            raise ValueError(f"player {q}'s progress must be counts")


def _check_structure(st: State, q: int, p: PlayerState) -> None:
    cells = p.cells
    if len(cells) != SIZE:
        raise ValueError(f"player {q}'s structure has {SIZE} positions")
    own = foundation_cards(q)
    level1 = cells[:5]
    unset = all(c is None for c in cells)
    # Empty until the foundation is set, and for good in a game that ended before it was (a
    # resignation in the foundation step).
    if st.stage == "foundation" or (st.stage == "over" and unset):
        if not unset:
            raise ValueError(f"player {q}'s structure is empty until the foundation is set")
    elif sorted(c for c in level1 if c is not None) != own or None in level1:
        raise ValueError(f"player {q}'s level 1 must be their 5 foundation cards")
    down = set(p.down)
    if len(down) != len(p.down) or not down <= {c for c in cells[5:] if c is not None}:
        raise ValueError(f"player {q}'s face-down cards must be in their structure")
    for i in range(5, SIZE):
        card = cells[i]
        if card is None:
            continue
        if is_foundation(card):
            raise ValueError(f"player {q} has a foundation card above level 1")
        below = BELOW[i]
        assert below is not None  # level 2 or higher
        left, right = below
        on_left, on_right = cells[left], cells[right]
        if on_left is None or on_right is None:
            raise ValueError(f"player {q}'s card at level {LEVEL[i]}, {POS[i]} rests on nothing")
        if card in down:
            continue
        have_l = pyramid.offers(on_left, down)[1]
        have_r = pyramid.offers(on_right, down)[0]
        if (have_l not in (4, NEED_L[card])) or (have_r not in (4, NEED_R[card])):
            raise ValueError(
                f"player {q}'s card at level {LEVEL[i]}, {POS[i]} does not match the cards below it"
            )


def _check_known(q: int, p: PlayerState) -> None:
    if len(set(p.known)) != len(p.known) or not set(p.known) <= set(p.hand):
        raise ValueError(f"player {q}'s known hand cards must be cards of their hand, once each")


def _check_tokens(q: int, p: PlayerState) -> None:
    if len(p.stored) > STORE_SLOTS or p.stored != sorted(p.stored):
        raise ValueError(f"player {q} has at most {STORE_SLOTS} Stored Actions, sorted")
    if any(not 0 <= t <= 3 for t in p.stored + p.rm_tokens):
        raise ValueError(f"player {q} has a token of no type")
    if p.rm_tokens != sorted(set(p.rm_tokens)) or len(p.rm_tokens) > 3:
        raise ValueError(f"player {q}'s RM area holds at most one token of each type")


def _check_submission(st: State, q: int, p: PlayerState) -> None:
    if type(p.done) is not bool:
        raise ValueError(f"player {q}'s submitted flag must be a bool")
    stage, picks, choice = st.stage, p.picks, p.choice
    cells = p.cells[:]  # after the pending removals, each of an uncovered worker in turn
    for i in p.removals:
        if stage not in ("action", "rm", "discard") or i not in pyramid.removable(cells):
            raise ValueError(f"player {q}'s pending removals are broken")
        cells[i] = None
    bad = False
    if stage == "foundation":
        bad = (
            len(set(picks)) != len(picks)
            or any(not 0 <= w <= 4 for w in picks)
            or p.done != (len(picks) == 5)
            or choice is not None
        )
    elif stage == "action":
        bad = bool(picks)
        if choice is not None and (choice.get("kind") not in ACTION_FIELDS or p.done is not True):
            bad = True
        bad = bad or (choice is None and p.done)
    elif stage == "rm":
        if picks:
            bad = len(picks) > 1 or p.done != (choice is not None)
        else:
            bad = choice is not None or not p.done or bool(p.removals)
        if choice is not None:
            chosen: int | None
            try:
                chosen = pyramid.index(choice["level"], choice["pos"])
            except (KeyError, ValueError):
                chosen = None
            bad = bad or chosen not in pyramid.open_positions(cells)
    elif stage == "discard":
        bad = (
            len(set(picks)) != len(picks)
            or not set(picks) <= set(p.hand)
            or choice is not None
            or (not p.hand and (not p.done or bool(p.removals)))
        )
    else:  # recruit, over: nothing pending
        bad = bool(picks) or choice is not None
    if bad:
        raise ValueError(f"player {q}'s pending submission is broken")
