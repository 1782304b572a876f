import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game, Move, Seat
from tests.games.helpers import play_one, start_game


def verify(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_games", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def games(alice, bob, charlie) -> list[Game]:
    played = start_game(alice, bob)
    rand = random.Random(3)
    for _ in range(30):
        played = play_one(played, rand)
    return [played, start_game(bob, charlie)]


class TestVerifyGames:
    def test_it_passes_games_that_replay(self, games):
        out, err = verify()

        assert "Checked 2 games: 0 differ." in out
        assert err == ""

    def test_it_detects_a_tampered_snapshot(self, games):
        game = games[0]
        snapshot = game.snapshot
        snapshot["players"][0]["tokens"] += 1
        Game.objects.filter(pk=game.pk).update(snapshot=snapshot)

        with pytest.raises(CommandError, match="Checked 2 games: 1 differ."):
            verify()

    def test_it_detects_a_changed_record(self, games):
        game = games[0]
        # Moves are append-only through the model; a hand in the database can still change one.
        Move.objects.filter(game=game, number=game.version).delete()

        with pytest.raises(CommandError, match="1 differ"):
            verify()

    def test_it_names_the_game_and_not_its_secrets(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(snapshot={**game.snapshot, "turn": 99})
        err = StringIO()

        with pytest.raises(CommandError):
            call_command("verify_games", stdout=StringIO(), stderr=err)

        assert f"Game {game.pk}: its snapshot differs" in err.getvalue()
        assert str(game.seed) not in err.getvalue()

    def test_it_checks_the_games_named(self, games):
        out, _err = verify(str(games[1].pk))

        assert "Checked 1 game: 0 differ." in out

    def test_it_detects_a_game_that_waits_for_nobody(self, games):
        # The stalled-game bug: a seat the game waits for is not marked deciding.
        game = games[0]
        Seat.objects.filter(game=game, deciding=True).update(
            deciding=False, deciding_since=None, deadline=None
        )
        err = StringIO()

        with pytest.raises(CommandError, match="1 differ"):
            call_command("verify_games", stdout=StringIO(), stderr=err)

        assert "are marked deciding, but the game waits for" in err.getvalue()

    def test_it_detects_a_deciding_seat_without_a_deadline(self, alice, bob):
        game = start_game(alice, bob, move_days=3)
        Seat.objects.filter(game=game, deciding=True).update(deadline=None)
        err = StringIO()

        with pytest.raises(CommandError, match="1 differ"):
            call_command("verify_games", stdout=StringIO(), stderr=err)

        assert "no deadline in a game with a time limit" in err.getvalue()
