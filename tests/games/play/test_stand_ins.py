"""A computer stand-in by consent (games.play.stand_ins): the computer plays a player's seat
until they take it back, the others see it, and a rated game no longer counts for them."""

import random
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.models import Game, Move, Rating, RatingChange, Seat
from games.play import moves, stand_ins
from games.play.computer_moves import play_computer_turn
from tests.conftest import client_for
from tests.games.helpers import play_until, start_game, to_move
from tests.games.notifications.helpers import play_turn

pytestmark = pytest.mark.usefixtures("seats_in_order")


def past_setup(game: Game) -> Game:
    return play_until(game, random.Random(game.pk), lambda g: g.status == Game.Status.PLAYING)


def seat(game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


class TestStandIn:
    def test_the_computer_plays_for_the_player_until_taken_back(self, alice, bob, run_hooks):
        game = start_game(alice, bob)  # Alice's setup waits
        run_hooks(stand_ins.do_stand_in, game.pk, alice, "easy")

        game.refresh_from_db()
        assert to_move(game) == 1  # the computer did Alice's setup, in her name
        assert Move.objects.filter(game=game, seat=0).exists()
        game = play_turn(game)  # Bob's setup: Alice's turn, queued for the computer
        assert to_move(game) == 0
        run_hooks(play_computer_turn, game.pk, game.version)  # the task, and those it queues
        game.refresh_from_db()
        assert to_move(game) == 1

        assert stand_ins.do_take_back(game.pk, alice)
        made = Move.objects.filter(game=game, seat=0).count()
        game = run_hooks(play_turn, game)
        assert to_move(game) == 0  # Alice's turn waits for Alice now
        assert Move.objects.filter(game=game, seat=0).count() == made
        assert play_computer_turn(game.pk, game.version) is False

    def test_until_a_date_in_all_games_then_it_stops_by_itself(self, alice, bob, run_hooks):
        one, two = start_game(alice, bob), start_game(bob, alice)
        until = timezone.now() + timedelta(days=3)
        assert sorted(stand_ins.do_stand_in_everywhere(alice, "strong", until)) == sorted(
            [one.pk, two.pk]
        )
        assert seat(one, alice).stand_in_until == until
        Seat.objects.filter(user=alice).update(stand_in_until=timezone.now())  # it ran out
        assert play_computer_turn(one.pk, one.version) is False

    def test_bad_requests_change_nothing(self, alice, bob, charlie):
        game = start_game(alice, bob)
        with pytest.raises(ValidationError):
            stand_ins.do_stand_in(game.pk, alice, "grandmaster")
        with pytest.raises(ValidationError):
            stand_ins.do_stand_in_everywhere(alice, "strong", timezone.now() - timedelta(days=1))
        assert not Seat.objects.exclude(stand_in="").exists()
        answer = client_for(charlie).post(f"/games/{game.pk}/stand-in/", {"level": "easy"})
        assert answer.status_code in (302, 403)
        assert (
            client_for(alice).post("/games/999999/stand-in/", {"level": "easy"}).status_code == 404
        )
        assert (
            client_for(alice).post("/stand-in/", {"level": "easy", "until": "soon"}).status_code
            == 302
        )
        assert not Seat.objects.exclude(stand_in="").exists()


class TestRating:
    def test_a_rated_game_no_longer_counts_for_the_seat_stood_in_for(self, alice, bob):
        game = past_setup(start_game(alice, bob))
        assert game.rated
        stand_ins.do_stand_in(game.pk, alice, "easy")
        stand_ins.do_take_back(game.pk, alice)  # unrated for good, once stood in for
        assert seat(game, alice).unrated

        moves.do_concede(game.pk, bob)  # Alice wins

        assert list(RatingChange.objects.values_list("user_id", flat=True)) == [bob.pk]
        assert not Rating.objects.filter(user=alice).exists()


class TestBoard:
    def test_the_others_see_it_and_the_player_may_take_it_back(self, alice, bob):
        game = past_setup(start_game(alice, bob))
        stand_ins.do_stand_in(game.pk, alice, "easy")

        assert (
            "the computer stands in" in client_for(bob).get(f"/games/{game.pk}/").content.decode()
        )
        mine = client_for(alice).get(f"/games/{game.pk}/").content.decode()
        assert f'action="/games/{game.pk}/stand-in/stop/"' in mine

        client_for(alice).post(f"/games/{game.pk}/stand-in/stop/")
        assert not seat(game, alice).stand_in
        page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
        assert "the computer stands in" not in page


class TestSettings:
    def test_all_games_until_a_date_from_the_settings_page_then_all_back(self, alice, bob):
        one, two = start_game(alice, bob), start_game(bob, alice)
        client = client_for(alice)
        until = (timezone.localdate() + timedelta(days=5)).isoformat()

        client.post("/stand-in/", {"level": "easy", "until": until})

        assert {s.game_id for s in Seat.objects.filter(user=alice).exclude(stand_in="")} == {
            one.pk,
            two.pk,
        }
        page = client.get("/accounts/profile/").content.decode()
        assert "The computer plays for you in 2 games." in page
        # A game that starts meanwhile gets it too, and stops counting for her rating.
        three = start_game(bob, alice)
        assert seat(three, alice).stand_in == "easy" and seat(three, alice).unrated
        assert not seat(three, bob).stand_in

        client.post("/stand-in/stop/")
        assert not Seat.objects.exclude(stand_in="").exists()
        assert not seat(start_game(alice, bob), alice).stand_in

    def test_a_date_that_is_no_date_is_refused(self, alice, bob):
        start_game(alice, bob)
        client = client_for(alice)
        for until in ("", "2027-02-31", "2027-13-01", "tomorrow", "9999-12-31"):
            answer = client.post("/stand-in/", {"level": "easy", "until": until})
            assert answer.status_code == 302, until
        assert not Seat.objects.exclude(stand_in="").exists()
