"""Goofspiel through the platform's pure protocol: the record, the secrets of simultaneous
bids, illegal actions, resignations and who waits. No database."""

from __future__ import annotations

import json
import random

import pytest

from games.core import IllegalAction, Match
from games.core.waits import SeatChange, Waits

from . import engine
from .game import GOOFSPIEL
from .simulate import NAMES, new_match, others_hidden, random_game

GAME = GOOFSPIEL


def bid(match: Match, seat: int, card: int) -> list[dict]:
    return match.apply({"kind": "bid", "card": card}, seat)


def play_round(match: Match, *cards: int) -> list[dict]:
    """Every seat bids, in seat order; the events of the reveal."""
    events = []
    for seat, card in enumerate(cards):
        events = bid(match, seat, card)
    return events


def lines(match: Match, events: list[dict], viewer: int | None) -> list[str]:
    return GAME.describe(match.state, events, viewer)


def round_trips(state: engine.State) -> None:
    data = json.loads(json.dumps(GAME.to_json(state)))
    assert GAME.from_json(data) == state
    assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(state)


# A whole game ---------------------------------------------------------------------------------


def test_a_whole_game_of_three_replays_and_round_trips():
    match = new_match(players=3, cards=6, seed=11)
    rand = random.Random(3)
    assert GAME.phase(match.state) == "play" and GAME.step(match.state) == 1
    assert GAME.deciders(match.state) == {0, 1, 2}
    prizes = []
    while GAME.phase(match.state) == "play":
        prizes.append(match.state.prize)
        for seat in (2, 0, 1):
            match.apply(GAME.choose(match.state, seat, rand), seat)
            round_trips(match.state)
    st = match.state
    assert sorted(prizes) == list(range(1, 7))  # every prize turned up once
    assert len(match.record) == 18 and GAME.deciders(st) == frozenset()
    assert st.hands == [[], [], []]
    taken = [0, 0, 0]
    for entry in st.history:
        if entry["winner"] is not None:
            taken[entry["winner"]] += entry["prize"]
    assert st.scores == taken
    result = GAME.result(st)
    assert [set(row) for row in result] == [{"seat", "rank", "score"}] * 3
    assert [row["score"] for row in result] == sorted(st.scores, reverse=True)
    assert match.replayed() == st
    replayed = Match(GAME, match.options, match.names, match.seed, match.record)
    assert GAME.to_json(replayed.state) == GAME.to_json(st)


def test_the_prize_deck_comes_from_the_seed():
    assert new_match(seed=5).state == new_match(seed=5).state
    firsts = {new_match(seed=seed).state.prize for seed in range(20)}
    assert len(firsts) > 1


def test_the_single_highest_bid_takes_the_prize():
    match = new_match(players=3)
    prize = match.state.prize
    events = play_round(match, 2, 4, 3)
    assert match.state.scores == [0, prize, 0]
    assert match.state.hands[1] == [1, 2, 3, 5]
    assert match.state.history == [{"round": 1, "prize": prize, "bids": [2, 4, 3], "winner": 1}]
    assert (
        lines(match, events, None)[1]
        == f"Bids for the {prize}: Ann 2, Bob 4, Cy 3; Bob takes the {prize}"
    )


def test_a_tie_for_the_highest_bid_discards_the_prize():
    match = new_match(players=3)
    prize = match.state.prize
    events = play_round(match, 5, 5, 1)
    st = match.state
    assert st.scores == [0, 0, 0] and st.history[0]["winner"] is None
    assert st.hands == [[1, 2, 3, 4], [1, 2, 3, 4], [2, 3, 4, 5]]  # bids are spent anyway
    assert st.round == 2 and st.prize != prize and len(st.deck) == 3
    assert lines(match, events, 2) == [
        "Cy (you) chose 1",
        f"Bids for the {prize}: Ann 5, Bob 5, Cy 1; tie at 5: the {prize} is discarded",
        f"Round 2: the prize is {st.prize}",
    ]


def test_a_choice_may_change_until_everyone_has_chosen():
    match = new_match(players=3)
    first = bid(match, 0, 2)
    assert GAME.deciders(match.state) == {1, 2}
    assert GAME.legal_actions(match.state, 0) == [{"kind": "bid", "card": c} for c in range(1, 6)]
    assert GAME.prompt(GAME.view(match.state, 0)) == (
        "You chose 2: you may change it until everyone has chosen."
    )
    change = bid(match, 0, 5)
    assert GAME.deciders(match.state) == {1, 2} and match.state.pending[0] == 5
    assert lines(match, first, 0) == ["Ann (you) chose 2"]
    assert lines(match, first, 1) == lines(match, first, None) == ["Ann has chosen a card"]
    assert lines(match, change, 0) == ["Ann (you) changed your choice to 5"]
    assert lines(match, change, 1) == lines(match, change, None) == ["Ann changed their choice"]
    bid(match, 1, 1)
    bid(match, 2, 3)
    assert match.state.history[0]["bids"] == [5, 1, 3]
    assert match.state.hands[0] == [1, 2, 3, 4]  # the first choice went back to the hand
    assert match.replayed() == match.state


