"""Issue 49: a game in which only computers decide plays to its end. Both seats of a
2-player game of each game are handed to the computer (stand-ins, ``games.play.stand_ins``)
and a real Celery worker on the real Redis plays every decision to the game's end: nobody
else moves, and nothing cuts the game short. (That a computer seat leaves a position
that repeats without progress is tested on such a position itself:
tests/games/renaissance/test_stall.py.)

Skipped where there is no Redis; under CI=true a missing Redis stops the run first."""

from __future__ import annotations

import time

import pytest
from django.conf import settings as django_settings

import games.notifications.tasks  # noqa: F401 (the worker must know the tasks before it starts)
import games.play.computer_moves  # noqa: F401
import games.tournaments.tasks  # noqa: F401
from games.models import Game, Move
from games.play import stand_ins
from tests.games.helpers import start_game
from tests.guildhall_site.test_celery_worker import running_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
        reason="needs PostgreSQL: set DATABASE_URL (CI does)",
    ),
    pytest.mark.usefixtures("seats_in_order"),
]


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_a_game_of_computer_stand_ins_plays_to_its_end_on_the_worker(settings, alice, bob, kind):
    game = start_game(alice, bob, kind=kind)
    with running_worker(settings, [settings.COMPUTER_QUEUE]):
        for user in (alice, bob):
            stand_ins.do_stand_in(game.pk, user, "normal")
        deadline = time.monotonic() + 240  # some 30 s on a quiet machine
        while Game.objects.get(pk=game.pk).status in Game.ACTIVE:
            assert time.monotonic() < deadline, "the computers did not finish the game"
            time.sleep(0.1)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {m.seat for m in Move.objects.filter(game=game)} == {0, 1}
