"""The computer stand-in with a real Celery worker on the real Redis: it plays the player's
moves as they come, and stops once taken back."""

import pytest
from django.conf import settings as django_settings

from games.models import Game, Move, Seat
from games.play import stand_ins
from games.play.computer_moves import play_computer_turn
from tests.games.helpers import start_game, to_move
from tests.games.notifications.helpers import play_turn
from tests.guildhall_site.test_celery_worker import wait_until, worker  # noqa: F401 (the fixture)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
        reason="needs PostgreSQL: set DATABASE_URL (CI does)",
    ),
    pytest.mark.usefixtures("seats_in_order"),
]


def waits_for(game: Game, number: int) -> bool:
    return Seat.objects.filter(game=game, number=number, deciding=True).exists()


def test_the_worker_plays_for_the_player_and_stops_when_taken_back(worker, alice, bob, settings):  # noqa: F811
    settings.COMPUTER_BUDGET_MS = 20
    game = start_game(alice, bob)  # Alice's setup waits
    stand_ins.do_stand_in(game.pk, alice, "easy")  # queued for the worker on commit

    wait_until(lambda: waits_for(game, 1), timeout=60)
    game.refresh_from_db()
    game = play_turn(game)  # Bob's setup; the worker answers for Alice
    wait_until(lambda: waits_for(game, 1), timeout=60)
    by_computer = Move.objects.filter(game=game, seat=0).count()
    assert by_computer >= 2

    stand_ins.do_take_back(game.pk, alice)
    game.refresh_from_db()
    game = play_turn(game)  # Alice's turn: the worker leaves it to her
    assert to_move(game) == 0
    # A task for this turn (late, or queued again by the sweep), then another game's
    # computer move behind it on the same queue: once that one is made, the first was
    # taken and did nothing.
    play_computer_turn.delay(game.pk, game.version)
    other = start_game(bob, alice)
    stand_ins.do_stand_in(other.pk, alice, "easy")  # Alice sets up first there too
    wait_until(lambda: Move.objects.filter(game=other, seat=0).exists(), timeout=60)
    assert Move.objects.filter(game=game, seat=0).count() == by_computer
    assert waits_for(game, 0)
