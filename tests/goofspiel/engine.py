"""Goofspiel, pure Python: the rules, the views, the log and a computer player.

Every round a prize card is turned up and every seat bids one of its cards face down, all
at once. A bid stays hidden (and may be changed) until the last seat has bid; then all are
revealed together, the single highest bid takes the prize and the bid cards are spent.

The state is plain data, stored as JSON by ``to_json``/``from_json``. Its secrets are the
order of the prize deck and the pending bids: only ``view`` and ``describe`` let anything
out, and a pending bid only to its owner.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, fields

from games.core.actions import check_shape as core_check_shape
from games.core.errors import IllegalAction

MIN_CARDS, MAX_CARDS = 3, 13
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Every action kind and its fields; "undo" and "resign" are the platform's (core.match).
# Undo and resign are the platform's (games.core.actions), taken by every game.
ACTION_FIELDS: dict[str, dict[str, type]] = {"bid": {"card": int}}


@dataclass
class State:
    cards: int  # the option: every hand and the prize deck are cards 1..cards
    names: list[str]
    deck: list[int]  # the prize cards not yet turned up, top first (secret order)
    prize: int | None  # the prize card on the table
    round: int  # from 1
    hands: list[list[int]]  # sorted; a pending bid stays in its hand until the reveal
    scores: list[int]
    pending: list[int | None]  # each seat's face-down bid this round (secret)
    history: list[dict] = field(default_factory=list)  # {"round", "prize", "bids", "winner"}
    resigned: list[int] = field(default_factory=list)  # in the order they resigned
    phase: str = "play"  # "play" or "over"
    result: list[dict] | None = None  # {"seat", "rank", "score"} rows, best first

    @property
    def seats(self) -> range:
        return range(len(self.names))


# A new game -----------------------------------------------------------------------------------


def new_state(options: dict, names: list[str], seed: int) -> State:
    """A game of ``cards`` cards for ``names`` (seat order); the prize deck is shuffled
    from ``seed``, once, so that the state never needs a generator."""
    cards = options["cards"]
    if type(cards) is not int or not MIN_CARDS <= cards <= MAX_CARDS:
        raise ValueError(f"cards must be from {MIN_CARDS} to {MAX_CARDS}")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"Goofspiel is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = list(range(1, cards + 1))
    random.Random(seed).shuffle(deck)
    n = len(names)
    return State(
        cards=cards,
        names=list(names),
        deck=deck[1:],
        prize=deck[0],
        round=1,
        hands=[list(range(1, cards + 1)) for _ in range(n)],
        scores=[0] * n,
        pending=[None] * n,
    )


# JSON -----------------------------------------------------------------------------------------


def to_json(st: State) -> dict:
    return asdict(st)


def from_json(data: dict) -> State:
    """A stored state, checked: ValueError if anything is missing, extra or inconsistent."""
    if not isinstance(data, dict):
        raise ValueError("a Goofspiel state is a JSON object")
    names = {f.name for f in fields(State)}
    if set(data) != names:
        raise ValueError(f"a Goofspiel state has exactly the fields {sorted(names)}")
    st = State(**data)
    try:
        _check(st)
    except TypeError as error:  # a field of the wrong type somewhere
        raise ValueError(f"broken Goofspiel state: {error}") from None
    return st


def _check(st: State) -> None:
    def ints(xs: object) -> bool:
        return isinstance(xs, list) and all(type(x) is int for x in xs)

    n = len(st.names) if isinstance(st.names, list) else 0
    full = set(range(1, st.cards + 1)) if type(st.cards) is int else set()
    # A game that ends by resignation ends before its round's reveal.
    played = {st.round - 1, st.round} if st.phase == "over" else {st.round - 1}
    problems = [
        not MIN_CARDS <= len(full) <= MAX_CARDS,
        not MIN_PLAYERS <= n <= MAX_PLAYERS or not all(isinstance(x, str) for x in st.names),
        st.phase not in ("play", "over"),
        type(st.round) is not int or not 1 <= st.round <= st.cards,
        not ints(st.deck) or not set(st.deck) <= full or len(set(st.deck)) != len(st.deck),
        len(st.deck) != st.cards - st.round,
        st.prize is not None and (type(st.prize) is not int or st.prize not in full),
        not isinstance(st.history, list) or len(st.history) not in played,
        not isinstance(st.hands, list) or len(st.hands) != n,
        not ints(st.scores) or len(st.scores) != n,
        not isinstance(st.pending, list) or len(st.pending) != n,
        not ints(st.resigned) or not set(st.resigned) <= set(range(n)),
        st.phase == "play" and (st.prize is None or st.result is not None),
        st.phase == "over" and not isinstance(st.result, list),
    ]
    if any(problems):
        raise ValueError("broken Goofspiel state")
    for seat in range(n):
        hand, bid = st.hands[seat], st.pending[seat]
        if not ints(hand) or hand != sorted(set(hand) & full) or len(hand) != _cards_in_hand(st):
            raise ValueError(f"broken hand of seat {seat}")
        if bid is not None and (st.phase != "play" or bid not in hand):
            raise ValueError(f"broken bid of seat {seat}")


def _cards_in_hand(st: State) -> int:
    """Cards in each hand: one is spent per revealed round."""
    return st.cards - len(st.history)


# Playing --------------------------------------------------------------------------------------


def clone(st: State) -> State:
    return from_json(to_json(st))


def phase(st: State) -> str:
    return st.phase


def step(st: State) -> int:
    # Each round is a step of simultaneous choices: every wait starts again.
    return st.round


def can_undo(st: State, seat: int) -> bool:
    return False  # a bid may be changed until the reveal, never taken back after


def private_record(st: State) -> bool:
    return False  # a bid is public as made (that it was made; its card is hidden)


def result(st: State) -> list[dict] | None:
    return None if st.result is None else [dict(row) for row in st.result]


def deciders(st: State) -> frozenset[int]:
    """The seats that have not bid in this round."""
    if st.phase != "play":
        return frozenset()
    return frozenset(seat for seat in st.seats if st.pending[seat] is None)


def legal_actions(st: State, seat: int) -> list[dict]:
    """Every card in hand, the pending bid included: a seat may bid again until the reveal."""
    if st.phase != "play" or seat not in st.seats:
        return []
    return [{"kind": "bid", "card": card} for card in st.hands[seat]]


def obvious_answer(st: State, seat: int) -> dict | None:
    """A seat with one card left and no bid yet has only that card to bid."""
    if seat not in deciders(st) or len(st.hands[seat]) != 1:
        return None
    return {"action": {"kind": "bid", "card": st.hands[seat][0]}, "label": "Bid your last card"}


def check_shape(action: object) -> dict:
    return core_check_shape(action, ACTION_FIELDS)


def apply(st: State, seat: int, action: dict) -> list[dict]:
    """Apply ``seat``'s action; returns the events (a bid's card is a secret until the
    reveal). On IllegalAction nothing changed."""
    check_shape(action)
    _check_seat(st, seat)
    if action["kind"] == "resign":
        return resign(st, seat)
    if action["kind"] == "undo":
        raise IllegalAction("undo_not_allowed", "A bid is changed by bidding again")
    return bid(st, seat, action["card"])


def _check_seat(st: State, seat: object) -> None:
    if st.phase == "over":
        raise IllegalAction("game_over", "The game is over")
    if type(seat) is not int or seat not in st.seats:
        raise IllegalAction("no_such_seat", f"There is no seat {seat!r} in this game")


def bid(st: State, seat: int, card: int) -> list[dict]:
    _check_seat(st, seat)
    if card not in st.hands[seat]:
        raise IllegalAction("card_not_in_hand", f"{st.names[seat]} has no card {card} in hand")
    change = st.pending[seat] is not None
    st.pending[seat] = card
    events = [{"type": "bid", "player": seat, "card": card, "change": change}]
    if not deciders(st):
        events += _reveal(st)
    return events


def _reveal(st: State) -> list[dict]:
    bids = [card for card in st.pending if card is not None]  # all: the last seat just bid
    top = max(bids)
    winner = st.pending.index(top) if bids.count(top) == 1 else None
    entry = {"round": st.round, "prize": st.prize, "bids": list(bids), "winner": winner}
    st.history.append(entry)
    if winner is not None:
        st.scores[winner] += st.prize
    for seat, card in enumerate(bids):
        st.hands[seat].remove(card)
    st.pending = [None] * len(st.names)
    events = [{"type": "reveal", **entry}]
    if not st.deck:
        return events + _end(st, winner=None)
    st.round += 1
    st.prize = st.deck.pop(0)
    return events + [{"type": "round", "round": st.round, "prize": st.prize}]


def resign(st: State, seat: int) -> list[dict]:
    """``seat`` concedes: it ranks last, but goes on bidding (the site plays it) unless a
    single seat is left in the game, which then wins at once."""
    _check_seat(st, seat)
    if seat in st.resigned:
        raise IllegalAction("already_resigned", f"{st.names[seat]} has already resigned")
    st.resigned.append(seat)
    events = [{"type": "resign", "player": seat}]
    staying = [q for q in st.seats if q not in st.resigned]
    if len(staying) == 1:
        events += _end(st, winner=staying[0])
    return events


def _end(st: State, winner: int | None) -> list[dict]:
    st.phase = "over"
    # No bid stays pending in a finished game: it would never be revealed.
    st.pending = [None] * len(st.names)
    st.result = ranking(st, winner)
    return [{"type": "game_over", "result": [dict(row) for row in st.result]}]


def ranking(st: State, winner: int | None = None) -> list[dict]:
    """``winner`` first if given; the other seats in the game by score, equal scores
    sharing a rank; resigned seats last, the latest to resign highest among them."""
    rows = [] if winner is None else [{"seat": winner, "rank": 1, "score": st.scores[winner]}]
    others = [q for q in st.seats if q != winner and q not in st.resigned]
    first = len(rows) + 1
    for q in sorted(others, key=lambda q: -st.scores[q]):
        rank = first + sum(1 for o in others if st.scores[o] > st.scores[q])
        rows.append({"seat": q, "rank": rank, "score": st.scores[q]})
    for q in reversed(st.resigned):
        rows.append({"seat": q, "rank": len(rows) + 1, "score": st.scores[q]})
    return rows


# The computer player --------------------------------------------------------------------------


def choose(st: State, seat: int, rand: random.Random) -> dict:
    """A bid about as strong, within the hand, as the prize is among the prizes still to
    come; it reads only what ``seat`` can see (never another seat's pending bid)."""
    hand = st.hands[seat]
    prizes = sorted([st.prize, *st.deck])  # the values left: public, unlike their order
    # Same number of cards in hand as prizes left: bid the card of the prize's rank.
    place = prizes.index(st.prize) + rand.choice((-1, 0, 0, 1))
    return {"kind": "bid", "card": hand[min(max(place, 0), len(hand) - 1)]}


# What people see ------------------------------------------------------------------------------


def view(st: State, seat: int | None) -> dict:
    """Everything ``seat`` (None: a spectator) may know, as JSON."""
    if seat is not None and seat not in st.seats:
        raise ValueError(f"no seat {seat!r}")
    mine = seat is not None
    return {
        "options": {"cards": st.cards},
        "viewer": seat,
        "phase": st.phase,
        "round": st.round,
        "rounds": st.cards,
        "prize": st.prize if st.phase == "play" else None,
        "prizes_left": len(st.deck),
        # Which values are still to come is public (each is turned up once); not the order.
        "prizes_to_come": sorted(st.deck),
        "players": [_player_view(st, q) for q in st.seats],
        "hand": list(st.hands[seat]) if mine else None,
        "choice": st.pending[seat] if mine else None,
        "history": [_history_view(st, entry) for entry in st.history],
        "decision": _decision(st, seat),
        "legal_actions": legal_actions(st, seat) if mine else [],
        "can_undo": False,
        "result": _result_view(st),
    }


def _decision(st: State, seat: int | None) -> dict | None:
    """What the viewer decides now (the API shows it beside the legal actions), or None."""
    if seat is None or not legal_actions(st, seat):
        return None
    return {"kind": "bid", "prize": st.prize, "choice": st.pending[seat]}


def _player_view(st: State, q: int) -> dict:
    return {
        "seat": q,
        "name": st.names[q],
        "score": st.scores[q],
        "hand_size": len(st.hands[q]),
        "has_chosen": st.pending[q] is not None,
        "resigned": q in st.resigned,
    }


def _history_view(st: State, entry: dict) -> dict:
    return {**entry, "bids": list(entry["bids"])}


def _result_view(st: State) -> list[dict] | None:
    if st.result is None:
        return None
    return [
        {**row, "name": st.names[row["seat"]], "resigned": row["seat"] in st.resigned}
        for row in st.result
    ]


def describe(st: State, events: list[dict], viewer: int | None) -> list[str]:
    """The move log for ``viewer``: a line per event."""
    return [line for event in events if (line := describe_event(st, event, viewer))]


def describe_event(st: State, event: dict, viewer: int | None) -> str | None:
    names = st.names
    kind = event["type"]
    seat = event.get("player")
    if kind == "bid":
        if seat == viewer:  # the only line that shows a pending bid: to its owner
            verb = "changed your choice to" if event["change"] else "chose"
            return f"{names[seat]} (you) {verb} {event['card']}"
        if event["change"]:
            return f"{names[seat]} changed their choice"
        return f"{names[seat]} has chosen a card"
    if kind == "reveal":
        bids = ", ".join(f"{names[q]} {card}" for q, card in enumerate(event["bids"]))
        prize = event["prize"]
        if event["winner"] is None:
            outcome = f"tie at {max(event['bids'])}: the {prize} is discarded"
        else:
            outcome = f"{names[event['winner']]} takes the {prize}"
        return f"Bids for the {prize}: {bids}; {outcome}"
    if kind == "round":
        return f"Round {event['round']}: the prize is {event['prize']}"
    if kind == "resign":
        return f"{names[seat]} resigns"
    if kind == "game_over":
        return _game_over_line(st, event["result"])
    return None


def _game_over_line(st: State, result: list[dict]) -> str:
    winners = [row for row in result if row["rank"] == 1]
    who = " and ".join(st.names[row["seat"]] for row in winners)
    points = winners[0]["score"]
    if len(winners) > 1:
        return f"Game over: {who} tie with {points} points"
    return f"Game over: {who} wins with {points} points"
