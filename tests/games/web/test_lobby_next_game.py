""" "Next game" with nothing to go to: "No game is waiting" when none waits at all, "No other
game is waiting" only when the one waiting is the game the player came from (?after=)."""

import pytest
from django.urls import reverse

from games.models import Seat
from games.play import invitations
from tests.games.helpers import start_game

NONE = "No game is waiting for your move."
NO_OTHER = "No other game is waiting for your move."


class InOrder:
    """Seats in the order of acceptance: the creator plays first."""

    def shuffle(self, items: list) -> None:
        pass


@pytest.fixture(autouse=True)
def _creator_first(monkeypatch):
    monkeypatch.setattr(invitations, "seat_random", InOrder())


def next_game(client, **params):
    response = client.get(reverse("games:next"), params, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    return response.content.decode()


class TestNothingToGoTo:
    def test_no_game_at_all(self, client, alice):
        client.force_login(alice)

        page = next_game(client)

        assert NONE in page
        assert NO_OTHER not in page

    def test_no_game_waits_for_me(self, client, alice, bob):
        game = start_game(bob, alice)  # bob's turn
        client.force_login(alice)

        page = next_game(client, after=game.pk)

        assert NONE in page
        assert NO_OTHER not in page

    def test_the_only_game_waiting_is_the_one_i_came_from(self, client, alice, bob):
        game = start_game(alice, bob)  # alice's turn
        client.force_login(alice)

        page = next_game(client, after=game.pk)

        assert NO_OTHER in page
        assert NONE not in page

    def test_after_another_game_while_none_waits(self, client, alice, bob):
        mine = start_game(alice, bob)
        other = start_game(bob, alice)
        Seat.objects.filter(game=mine, user=alice).update(deciding=False)
        client.force_login(alice)

        page = next_game(client, after=other.pk)

        assert NONE in page
        assert NO_OTHER not in page

    def test_a_waiting_game_is_still_gone_to(self, client, alice, bob):
        game = start_game(alice, bob)
        client.force_login(alice)

        response = client.get(reverse("games:next"))

        assert response.url == reverse("games:board", args=[game.pk])
