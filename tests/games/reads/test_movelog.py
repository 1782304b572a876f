"""games.reads.movelog: a record's lines are kept by what they are made of, which holds only
while each game's ``describe`` reads nothing of the state but its names and options."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.models import Game
from games.play import moves
from games.reads import movelog, viewing
from games.reads.movelog import describe_move
from tests.games.helpers import deciding, random_action, start_game


@pytest.fixture(autouse=True)
def nothing_kept():
    movelog.forget()
    yield
    movelog.forget()


def played(kind: str, users, steps: int, seed: str) -> Game:
    """A game of ``kind`` after ``steps`` random moves of the seats it waits for."""
    game = start_game(*users, kind=kind)
    rand = random.Random(seed)
    for _ in range(steps):
        waiting = deciding(game)
        if not waiting:
            break
        seat = rand.choice(waiting)
        user = game.seats.get(number=seat).user
        game = moves.do_submit_action(game.pk, user, random_action(game, rand, seat), game.version)
    return game


@pytest.mark.parametrize(("kind", "steps"), [("guildhall", 60), ("renaissance", 90)])
def test_lines_depend_on_no_more_of_the_state_than_its_names_and_options(
    kind, steps, alice, bob, charlie
):
    """Every record's lines for every viewer, made with the state at the game's start and
    with the state now, are the same, and the lines kept are those."""
    game = played(kind, [alice, bob, charlie], steps, kind)
    now = viewing.game_state(game)
    start = game.game_kind.new_state(game.engine_options(), game.names, game.seed)
    said = 0
    for record in game.moves.order_by("number"):
        for viewer in (None, 0, 1, 2):
            movelog.forget()
            with_now = describe_move(game, now, record.events, viewer)
            movelog.forget()
            with_start = describe_move(game, start, record.events, viewer)
            kept = describe_move(game, now, record.events, viewer)
            assert with_now == with_start == kept, (record.number, viewer)
            said += bool(kept)
    assert said > steps  # most records say something to someone


def test_each_language_its_own_lines(alice, bob, charlie):
    game = played("renaissance", [alice, bob, charlie], 90, "de")
    state = viewing.game_state(game)
    events = [e for m in game.moves.order_by("number") for e in m.events]
    assert events
    english = describe_move(game, state, events, 0)
    with translation.override("de"):
        german = describe_move(game, state, events, 0)
    assert english and german and english != german
    assert describe_move(game, state, events, 0) == english


def test_each_game_its_own_names_and_options(alice, bob, charlie):
    classic = played("guildhall", [alice, bob, charlie], 40, "names")
    fantasy = Game.objects.get(pk=classic.pk)
    fantasy.options = {**classic.options, "names": "fantasy"}
    renamed = Game.objects.get(pk=classic.pk)
    renamed.names = ["Xena", "Yuri", "Zoe"]
    events = [e for m in classic.moves.order_by("number") for e in m.events]
    lines = {}
    for name, game in (("classic", classic), ("fantasy", fantasy), ("renamed", renamed)):
        state = game.game_kind.new_state(game.engine_options(), game.names, game.seed)
        lines[name] = describe_move(game, state, events, None)
    assert lines["classic"] != lines["fantasy"]  # the professions' other names
    assert lines["classic"] != lines["renamed"] and "Xena" in " ".join(lines["renamed"])


def test_the_oldest_lines_go_first(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(movelog, "KEPT", 2)
    game = played("renaissance", [alice, bob, charlie], 30, "kept")
    state = viewing.game_state(game)
    records = [m.events for m in game.moves.order_by("number")][:3]
    for events in records:
        describe_move(game, state, events, None)
    kept = [key[-1] for key in movelog._kept]  # the events' repr ends each key
    made = [repr(e) for e in records]
    assert len(set(made)) == 3 and kept == made[1:]