# Secrets --------------------------------------------------------------------------------------


def test_a_pending_bid_reaches_nobody_but_its_owner():
    changed = 0
    for seed in range(120):
        for move in random_game(seed):
            st = move.match.state
            for viewer in [None, *st.seats]:
                hidden = others_hidden(st, viewer)
                changed += hidden != st
                view = GAME.view(st, viewer)
                assert view == GAME.view(hidden, viewer)
                assert json.loads(json.dumps(view)) == view
                said = GAME.describe(st, move.events, viewer)
                assert said == GAME.describe(hidden, _hide_bid(move.events, viewer), viewer)
                if viewer is None:
                    assert view["hand"] is None and view["choice"] is None
                if viewer != move.seat and move.events[0]["type"] == "bid":
                    assert not any(ch.isdigit() for ch in said[0])  # "Bob has chosen a card"
            for seat in GAME.deciders(st):  # the computer reads no other seat's bid
                hidden = others_hidden(st, seat)
                assert GAME.choose(st, seat, random.Random(seed)) == GAME.choose(
                    hidden, seat, random.Random(seed)
                )
    assert changed > 1000  # the check above did hide something


def _hide_bid(events: list[dict], viewer: int | None) -> list[dict]:
    """The events with another seat's bid changed to a different card."""
    return [
        {**e, "card": e["card"] % engine.MAX_CARDS + 1}
        if e["type"] == "bid" and e["player"] != viewer
        else e
        for e in events
    ]


def test_random_games_end_replay_and_round_trip():
    for seed in range(40):
        moves = list(random_game(seed))
        match = moves[-1].match
        round_trips(match.state)
        assert match.replayed() == match.state
        result = GAME.result(match.state)
        assert sorted(row["seat"] for row in result) == list(match.state.seats)
        assert match.state.pending == [None] * len(match.state.names)


# Illegal actions ------------------------------------------------------------------------------

ILLEGAL = [
    ({"kind": "bid", "card": 0}, "card_not_in_hand"),
    ({"kind": "bid", "card": 6}, "card_not_in_hand"),
    ({"kind": "bid", "card": True}, "malformed_action"),
    ({"kind": "bid", "card": "3"}, "malformed_action"),
    ({"kind": "bid"}, "malformed_action"),
    ({"kind": "bid", "card": 3, "prize": 1}, "malformed_action"),
    ({"kind": "resign", "card": 3}, "malformed_action"),
    ({"card": 3}, "malformed_action"),
    ([{"kind": "bid", "card": 3}], "malformed_action"),
    ("bid", "malformed_action"),
    ({"kind": "pass"}, "unknown_action"),
    ({"kind": "undo"}, "undo_not_allowed"),
]


@pytest.mark.parametrize(("action", "rule"), ILLEGAL)
def test_an_illegal_action_changes_nothing(action, rule):
    match = new_match(players=3)
    play_round(match, 3, 4, 5)  # spent: 3 for Ann
    bid(match, 1, 2)
    before, record = GAME.to_json(match.state), list(match.record)
    with pytest.raises(IllegalAction) as caught:
        match.apply(action, 1)
    assert caught.value.rule == rule
    assert GAME.to_json(match.state) == before and match.record == record


def test_a_spent_card_cannot_be_bid():
    match = new_match(players=3)
    play_round(match, 3, 4, 5)
    before = GAME.to_json(match.state)
    with pytest.raises(IllegalAction) as caught:
        bid(match, 0, 3)
    assert caught.value.rule == "card_not_in_hand"
    assert GAME.to_json(match.state) == before


def test_nothing_is_legal_once_the_game_is_over():
    match = new_match(players=2, cards=3)
    for card in (1, 2, 3):
        play_round(match, card, card)
    assert GAME.phase(match.state) == "over"
    assert (
        GAME.legal_actions(match.state, 0) == [] and GAME.prompt(GAME.view(match.state, 0)) is None
    )
    before = GAME.to_json(match.state)
    for action in ({"kind": "bid", "card": 1}, {"kind": "resign"}):
        with pytest.raises(IllegalAction) as caught:
            match.apply(action, 0)
        assert caught.value.rule == "game_over"
    assert GAME.to_json(match.state) == before


