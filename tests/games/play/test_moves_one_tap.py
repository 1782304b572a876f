"""A choice of several steps made in one tap (``moves.do_submit_actions``: a board's one
tap, Guildhall's "this card on top") is taken back whole by one undo: every step after the
first is stored joined to the one before it, and the undo takes back the joined steps with
the step they join, one "undo" record each. A choice of one step is taken back alone."""

from __future__ import annotations

import pytest

from games.core import IllegalAction, replays
from games.models import Game, Move
from games.play import invitations, moves
from games.reads import records, viewing
from tests.games.helpers import start_game
from tests.games.notifications.helpers import InOrder


@pytest.fixture
def game(alice, bob, monkeypatch) -> Game:
    """Guildhall, setup in turn: Alice (seat 0) first discards cards of her hand, one step
    each, every step public and hers to take back."""
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    return start_game(alice, bob)


def hand(game: Game) -> list[int]:
    game.refresh_from_db()
    return list(viewing.game_state(game).players[0].hand)


def discards(*cards: int) -> list[dict]:
    return [{"kind": "discard", "card": c} for c in cards]


def replayed_cleanly(game: Game) -> bool:
    game.refresh_from_db()
    problem, _state = replays.check(records.stored_game(game))
    return problem is None


def test_one_undo_takes_back_the_steps_of_one_tap(alice, game):
    start = hand(game)
    moves.do_submit_actions(game.pk, alice, discards(*start[:2]), game.version)
    game.refresh_from_db()
    assert game.version == 2
    stored = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.joined for m in stored] == [False, True]
    assert [m.waited is None for m in stored] == [False, True]  # the choice is timed once
    assert [e.get("joined", False) for e in records.record_of(game)] == [False, True]

    moves.do_undo(game.pk, alice, game.version)

    assert hand(game) == start
    assert game.version == 4  # an "undo" record for each step taken back
    assert replayed_cleanly(game)


def test_an_undo_stops_at_the_step_before_the_tap(alice, game):
    start = hand(game)
    moves.do_submit_action(game.pk, alice, discards(start[0])[0], game.version)
    game.refresh_from_db()
    moves.do_submit_actions(game.pk, alice, discards(*start[1:3]), game.version)
    game.refresh_from_db()

    moves.do_undo(game.pk, alice, game.version)
    assert hand(game) == start[1:]  # the first card, discarded alone, stays discarded
    moves.do_undo(game.pk, alice, game.version)
    assert hand(game) == start
    assert replayed_cleanly(game)


def test_steps_made_one_at_a_time_are_taken_back_one_at_a_time(alice, game):
    start = hand(game)
    for card in start[:2]:
        moves.do_submit_action(game.pk, alice, discards(card)[0], game.version)
        game.refresh_from_db()

    moves.do_undo(game.pk, alice, game.version)

    assert hand(game) == start[1:]
    assert not Move.objects.filter(game=game, joined=True).exists()


def test_a_tap_with_an_illegal_step_changes_nothing(alice, game):
    start = hand(game)
    before = (game.version, game.snapshot)
    with pytest.raises(IllegalAction):
        moves.do_submit_actions(game.pk, alice, discards(start[0], start[0]), game.version)
    with pytest.raises(IllegalAction):  # undo is a choice of its own
        moves.do_submit_actions(game.pk, alice, [{"kind": "undo"}] * 2, game.version)
    game.refresh_from_db()
    assert (game.version, game.snapshot) == before
    assert not Move.objects.filter(game=game).exists()


def test_a_private_choice_of_one_tap_is_taken_back_whole(alice, bob, monkeypatch):
    # The simultaneous setup: each step is a private record (a draft), never counted.
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    game = start_game(alice, bob, setup="simultaneous")
    start = hand(game)
    moves.do_submit_actions(game.pk, alice, discards(*start[:2]), game.version)
    game.refresh_from_db()
    assert game.version == 0
    assert [d.get("joined", False) for d in game.drafts] == [False, True]

    moves.do_undo(game.pk, alice, game.version)

    assert hand(game) == start
    assert (game.version, game.drafts) == (0, [])
