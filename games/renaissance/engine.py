"""The rules: setup, the simultaneous steps of a round, their reveal and resolution, the
end of the game and the ranking, resigning.

A round is: action phases 1..4 (each a simultaneous secret step, then a follow-up step when
a Renaissance Man is generated), Recruit resolution (the winner of an area chooses where its
card goes), the discard step (simultaneous, secret), refills. ``apply`` either changes the
state and returns its events, or raises IllegalAction and changes nothing: every action is
checked in full (``legal``) before anything moves.
"""

from __future__ import annotations

from typing import Any

from games.core import rng
from games.core.errors import IllegalAction
from games.core.i18n import gettext as _

from . import legal, pyramid
from .cards import (
    ACTION_OF,
    DECK_SIZE,
    FOUNDATION,
    ICON_INDEX,
    TYPE,
    foundation_card,
    foundation_word,
)
from .legal import ACTION_FIELDS, check_shape, legal_actions, majority, position
from .pyramid import LEVEL, MASTER, POS
from .state import KNIGHTS, PlayerState, State

MIN_PLAYERS, MAX_PLAYERS = 1, 4
HAND = 4
DEFAULT_OPTIONS = {"solo": "standard", "solo_cards": 10}
SOLO_VARIANTS = ("standard", "easier", "tougher")
# Kinds that only change the actor's own unrevealed submission: undoable while they
# revealed nothing (the step did not move on).
SECRET_KINDS = {k for k in ACTION_FIELDS if k not in ("take", "place")}

__all__ = [
    "ACTION_FIELDS",
    "apply",
    "can_undo",
    "check_shape",
    "deciders",
    "legal_actions",
    "new_game",
    "ranking",
    "resign",
]


class _DeckOut(Exception):
    """A one-player draw found the deck empty: the game is lost."""


# A new game -------------------------------------------------------------------------------


def new_game(options: dict[str, Any] | None, names: list[str], seed: int) -> State:
    """A game for ``names`` (seat order; the dealer is the last seat) from a secret seed:
    the deck is shuffled and the Recruit board dealt; every seat sets its foundation."""
    options = {**DEFAULT_OPTIONS, **(options or {})}
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"Renaissance Man is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if options["solo"] not in SOLO_VARIANTS or type(options["solo_cards"]) is not int:
        raise ValueError("bad one-player options")
    st = State(options, list(names), rng.seed_state(seed))
    deck = list(range(DECK_SIZE))
    st.rng = rng.shuffle(st.rng, deck)
    st.deck = deck
    if st.solo and options["solo"] == "tougher":  # cards removed face down before play
        for _card in range(min(options["solo_cards"], DECK_SIZE - 30)):
            st.discard.append(st.deck.pop())
    for area in range(4):
        st.recruit[area] = st.deck.pop()
    return st


# Who decides ------------------------------------------------------------------------------


def deciders(st: State) -> frozenset[int]:
    """The seats the current step waits for: in a simultaneous step, those that have not
    submitted; at a Recruit area, its winner."""
    stage = st.stage
    if stage == "over":
        return frozenset()
    if stage == "recruit":
        winner = majority(st, st.area)
        return frozenset() if winner is None or winner < 0 else frozenset((winner,))
    return frozenset(q for q, p in enumerate(st.players) if not p.done)


def can_undo(st: State, seat: int) -> bool:
    # Each seat's own: another seat's pick in the same simultaneous step takes nobody's away.
    return st.stage != "over" and seat in st.undoable


def private_record(st: State) -> bool:
    """The last action changed only its seat's submission, unrevealed, in a simultaneous
    step still open (the Recruit winner's removals are public at once)."""
    return st.last_undoable and st.stage in ("foundation", "action", "rm", "discard")


# Applying an action -----------------------------------------------------------------------


