import re

import pytest
from django.urls import reverse

from games.models import Game, Invitation
from games.play import cancel_votes, invitations, moves
from tests.games.helpers import start_game

HTMX = {"HTTP_HX_REQUEST": "true"}


def form_data(**changes) -> dict:
    data = {
        "players": "2",
        "rules": "yucata",
        "setup": "sequential",
        "move_days": "3",
        "invitees": "",
    }
    return data | changes


class TestLobby:
    def test_it_needs_login(self, client, db):
        response = client.get(reverse("games:lobby"))

        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))

    def test_it_lists_the_invitations_i_may_answer(self, client, alice, bob, charlie):
        open_one = invitations.do_create_invitation(bob, players=3)
        for_me = invitations.do_create_invitation(bob, invitees=[alice])
        for_charlie = invitations.do_create_invitation(bob, invitees=[charlie])
        withdrawn = invitations.do_create_invitation(bob)
        invitations.do_withdraw_invitation(withdrawn.pk, bob)
        mine = invitations.do_create_invitation(alice, players=4)
        client.force_login(alice)

        response = client.get(reverse("games:lobby"))

        page = response.content.decode()
        for shown in (open_one, for_me, mine):
            assert f'id="invitation-{shown.pk}"' in page
        for hidden in (for_charlie, withdrawn):
            assert f'id="invitation-{hidden.pk}"' not in page
        assert reverse("games:withdraw", args=[mine.pk]) in page
        assert reverse("games:accept", args=[open_one.pk]) in page

    def test_htmx_gets_the_list_alone(self, client, alice, bob):
        invitations.do_create_invitation(bob)
        client.force_login(alice)

        response = client.get(reverse("games:lobby"), **HTMX)

        page = response.content.decode()
        assert 'id="invitation-list"' in page
        assert "<html" not in page


class TestCreateInvitation:
    def test_it_asks_which_game_first(self, client, alice):
        client.force_login(alice)

        page = client.get(reverse("games:invitation_new")).content.decode()

        # The site's games and the tests' proof game, each with its rules.
        assert "?game=guildhall" in page and "?game=goofspiel" in page
        assert "https://www.yucata.de/en/Rules/Guildhall" in page

    def test_it_shows_the_games_own_options(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("games:invitation_new") + "?game=guildhall")

        assert response.status_code == 200
        page = response.content.decode()
        for name in ("players", "rules", "advanced", "fantasy_names", "move_days", "invitees"):
            assert f'name="{name}"' in page
        assert ">4 players</option>" in page
        assert ">5 players</option>" not in page

    def test_another_game_has_its_own_options_and_player_range(self, client, alice):
        client.force_login(alice)

        page = client.get(reverse("games:invitation_new") + "?game=goofspiel").content.decode()

        assert 'name="cards"' in page and 'name="rules"' not in page
        assert ">2 players</option>" in page

    def test_an_unknown_game_is_not_found(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("games:invitation_new") + "?game=chess")

        assert response.status_code == 404

    def test_it_creates_an_invitation_to_another_game(self, client, alice):
        client.force_login(alice)

        response = client.post(
            reverse("games:invitation_new"),
            {"game": "goofspiel", "players": "3", "cards": "7", "move_days": "1"},
        )

        assert response.status_code == 302
        invitation = Invitation.objects.get()
        assert (invitation.kind, invitation.players, invitation.options) == (
            "goofspiel",
            3,
            {"cards": 7},
        )

    def test_it_creates_an_open_invitation(self, client, alice):
        client.force_login(alice)

        response = client.post(
            reverse("games:invitation_new"),
            form_data(players="3", rules="classic", advanced="on", fantasy_names="on"),
        )

        assert response.status_code == 302
        invitation = Invitation.objects.get()
        assert (invitation.creator, invitation.kind, invitation.players) == (alice, "guildhall", 3)
        assert invitation.options == {
            "rules": "classic",
            "advanced": True,
            "fantasy_names": True,
            "setup": "sequential",
        }
        assert invitation.open_to_all
        assert invitation.move_days == 3

    def test_no_time_limit_is_none(self, client, alice):
        client.force_login(alice)

        client.post(reverse("games:invitation_new"), form_data(move_days=""))

        assert Invitation.objects.get().move_days is None

    def test_it_invites_players_by_username(self, client, alice, bob, charlie):
        client.force_login(alice)

        client.post(
            reverse("games:invitation_new"), form_data(players="3", invitees="Bob, @charlie")
        )

        invitation = Invitation.objects.get()
        assert not invitation.open_to_all
        assert set(invitation.invitees.all()) == {bob, charlie}

    @pytest.mark.parametrize(
        "changes, message",
        [
            ({"invitees": "nobody"}, "No player is called nobody"),
            ({"invitees": "alice"}, "leave your own name out"),
            ({"players": "3", "invitees": "bob"}, "Name at least 2 players"),
            ({"players": "5"}, "Select a valid choice"),
            ({"move_days": "4"}, "Select a valid choice"),
        ],
    )
    def test_it_rejects_bad_values(self, client, alice, bob, changes, message):
        client.force_login(alice)

        response = client.post(reverse("games:invitation_new"), form_data(**changes))

        assert response.status_code == 200
        assert message in response.content.decode()
        assert not Invitation.objects.exists()