def test_a_broken_state_is_refused():
    good = GAME.to_json(new_match().state)
    for broken in (
        {**good, "cards": 2},
        {**good, "pending": [9, None, None]},
        {**good, "hands": [[1, 2], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]},
        {**good, "deck": good["deck"][1:]},
        {**good, "round": "1"},
        {**good, "seed": 3},
        {k: v for k, v in good.items() if k != "history"},
    ):
        with pytest.raises(ValueError):
            GAME.from_json(broken)


# Resigning and ranking ------------------------------------------------------------------------


def test_a_resigned_seat_goes_on_bidding_until_one_seat_is_left():
    match = new_match(players=3)
    bid(match, 2, 4)
    assert lines(match, match.apply({"kind": "resign"}, 0), 1) == ["Ann resigns"]
    assert GAME.phase(match.state) == "play" and GAME.deciders(match.state) == {0, 1}
    assert GAME.legal_actions(match.state, 0)  # the site plays it with choose()
    with pytest.raises(IllegalAction) as caught:
        match.apply({"kind": "resign"}, 0)
    assert caught.value.rule == "already_resigned"
    bid(match, 0, 5)  # Ann takes the prize though she resigned
    bid(match, 1, 1)
    prize = match.state.history[0]["prize"]
    bid(match, 1, 5)
    events = match.apply({"kind": "resign"}, 1)
    st = match.state
    assert GAME.phase(st) == "over" and GAME.deciders(st) == frozenset()
    assert st.pending == [None, None, None]  # Bob's bid is never revealed
    assert GAME.result(st) == [
        {"seat": 2, "rank": 1, "score": 0},
        {"seat": 1, "rank": 2, "score": 0},
        {"seat": 0, "rank": 3, "score": prize},
    ]
    assert lines(match, events, 0) == ["Bob resigns", "Game over: Cy wins with 0 points"]
    assert not any("5" in line for viewer in (0, 2, None) for line in lines(match, events, viewer))
    view = GAME.view(st, None)
    assert [(r["name"], r["resigned"]) for r in view["result"]] == [
        ("Cy", False),
        ("Bob", True),
        ("Ann", True),
    ]
    assert match.replayed() == st


@pytest.mark.parametrize(
    ("scores", "resigned", "ranks"),
    [
        ([4, 4, 2, 9], [], [(3, 1), (0, 2), (1, 2), (2, 4)]),
        ([5, 7, 5, 2], [3, 1], [(0, 1), (2, 1), (1, 3), (3, 4)]),
        ([3, 3, 3, 3], [0], [(1, 1), (2, 1), (3, 1), (0, 4)]),
        ([0, 9, 1, 9], [1], [(3, 1), (2, 2), (0, 3), (1, 4)]),
    ],
)
def test_ranking_shares_ranks_and_puts_the_resigned_last(scores, resigned, ranks):
    st = new_match(players=4).state
    st.scores, st.resigned = scores, resigned
    assert [(row["seat"], row["rank"]) for row in engine.ranking(st)] == ranks


def test_a_game_of_ties_ends_in_a_shared_first_place():
    match = new_match(players=2, cards=3)
    for card in (3, 1, 2):
        events = play_round(match, card, card)
    assert [row["rank"] for row in GAME.result(match.state)] == [1, 1]
    assert lines(match, events, None)[-1] == "Game over: Ann and Bob tie with 0 points"


# Who waits ------------------------------------------------------------------------------------


def test_every_seat_waits_again_at_a_new_round_but_not_when_another_seat_bids():
    match = new_match(players=3)
    waits = Waits(GAME, match.state, new=True)
    assert all(waits.seat(q).restarted for q in range(3))

    waits = Waits(GAME, match.state)
    bid(match, 0, 3)
    waits.after(match.state, 0)
    assert waits.seat(0) == SeatChange(deciding=False, restarted=False, changed=True)
    for q in (1, 2):
        assert waits.seat(q).deciding and not waits.seat(q).restarted and not waits.seat(q).changed

    waits = Waits(GAME, match.state)
    bid(match, 0, 4)  # a changed choice: nobody's wait moves
    waits.after(match.state, 0)
    bid(match, 1, 1)
    waits.after(match.state, 1)
    assert not waits.seat(0).deciding and not waits.seat(2).restarted
    assert not waits.seat(2).changed

    waits = Waits(GAME, match.state)
    bid(match, 2, 5)  # the last bid: the reveal, and round 2
    waits.after(match.state, 2)
    assert GAME.step(match.state) == 2
    assert all(waits.seat(q).deciding and waits.seat(q).restarted for q in range(3))


def test_names_have_no_digits():
    # The secrets test reads a digit in a line as a card.
    assert not any(ch.isdigit() for name in NAMES for ch in name)
