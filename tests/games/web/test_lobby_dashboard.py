import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.guildhall.cards import card_name
from games.models import Game
from games.play import cancel_votes, invitations, moves
from tests.games.helpers import play_one, start_game


class InOrder:
    """Seats in the order of acceptance: the creator plays first."""

    def shuffle(self, items: list) -> None:
        pass


@pytest.fixture(autouse=True)
def _creator_first(monkeypatch):
    monkeypatch.setattr(invitations, "seat_random", InOrder())


def waiting_since(game: Game, hours: int) -> Game:
    since = timezone.now() - timedelta(hours=hours)
    game.seats.filter(deciding=True).update(deciding_since=since)
    return game


def board(game: Game) -> str:
    return reverse("games:board", args=[game.pk])


@pytest.fixture
def alices_games(alice, bob):
    """Three games where alice is to move (waiting 5, 30 and 2 hours), one where bob is."""
    newest = waiting_since(start_game(alice, bob), 2)
    oldest = waiting_since(start_game(alice, bob), 30)
    middle = waiting_since(start_game(alice, bob), 5)
    bobs_turn = start_game(bob, alice)
    return oldest, middle, newest, bobs_turn


class TestDashboard:
    def test_visitors_get_the_welcome_page(self, client, db):
        response = client.get(reverse("home"))

        assert "Play as guest" in response.content.decode()

    def test_my_turn_first_and_longest_waiting_first(self, client, alice, alices_games):
        oldest, middle, newest, bobs_turn = alices_games
        client.force_login(alice)

        page = client.get(reverse("home")).content.decode()

        positions = [page.index(f'href="{board(g)}"') for g in alices_games]
        assert positions == sorted(positions)
        assert page.index("Your turn") < positions[0]
        assert page.index("Waiting for others") < positions[3]
        assert "Bob to move" in page

    def test_it_shows_the_next_game_button(self, client, alice, alices_games):
        client.force_login(alice)

        page = client.get(reverse("home")).content.decode()

        assert reverse("games:next") in page

    def test_no_next_game_button_without_a_game_to_play(self, client, alice, bob):
        start_game(bob, alice)
        client.force_login(alice)

        page = client.get(reverse("home")).content.decode()

        assert reverse("games:next") not in page
        assert "No game is waiting for you." in page

    def test_it_lists_open_invitations_and_finished_games(self, client, alice, bob):
        invitation = invitations.do_create_invitation(bob, players=3)
        finished = start_game(alice, bob)
        moves.do_concede(finished.pk, bob)
        client.force_login(alice)

        page = client.get(reverse("home")).content.decode()

        assert f'id="invitation-{invitation.pk}"' in page
        assert f'href="{board(finished)}"' in page
        assert "<strong>won</strong>" in page

    def test_htmx_refreshes_the_game_lists_alone(self, client, alice, alices_games):
        client.force_login(alice)

        response = client.get(
            reverse("home"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="dashboard-games"
        )

        page = response.content.decode()
        assert page.strip().startswith('<div id="dashboard-games"')
        assert "<html" not in page

    def test_its_queries_do_not_grow_with_the_games(self, client, settings, alice, bob, charlie):
        # Rendered each time: from the page cache both would cost the same few queries,
        # and the dashboard's key changes with the minute, so a run that crossed one
        # compared a cached dashboard with a fresh one.
        settings.PAGE_CACHE_SECONDS = 0
        start_game(alice, bob)
        start_game(bob, alice)  # one game of each list from the start
        invitations.do_create_invitation(bob, players=3)
        client.force_login(alice)
        client.get(reverse("home"))  # the session and the user are loaded once per request

        with CaptureQueriesContext(connection) as few:
            client.get(reverse("home"))
        for _ in range(3):
            start_game(alice, bob)
            start_game(charlie, alice)
            finished = start_game(alice, charlie)
            moves.do_concede(finished.pk, charlie)
            invitations.do_accept_invitation(
                invitations.do_create_invitation(charlie, players=4).pk, bob
            )
        with CaptureQueriesContext(connection) as many:
            client.get(reverse("home"))

        assert len(many) == len(few) > 2  # the lists read, not a stored page
        assert len(few) <= 12


class TestNextGame:
    def test_it_goes_to_the_longest_waiting(self, client, alice, alices_games):
        oldest, middle, newest, _bobs = alices_games
        client.force_login(alice)

        response = client.get(reverse("games:next"))

        assert response.url == board(oldest)

    def test_it_skips_the_game_i_am_on(self, client, alice, alices_games):
        oldest, middle, newest, bobs_turn = alices_games
        client.force_login(alice)

        def after(game):
            return client.get(reverse("games:next"), {"after": game.pk}).url

        assert after(oldest) == board(middle)
        assert after(middle) == board(newest)
        assert after(newest) == board(oldest)  # round to the first
        assert after(bobs_turn) == board(oldest)

    def test_it_ignores_a_bad_after(self, client, alice, alices_games):
        client.force_login(alice)

        response = client.get(reverse("games:next"), {"after": "x"})

        assert response.url == board(alices_games[0])

    def test_without_a_game_it_goes_home(self, client, alice, bob):
        game = start_game(alice, bob)
        client.force_login(alice)

        response = client.get(reverse("games:next"), {"after": game.pk}, follow=True)

        assert response.redirect_chain == [(reverse("home"), 302)]
        assert "No other game is waiting for your move." in response.content.decode()

    def test_it_needs_login(self, client, db):
        response = client.get(reverse("games:next"))

        assert response.url.startswith(reverse("account_login"))


class TestProfile:
    def test_it_shows_finished_games_with_the_rank(self, client, alice, bob, charlie):
        game = start_game(alice, bob, charlie)
        moves.do_concede(game.pk, charlie)
        moves.do_concede(game.pk, bob)

        page = client.get(reverse("games:profile", args=["bob"])).content.decode()

        assert f'href="{board(game)}"' in page
        assert "rank 2 of 3" in page
        assert "(conceded)" in page

    def test_cancelled_games_are_not_results(self, client, alice, bob):
        game = start_game(alice, bob)
        cancel_votes.do_vote_cancel(game.pk, alice)
        cancel_votes.do_vote_cancel(game.pk, bob)

        page = client.get(reverse("games:profile", args=["alice"])).content.decode()

        assert "No finished game yet." in page


class TestNoHiddenInformation:
    def test_lists_show_no_seed_and_no_hand(self, client, alice, bob, charlie):
        rand = random.Random(9)
        game = start_game(alice, bob)
        for _ in range(40):
            game = play_one(game, rand)
        finished = start_game(bob, alice)
        for _ in range(20):
            finished = play_one(finished, rand)
        moves.do_concede(finished.pk, bob)
        invitations.do_create_invitation(bob, players=3)
        client.force_login(alice)

        pages = [
            client.get(reverse("home")).content.decode(),
            client.get(reverse("games:lobby")).content.decode(),
            client.get(reverse("games:profile", args=["alice"])).content.decode(),
            client.get(reverse("games:actions", args=[game.pk])).content.decode(),
        ]

        bobs_seat = game.seats.get(user=bob).number
        hand = game.snapshot["players"][bobs_seat]["hand"]
        fantasy = game.options["names"] == "fantasy"
        secrets = [str(game.seed), str(finished.seed)] + [card_name(c, fantasy) for c in hand]
        for page in pages:
            for secret in secrets:
                assert secret not in page

    def test_admin_pages_show_no_seed(self, client, alice, bob):
        game = start_game(alice, bob)
        play_one(game, random.Random(1))
        admin = User.objects.create_superuser("root", "root@example.org", "x")
        client.force_login(admin)

        for url in (
            reverse("admin:games_game_change", args=[game.pk]),
            reverse("admin:games_move_changelist"),
            reverse("admin:games_move_change", args=[game.moves.get().pk]),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            assert str(game.seed) not in response.content.decode()