def apply(st: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    check_shape(action)
    if st.stage == "over":
        raise IllegalAction("game_over", _("The game is over"))
    if type(seat) is not int or not 0 <= seat < len(st.players):
        raise IllegalAction(
            "no_such_seat", _("There is no seat {seat} in this game").format(seat=repr(seat))
        )
    kind = action["kind"]
    if kind == "resign":
        return resign(st, seat)
    if kind == "undo":
        raise IllegalAction("undo_not_allowed", _("Undo is done by the match, when allowed"))
    if not legal.answers(st, kind):
        raise IllegalAction(
            "wrong_decision",
            _("A {kind} action does not answer this step").format(kind=repr(kind)),
        )
    step = st.step
    events: list[dict[str, Any]] = []
    try:
        _HANDLERS[kind](st, seat, action, events)
    except _DeckOut:
        _end(st, events, reason="deck_out")
    st.last_seat = seat
    st.last_undoable = kind in SECRET_KINDS and st.step == step and st.stage != "over"
    if private_record(st):
        # A private part of a simultaneous step: the seats that may take back theirs are
        # those that could before, and this one (nobody else's changes).
        st.undoable = sorted({*st.undoable, seat})
    else:
        st.undoable = [seat] if st.last_undoable else []
    return events


def _involved(st: State, seat: int) -> None:
    """A seat with nothing to decide in this simultaneous step may not act in it."""
    p = st.players[seat]
    stage = st.stage
    if (stage == "rm" and not p.picks) or (stage == "discard" and not p.hand):
        raise IllegalAction("not_your_decision", _("You have nothing to decide in this step"))


def _foundation(st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    p = st.players[seat]
    worker = action["worker"]
    if worker not in FOUNDATION:
        raise IllegalAction(
            "no_such_worker", _("The foundation has no {worker}").format(worker=repr(worker))
        )
    w = FOUNDATION.index(worker)
    if p.done or w in p.picks:
        raise IllegalAction(
            "already_placed",
            _("Your foundation {worker} is already placed").format(worker=foundation_word(worker)),
        )
    p.picks.append(w)
    if len(p.picks) == 4:  # the last card goes to the last place by itself
        p.picks.append(next(x for x in range(5) if x not in p.picks))
        p.done = True
    events.append({"type": "foundation", "player": seat, "worker": worker, "done": p.done})
    if not deciders(st):
        _reveal_foundation(st, events)


def _reset(st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Take the submission back: in the foundation and an action phase all of it; where a
    card is placed (the face-down Renaissance Man) or discarded, the removals (and the
    place, which may have depended on them)."""
    _involved(st, seat)
    p = st.players[seat]
    was = p.done
    if st.stage in ("foundation", "action"):
        if not p.picks and not p.removals and p.choice is None:
            raise IllegalAction("nothing_to_reset", _("Your submission is empty"))
        p.clear_submission()
    else:
        if not p.removals:
            raise IllegalAction("nothing_to_reset", _("You have removed no worker"))
        p.removals = []
        if st.stage == "rm":
            p.choice = None
        p.done = False
    events.append({"type": "reset", "player": seat, "was": was})


def _remove(st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """An uncovered worker of level 2 or higher goes to the discard pile, as the first part
    of the seat's decision: at the reveal in a simultaneous step (what was chosen after it
    is chosen again: a freed place may take the card), at once for the Recruit winner."""
    p = st.players[seat]
    if st.stage == "recruit":
        if majority(st, st.area) != seat:
            raise IllegalAction("not_your_decision", _("Another player decides now"))
        cells = p.cells
    else:
        _involved(st, seat)
        cells = legal.virtual_cells(p)
    i = position(action)
    if i not in pyramid.removable(cells):
        raise IllegalAction(
            "not_removable", _("Only an uncovered worker of level 2 or higher may be removed")
        )
    if st.stage == "recruit":
        card = _take_down(st, p, i)
        events.append({"type": "removed", "player": seat, **_at(i), "card": card})
        return
    was = p.done
    p.removals.append(i)
    if st.stage != "discard":
        p.choice = None  # the action or place is chosen again after a removal
    p.done = False
    events.append({"type": "remove", "player": seat, "level": LEVEL[i], "pos": POS[i], "was": was})


def _take_down(st: State, p: PlayerState, i: int) -> int | None:
    """Remove the worker at ``i`` to the discard pile; its card for everyone to see, None
    for a face-down one (its face stays secret)."""
    card = p.cells[i]
    assert card is not None  # only a present worker is removed
    p.cells[i] = None
    st.discard.append(card)
    if card in p.down:
        p.down.remove(card)
        return None
    return card


def _act(st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if action["kind"] != "pass":
        legal.check_act(st, seat, action)
    p = st.players[seat]
    change = p.choice is not None
    p.choice, p.done = dict(action), True
    events.append({"type": "choose", "player": seat, "action": dict(action), "change": change})
    if not deciders(st):
        _reveal_actions(st, events)


def _place_rm(st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    _involved(st, seat)
    p = st.players[seat]
    i = position(action)
    if i not in pyramid.open_positions(legal.virtual_cells(p)):
        raise IllegalAction("does_not_fit", _("A card must rest on two adjacent cards"))
    change = p.choice is not None
    p.choice, p.done = {"level": LEVEL[i], "pos": POS[i]}, True
    events.append({"type": "place_rm", "player": seat, **p.choice, "change": change})
    if not deciders(st):
        _reveal_rm(st, events)


def _recruit_choice(
    st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    if majority(st, st.area) != seat:
        raise IllegalAction("not_your_decision", _("Another player decides now"))
    p = st.players[seat]
    card = st.recruit[st.area]
    assert card is not None  # an area without a card has no winner's choice
    if action["kind"] == "take":
        p.hand.append(card)
        p.known.append(card)
        events.append({"type": "recruit_take", "player": seat, "card": card, "area": st.area})
    else:
        i = position(action)
        if not pyramid.fits(p.cells, p.down, card, i):
            raise IllegalAction(
                "does_not_fit", _("The card's needs do not match the offers of that position")
            )
        p.cells[i] = card
        events.append(
            {"type": "recruit_place", "player": seat, "card": card, "area": st.area, **_at(i)}
        )
    _clear_area(st, st.area)
    st.recruit[st.area] = None
    st.area += 1
    _continue_recruit(st, events)


def _discard_pick(
    st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    _involved(st, seat)
    p = st.players[seat]
    card = action["card"]
    kind = action["kind"]
    if kind == "discard":
        if card not in p.hand or card in p.picks:
            raise IllegalAction(
                "card_not_in_hand",
                _("That card is not in your hand to discard"),
            )
        p.picks.append(card)
    else:
        if card not in p.picks:
            raise IllegalAction("not_picked", _("That card is not among your discards"))
        p.picks.remove(card)
    was = p.done
    p.done = False  # a changed selection is submitted again
    events.append({"type": kind, "player": seat, "card": card, "was": was})


def _discard_done(
    st: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    _involved(st, seat)
    p = st.players[seat]
    if p.done:
        raise IllegalAction("already_submitted", _("Your discards are already submitted"))
    p.done = True
    events.append({"type": "discard_done", "player": seat, "cards": p.picks[:]})
    if not deciders(st):
        _reveal_discards(st, events)


_HANDLERS = {
    "foundation": _foundation,
    "reset": _reset,
    "remove": _remove,
    "hire": _act,
    "barter": _act,
    "teach": _act,
    "recruit": _act,
    "pass": _act,
    "place_rm": _place_rm,
    "take": _recruit_choice,
    "place": _recruit_choice,
    "discard": _discard_pick,
    "keep": _discard_pick,
    "done": _discard_done,
}


def _at(i: int) -> dict[str, Any]:
    return {"level": LEVEL[i], "pos": POS[i]}


# Drawing ----------------------------------------------------------------------------------


def draw(st: State, events: list[dict[str, Any]]) -> int | None:
    """The top card of the deck, reshuffling the discard pile into a new deck when it is
    empty. One player: the empty deck loses the game (the easier variant first makes one
    new deck of ``solo_cards`` random cards of the pile)."""
    if not st.deck:
        if st.solo:
            if st.options["solo"] != "easier" or st.reshuffles:
                raise _DeckOut
            st.rng = rng.shuffle(st.rng, st.discard)
            n = min(st.options["solo_cards"], len(st.discard))
            st.deck = st.discard[len(st.discard) - n :]
            del st.discard[len(st.discard) - n :]
        else:
            st.deck = st.discard
            st.discard = []
            st.rng = rng.shuffle(st.rng, st.deck)
        st.reshuffles += 1
        events.append({"type": "reshuffle", "cards": len(st.deck)})
        if not st.deck:
            if st.solo:
                raise _DeckOut
            return None
    return st.deck.pop()


def _deal(st: State, events: list[dict[str, Any]]) -> None:
    """Hands back to 4, seat order from the dealer's left (seat 0 first)."""
    for seat, p in enumerate(st.players):
        cards = []
        while len(p.hand) < HAND:
            card = draw(st, events)
            if card is None:
                break
            p.hand.append(card)
            cards.append(card)
        if cards:
            events.append({"type": "deal", "player": seat, "cards": cards})


# The steps of a round ---------------------------------------------------------------------


def _foundation_order(p: PlayerState) -> list[str]:
    """The workers of a foundation just placed, left to right."""
    order = []
    for c in p.cells[:5]:
        assert c is not None  # placed
        order.append(FOUNDATION[TYPE[c]])
    return order


def _reveal_foundation(st: State, events: list[dict[str, Any]]) -> None:
    for seat, p in enumerate(st.players):
        for k, w in enumerate(p.picks):
            p.cells[k] = foundation_card(seat, w)
        p.clear_submission()
    events.append(
        {
            "type": "foundation_reveal",
            "orders": [_foundation_order(p) for p in st.players],
        }
    )
    _deal(st, events)
    st.round = 1
    _start_phase(st, 1, events)


def _start_phase(st: State, phase: int, events: list[dict[str, Any]]) -> None:
    st.stage = "action"
    st.phase = phase
    st.step += 1
    for p in st.players:
        p.clear_submission()
    events.append({"type": "phase", "round": st.round, "phase": phase})


def _reveal_actions(st: State, events: list[dict[str, Any]]) -> None:
    """Every submission revealed at once, then resolved in seat order (seat 0 first)."""
    submissions = []
    for seat, p in enumerate(st.players):
        submissions.append({"player": seat, "removals": _removals(p), "action": p.choice})
    st.revealed = {"round": st.round, "phase": st.phase, "submissions": submissions}
    events.append(
        {"type": "reveal", "round": st.round, "phase": st.phase, "submissions": submissions}
    )
    drawn: dict[int, int] = {}
    for seat, p in enumerate(st.players):
        _resolve(st, seat, p, events, drawn)
    for p in st.players:
        p.clear_submission()
    if drawn:
        _start_rm(st, drawn, events)
    else:
        _end_of_phase(st, events)


def _removals(p: PlayerState) -> list[dict[str, Any]]:
    """A seat's pending removals as revealed: where, and the card (None: face down)."""
    return [{**_at(i), "card": None if p.cells[i] in p.down else p.cells[i]} for i in p.removals]


def _resolve(
    st: State, seat: int, p: PlayerState, events: list[dict[str, Any]], drawn: dict[int, int]
) -> None:
    for i in p.removals:  # removals first, in order
        _take_down(st, p, i)
    action = p.choice
    assert action is not None  # every seat has chosen before the reveal
    kind = action["kind"]
    if kind == "pass":
        return
    card = action["card"]
    t = TYPE[card]
    p.hand.remove(card)
    if card in p.known:
        p.known.remove(card)
    if action["source"] == "token":
        p.stored.remove(ACTION_OF[kind])
    if kind == "hire":
        p.cells[position(action)] = card
        return
    st.discard.append(card)
    if kind == "barter":
        back = action.get("return_token")
        if back is not None:
            p.stored.remove(ICON_INDEX[back])
        p.stored.append(t)
        p.stored.sort()
    elif kind == "teach":
        p.rm_tokens.append(t)
        p.rm_tokens.sort()
        if len(p.rm_tokens) == 4:  # a Renaissance Man: the tokens go back, a card comes
            p.rm_tokens = []
            card = draw(st, events)
            if card is not None:
                drawn[seat] = card
                events.append({"type": "rm_drawn", "player": seat, "card": card})
    else:  # recruit
        k = action["knight"]
        if k == "supply":
            p.supply -= 1
        else:
            st.knights[ICON_INDEX[k]][seat] -= 1
        st.knights[t][seat] += 1


def _start_rm(st: State, drawn: dict[int, int], events: list[dict[str, Any]]) -> None:
    """Each new Renaissance Man is placed face down where its owner chooses, all at once.
    The owner is asked even with a single open place: removing workers first may free
    another (rulings §2)."""
    asked = False
    for seat, p in enumerate(st.players):
        card = drawn.get(seat)
        if card is None:
            p.done = True
        elif not (places := pyramid.open_positions(p.cells)):  # full (never before a Master)
            st.discard.append(card)
            p.done = True
        elif st.rules < 2 and len(places) == 1:  # rules 1: a single place is not asked
            _put_down(p, card, places[0])
            events.append({"type": "rm_placed", "placements": [{"player": seat, **_at(places[0])}]})
            p.done = True
        else:
            p.picks = [card]
            asked = True
    if asked:
        st.stage = "rm"
        st.step += 1
    else:
        _end_of_phase(st, events)


def _put_down(p: PlayerState, card: int, i: int) -> None:
    p.cells[i] = card
    p.down.append(card)


def _reveal_rm(st: State, events: list[dict[str, Any]]) -> None:
    placements = []
    for seat, p in enumerate(st.players):
        if p.picks:
            removals = _removals(p)
            for j in p.removals:
                _take_down(st, p, j)
            assert p.choice is not None  # a seat with a card to place has chosen where
            i = pyramid.index(p.choice["level"], p.choice["pos"])
            _put_down(p, p.picks[0], i)
            placement = {"player": seat, **_at(i)}
            if removals:
                placement["removals"] = removals
            placements.append(placement)
        p.clear_submission()
    events.append({"type": "rm_placed", "placements": placements})
    _end_of_phase(st, events)


def _end_of_phase(st: State, events: list[dict[str, Any]]) -> None:
    """After an action phase: the end on a Master, else the next phase if anyone has a card
    on its level, else the Recruit board."""
    if _any_master(st):
        _end(st, events, reason="master")
    elif st.phase < 4 and any(
        p.cells[i] is not None
        for p in st.players
        for i in range(pyramid.FIRST[st.phase], pyramid.FIRST[st.phase] + 5 - st.phase)
    ):
        _start_phase(st, st.phase + 1, events)
    else:
        _start_recruit(st, events)


def _any_master(st: State) -> bool:
    return any(p.cells[MASTER] is not None for p in st.players)


def _start_recruit(st: State, events: list[dict[str, Any]]) -> None:
    for p in st.players:
        p.clear_submission()
        p.done = True  # nobody submits anything here: the winners choose one by one
    if st.solo:  # the opposing Knights: one per flipped card
        flipped = []
        for _flip in range(2):
            card = draw(st, events)
            assert card is not None  # one player: an empty deck raised _DeckOut
            flipped.append(card)
            st.opposing[TYPE[card]] += 1
            st.discard.append(card)
        events.append({"type": "opposing", "cards": flipped})
    st.area = 0
    st.stage = "recruit"
    _continue_recruit(st, events)


def _continue_recruit(st: State, events: list[dict[str, Any]]) -> None:
    """Resolve the areas left to right from ``st.area``; stop at a winner's choice."""
    while st.area < 4:
        area = st.area
        knights = st.knights[area]
        if not any(knights) and not st.opposing[area]:
            st.area += 1
            continue
        winner = majority(st, area)
        card = st.recruit[area]
        if winner is None:
            if st.solo:  # a one-player tie removes every Knight there
                _clear_area(st, area)
                events.append({"type": "recruit_tie", "area": area, "removed": True})
            else:
                events.append({"type": "recruit_tie", "area": area, "removed": False})
            st.area += 1
            continue
        if card is None:  # cannot happen in play: an area is refilled every round
            _clear_area(st, area)
            st.area += 1
            continue
        events.append({"type": "recruit_win", "area": area, "player": winner, "card": card})
        if winner < 0:  # the opposing Knights' card is discarded
            st.discard.append(card)
            _clear_area(st, area)
            st.recruit[area] = None
            st.area += 1
            continue
        p = st.players[winner]
        if st.rules < 2:  # rules 1: asked only when the card fits as the structure stands
            asked = bool(pyramid.fitting(p.cells, p.down, card))
        else:
            asked = pyramid.fits_after_removals(p.cells, p.down, card)
        if asked:
            # The winner chooses: hand, or a position whose needs it meets (once the
            # workers they choose to remove are gone).
            st.step += 1
            return
        p.hand.append(card)
        p.known.append(card)
        events.append({"type": "recruit_take", "player": winner, "card": card, "area": area})
        _clear_area(st, area)
        st.recruit[area] = None
        st.area += 1
    if _any_master(st):
        _end(st, events, reason="master")
    else:
        _start_discard(st, events)


def _clear_area(st: State, area: int) -> None:
    """Every Knight in ``area`` goes back to its owner (the opposing ones leave); a won
    area's card has left it."""
    for seat, n in enumerate(st.knights[area]):
        st.players[seat].supply += n
        st.knights[area][seat] = 0
    st.opposing[area] = 0


def _start_discard(st: State, events: list[dict[str, Any]]) -> None:
    st.stage = "discard"
    st.step += 1
    for p in st.players:
        p.clear_submission()
        p.done = not p.hand
    if not deciders(st):
        _reveal_discards(st, events)


def _reveal_discards(st: State, events: list[dict[str, Any]]) -> None:
    cards, removed = [], []
    for p in st.players:
        removed.append(_removals(p))
        for i in p.removals:
            _take_down(st, p, i)
        for card in p.picks:
            p.hand.remove(card)
            st.discard.append(card)
        if p.picks:  # only how many is told: a card the others saw taken may be among them
            p.known = []
        cards.append(p.picks[:])
        p.clear_submission()
    event: dict[str, Any] = {"type": "discards", "cards": cards}
    if any(removed):
        event["removals"] = removed
    events.append(event)
    for area in range(4):  # refill the Recruit board, then the hands
        if st.recruit[area] is None:
            drawn = draw(st, events)
            st.recruit[area] = drawn
            if drawn is not None:
                events.append({"type": "refill", "area": area, "card": drawn})
    _deal(st, events)
    _count_progress(st)
    st.round += 1
    _start_phase(st, 1, events)


def _count_progress(st: State) -> None:
    """At the end of a round: a seat whose structure holds more cards than ever before made
    progress; every other seat has gone a round more without (``PlayerState.idle``)."""
    for p in st.players:
        cards = pyramid.count(p.cells)
        if cards > p.best:
            p.best, p.idle = cards, 0
        else:
            p.idle += 1


# The end ----------------------------------------------------------------------------------


def tiebreak(st: State, seat: int) -> int:
    """Stored Actions tokens, RM-area tokens and Knights on the Recruit board."""
    p = st.players[seat]
    return len(p.stored) + len(p.rm_tokens) + KNIGHTS - p.supply


def score(st: State, seat: int) -> int:
    """Cards in the structure (15 with a Master)."""
    return pyramid.count(st.players[seat].cells)


def _end(st: State, events: list[dict[str, Any]], reason: str, winner: int | None = None) -> None:
    if st.stage == "rm":
        # A new Renaissance Man still face down when the game ends (a concession) goes
        # back under the deck, unseen: it was never placed, and never shown.
        for p in st.players:
            st.deck[:0] = p.picks
    st.stage = "over"
    for p in st.players:  # a submission never revealed stays secret
        p.clear_submission()
        p.done = True
    st.result = ranking(st, winner)
    events.append({"type": "game_over", "reason": reason, "result": [dict(r) for r in st.result]})


def ranking(st: State, winner: int | None = None) -> list[dict[str, Any]]:
    """Best first: ``winner`` if given (the last seat not resigned), then the seats in the
    game by cards in their structure (a Master's 15 first), then by the tie-break sum,
    equal both sharing a rank; resigned seats last, the latest to resign highest.
    One player: rank 1 for a Master, else 2 (the opposing Knights won)."""
    if st.solo:
        won = st.players[0].cells[MASTER] is not None and not st.resigned
        return [{"seat": 0, "rank": 1 if won else 2, "score": score(st, 0)}]
    rows = []
    staying = [q for q in st.seats if q not in st.resigned and q != winner]
    if winner is not None:
        rows.append({"seat": winner, "rank": 1, "score": score(st, winner)})
    first = len(rows) + 1
    keys = {q: (score(st, q), tiebreak(st, q)) for q in staying}
    for q in sorted(staying, key=lambda q: keys[q], reverse=True):
        rank = first + sum(1 for o in staying if keys[o] > keys[q])
        rows.append({"seat": q, "rank": rank, "score": keys[q][0]})
    for q in reversed(st.resigned):
        rows.append({"seat": q, "rank": len(rows) + 1, "score": score(st, q)})
    return rows


def resign(st: State, seat: int) -> list[dict[str, Any]]:
    """``seat`` concedes: it ranks last. The game goes on (the site plays the seat) unless
    one seat is left in it, which wins at once; alone, the player loses."""
    if st.stage == "over":
        raise IllegalAction("game_over", _("The game is over"))
    if type(seat) is not int or not 0 <= seat < len(st.players):
        raise IllegalAction(
            "no_such_seat", _("There is no seat {seat} in this game").format(seat=repr(seat))
        )
    if seat in st.resigned:
        raise IllegalAction(
            "already_resigned", _("{name} has already resigned").format(name=st.names[seat])
        )
    st.resigned.append(seat)
    events = [{"type": "resign", "player": seat}]
    staying = [q for q in st.seats if q not in st.resigned]
    if not staying:
        _end(st, events, reason="resigned")
    elif len(staying) == 1 and not st.solo:
        _end(st, events, reason="resigned", winner=staying[0])
    st.last_seat, st.last_undoable, st.undoable = seat, False, []
    return events