class TestAnswerInvitation:
    def test_the_last_acceptance_goes_to_the_board(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        client.force_login(bob)

        response = client.post(reverse("games:accept", args=[invitation.pk]))

        game = Game.objects.get()
        assert response.status_code == 302
        assert response.url == reverse("games:board", args=[game.pk])

    def test_with_htmx_the_client_is_redirected(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        client.force_login(bob)

        response = client.post(reverse("games:accept", args=[invitation.pk]), **HTMX)

        assert response["HX-Redirect"] == reverse("games:board", args=[Game.objects.get().pk])

    def test_accepting_a_seat_swaps_the_row(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice, players=3)
        client.force_login(bob)

        response = client.post(reverse("games:accept", args=[invitation.pk]), **HTMX)

        page = response.content.decode()
        assert page.strip().startswith(f'<li class="invitation" id="invitation-{invitation.pk}"')
        assert "You have a seat." in page
        assert "Leave" in page

    def test_without_javascript_it_goes_back(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice, players=3)
        client.force_login(bob)

        response = client.post(
            reverse("games:decline", args=[invitation.pk]), {"next": reverse("home")}
        )

        assert response.status_code == 302
        assert response.url == reverse("home")
        assert not invitation.responses.get(user=bob).accepted

    def test_it_does_not_go_back_elsewhere(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice, players=3)
        client.force_login(bob)

        response = client.post(
            reverse("games:decline", args=[invitation.pk]), {"next": "https://evil.example/"}
        )

        assert response.url == reverse("games:lobby")

    def test_a_closed_invitation_says_so(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        invitations.do_withdraw_invitation(invitation.pk, alice)
        client.force_login(bob)

        response = client.post(reverse("games:accept", args=[invitation.pk]), **HTMX)

        assert "no longer open" in response.content.decode()
        assert not Game.objects.exists()

    def test_an_uninvited_player_is_told_there_is_no_such_invitation(
        self, client, alice, bob, charlie
    ):
        # As the API answers: whether an invitation not for you exists is not yours to know.
        invitation = invitations.do_create_invitation(alice, invitees=[bob])
        client.force_login(charlie)

        response = client.post(reverse("games:accept", args=[invitation.pk]))

        assert response.status_code == 404
        assert not invitation.responses.filter(user=charlie).exists()

    def test_only_the_creator_withdraws(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        client.force_login(bob)

        response = client.post(reverse("games:withdraw", args=[invitation.pk]))

        assert response.status_code == 403
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.OPEN

    def test_withdraw(self, client, alice):
        invitation = invitations.do_create_invitation(alice)
        client.force_login(alice)

        response = client.post(reverse("games:withdraw", args=[invitation.pk]), **HTMX)

        assert "Withdrawn." in response.content.decode()
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.WITHDRAWN

    def test_it_needs_a_post(self, client, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        client.force_login(bob)

        response = client.get(reverse("games:accept", args=[invitation.pk]))

        assert response.status_code == 405
        assert not Game.objects.exists()


class TestGameActions:
    def test_concede_without_javascript(self, client, alice, bob):
        game = start_game(alice, bob)
        client.force_login(alice)

        response = client.post(reverse("games:concede", args=[game.pk]))

        assert response.status_code == 302
        assert response.url == reverse("games:board", args=[game.pk])
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert game.seats.get(user=bob).rank == 1

    def test_concede_with_htmx_reloads_the_board(self, client, alice, bob):
        game = start_game(alice, bob)
        client.force_login(alice)

        response = client.post(reverse("games:concede", args=[game.pk]), **HTMX)

        assert response["HX-Refresh"] == "true"

    def test_concede_twice_says_why(self, client, alice, bob):
        game = start_game(alice, bob)
        moves.do_concede(game.pk, alice)
        client.force_login(bob)

        response = client.post(reverse("games:concede", args=[game.pk]), **HTMX)

        assert "The game is over" in response.content.decode()

    def test_an_outsider_cannot_concede(self, client, alice, bob, charlie):
        game = start_game(alice, bob)
        client.force_login(charlie)

        response = client.post(reverse("games:concede", args=[game.pk]))

        assert response.status_code == 403

    def test_a_vote_swaps_the_buttons(self, client, alice, bob):
        game = start_game(alice, bob)
        client.force_login(alice)

        response = client.post(reverse("games:vote_cancel", args=[game.pk]), **HTMX)

        page = response.content.decode()
        assert "Take back my vote" in page
        assert "1 of 2 players want to cancel" in page

    def test_the_last_vote_cancels(self, client, alice, bob):
        game = start_game(alice, bob)
        cancel_votes.do_vote_cancel(game.pk, bob)
        client.force_login(alice)

        response = client.post(reverse("games:vote_cancel", args=[game.pk]))

        assert response.status_code == 302
        game.refresh_from_db()
        assert game.status == Game.Status.CANCELLED

    def test_taking_back_a_vote(self, client, alice, bob):
        game = start_game(alice, bob)
        cancel_votes.do_vote_cancel(game.pk, alice)
        client.force_login(alice)

        client.post(reverse("games:vote_cancel", args=[game.pk]), {"vote": "0"})

        assert not game.seats.get(user=alice).cancel_vote

    def test_the_partial_shows_the_buttons_to_players_only(self, client, alice, bob, charlie):
        game = start_game(alice, bob)

        client.force_login(alice)
        assert "Concede" in client.get(reverse("games:actions", args=[game.pk])).content.decode()
        client.force_login(charlie)
        assert (
            "Concede" not in client.get(reverse("games:actions", args=[game.pk])).content.decode()
        )


def without_tokens(response) -> str:
    """The page, its CSRF tokens (masked afresh on each page) left out."""
    return re.sub(r'(X-CSRFToken": "|value=")[0-9A-Za-z]{64}', r"\1", response.content.decode())


class TestWhoSeesAnInvitation:
    """One rule for the pages and the API (games.reads.queries.visible_invitations): an invitation
    is seen by anyone while it is open to all, else by its creator and the players it names.
    Any other answer is a 404, alike for an invitation that exists and one that does not."""

    @pytest.fixture
    def invitations(self, alice, bob) -> dict:
        private_open = invitations.do_create_invitation(alice, invitees=[bob])
        private_withdrawn = invitations.do_create_invitation(alice, invitees=[bob])
        invitations.do_withdraw_invitation(private_withdrawn.pk, alice)
        private_started = invitations.do_create_invitation(alice, invitees=[bob])
        invitations.do_accept_invitation(private_started.pk, bob)
        private_declined = invitations.do_create_invitation(alice, invitees=[bob])
        invitations.do_decline_invitation(private_declined.pk, bob)
        public_withdrawn = invitations.do_create_invitation(alice, players=3)
        invitations.do_withdraw_invitation(public_withdrawn.pk, alice)
        return {
            "private, open": private_open,
            "private, withdrawn": private_withdrawn,
            "private, started": private_started,
            "private, declined": private_declined,
            "public, withdrawn": public_withdrawn,
        }

    @pytest.mark.parametrize("action", ["accept", "decline", "withdraw"])
    @pytest.mark.parametrize("htmx", [True, False])
    def test_an_outsider_learns_nothing_of_a_private_one(
        self, client, charlie, invitations, action, htmx
    ):
        client.force_login(charlie)
        headers = HTMX if htmx else {}
        missing = client.post(reverse(f"games:{action}", args=[999_999_999]), **headers)

        for name, invitation in invitations.items():
            if name.startswith("public"):
                continue
            response = client.post(reverse(f"games:{action}", args=[invitation.pk]), **headers)

            assert response.status_code == 404, name
            assert without_tokens(response) == without_tokens(missing), name
            assert "Alice" not in response.content.decode(), name
        assert not Invitation.objects.filter(responses__user=charlie).exists()

    def test_the_pages_and_the_api_agree(self, client, alice, bob, charlie, invitations):
        from tests.games.api_helpers import Api

        for user in (alice, bob, charlie):
            client.force_login(user)
            api = Api(user)
            for name, invitation in invitations.items():
                # decline: changes nothing the next question depends on (and is refused for
                # the creator, with the invitation's card, which is hers to see).
                page = client.post(reverse("games:decline", args=[invitation.pk]), **HTMX)
                seen_by_api = api.get(f"/api/v1/invitations/{invitation.pk}/").status_code
                assert (page.status_code != 404) == (seen_by_api == 200), (user.username, name)
                expected = user != charlie or name.startswith("public")
                assert (seen_by_api == 200) == expected, (user.username, name)
