import pytest
from django.db import IntegrityError

from games.guildhall import Options
from games.models import Invitation, Move, Seat
from tests.games.helpers import start_game


class TestInvitation:
    def test_it_builds_the_engine_options(self, alice):
        invitation = Invitation.objects.create(
            creator=alice,
            players=3,
            options={"rules": "classic", "advanced": True, "fantasy_names": True},
        )

        # Without "setup" (an invitation stored before the option): the site's default.
        assert invitation.engine_options() == Options(
            players=3, rules="classic", advanced=True, names="fantasy", setup="simultaneous"
        )

    def test_its_game_is_guildhall_by_default(self, alice):
        invitation = Invitation.objects.create(creator=alice, players=2)

        assert invitation.kind == "guildhall"
        assert invitation.engine_options() == Options(players=2, setup="simultaneous")

    def test_it_refuses_more_than_eight_players(self, alice):
        with pytest.raises(IntegrityError):
            Invitation.objects.create(creator=alice, players=9)


class TestSeat:
    def test_a_user_has_one_seat_per_game(self, alice, bob):
        game = start_game(alice, bob)

        with pytest.raises(IntegrityError):
            Seat.objects.create(game=game, user=alice, number=2)

    def test_a_seat_number_is_taken_once(self, alice, bob, charlie):
        game = start_game(alice, bob)

        with pytest.raises(IntegrityError):
            Seat.objects.create(game=game, user=charlie, number=0)


class TestMove:
    def test_it_is_append_only(self, alice, bob):
        game = start_game(alice, bob)
        move = Move.objects.create(game=game, number=1, seat=0, action={"kind": "x"}, events=[])

        move.action = {"kind": "y"}
        with pytest.raises(ValueError, match="append-only"):
            move.save()

    def test_a_number_is_used_once_per_game(self, alice, bob):
        game = start_game(alice, bob)
        Move.objects.create(game=game, number=1, seat=0, action={}, events=[])

        with pytest.raises(IntegrityError):
            Move.objects.create(game=game, number=1, seat=1, action={}, events=[])

    def test_it_gives_the_engine_record(self, alice, bob):
        game = start_game(alice, bob)
        move = Move.objects.create(game=game, number=1, seat=1, action={"kind": "done"}, events=[])

        assert move.record() == {"player": 1, "action": {"kind": "done"}}
