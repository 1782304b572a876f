"""Who waits, followed through the records of one change (games.core.waits), on a stand-in
game whose deciders and step are set directly."""

from __future__ import annotations

from dataclasses import dataclass

from games.core.waits import SeatChange, Waits


@dataclass
class Position:
    deciders: frozenset[int]
    step: int = 0


class Game:
    """Only what Waits asks."""

    def deciders(self, state: Position) -> frozenset[int]:
        return state.deciders

    def step(self, state: Position) -> int:
        return state.step


def follow(start: Position, *records: tuple[int, Position], new: bool = False) -> Waits:
    waits = Waits(Game(), start, new=new)
    for actor, state in records:
        waits.after(state, actor)
    return waits


def at(*seats: int, step: int = 0) -> Position:
    return Position(frozenset(seats), step)


def test_a_new_game_starts_every_deciders_wait():
    waits = follow(at(0, 1, 2), new=True)

    assert waits.seat(0) == SeatChange(deciding=True, restarted=True, changed=True)
    assert waits.seat(2).restarted


def test_a_player_deciding_through_a_long_turn_keeps_the_clock_of_the_turn():
    waits = follow(at(0), (0, at(0)), (0, at(0)))

    assert waits.seat(0) == SeatChange(deciding=True, restarted=False, changed=True)
    assert waits.seat(1) == SeatChange(deciding=False, restarted=False, changed=False)


def test_the_turn_going_round_starts_a_new_wait():
    # Ann ends her turn, Bob (played by the computer) plays his, it is Ann's again.
    waits = follow(at(0), (0, at(1)), (1, at(0)))

    assert waits.seat(0).restarted and waits.seat(0).changed
    assert not waits.seat(1).deciding and waits.seat(1).changed


def test_another_seats_choice_in_a_simultaneous_step_leaves_mine_alone():
    waits = follow(at(0, 1, 2), (1, at(0, 2)))

    assert waits.seat(0) == SeatChange(deciding=True, restarted=False, changed=False)
    assert waits.seat(1) == SeatChange(deciding=False, restarted=False, changed=True)
    assert waits.seat(2) == SeatChange(deciding=True, restarted=False, changed=False)


def test_a_new_round_starts_everyones_wait_even_the_last_choosers():
    # Cid's choice was the last of round 1: everyone decides round 2 at once.
    waits = follow(at(2, step=1), (2, at(0, 1, 2, step=2)))

    for seat in (0, 1, 2):
        assert waits.seat(seat) == SeatChange(deciding=True, restarted=True, changed=True)


def test_changing_a_choice_changes_only_that_seats_decision():
    waits = follow(at(1, 2), (0, at(1, 2)))  # Ann had chosen and chooses again

    assert waits.seat(0) == SeatChange(deciding=False, restarted=False, changed=True)
    assert not waits.seat(1).changed and not waits.seat(2).changed


def test_a_game_over_ends_every_wait():
    waits = follow(at(0), (0, at()))

    assert waits.seat(0) == SeatChange(deciding=False, restarted=False, changed=True)


def test_reopening_my_own_submission_keeps_my_clock():
    # Ann submits (nobody waits for her), then takes it back to change it: her own records.
    waits = follow(at(0, 1), (0, at(1)), (0, at(0, 1)))

    assert waits.seat(0) == SeatChange(deciding=True, restarted=False, changed=True)
    assert not waits.seat(1).changed


def test_a_turn_that_comes_back_within_one_change_starts_again():
    # Ann acts, Bob (the computer) decides in between, then the game waits for Ann again.
    waits = follow(at(0), (0, at(1)), (1, at(1)), (1, at(0)))

    assert waits.seat(0).restarted
