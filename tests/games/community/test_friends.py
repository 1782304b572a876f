"""Friends (games.community.friends): added from a profile in one direction, nothing to accept and
nothing told; first when naming invitees, the lobby's filter, the dashboard's games to
watch; limits and refusals."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games.community.friends import actions as friends
from games.community.friends import reads as friend_reads
from games.community.models import Friendship
from games.play import computer_players, invitations
from tests.conftest import client_for
from tests.games.api_helpers import Api
from tests.games.helpers import start_game


def profile(user) -> str:
    return reverse("games:profile", args=[user.username])


class TestTheService:
    def test_one_direction_nothing_to_accept(self, alice, bob):
        assert friends.do_add_friend(alice, bob)

        assert friend_reads.is_friend(alice, bob)
        assert not friend_reads.is_friend(bob, alice)
        assert [u.username for u in friend_reads.friends(alice)] == ["bob"]
        assert friend_reads.friends(bob) == []

    def test_twice_is_once(self, alice, bob):
        friends.do_add_friend(alice, bob)

        assert not friends.do_add_friend(alice, bob)
        assert Friendship.objects.count() == 1

    def test_removed(self, alice, bob):
        friends.do_add_friend(alice, bob)

        assert friends.do_remove_friend(alice, bob)
        assert not friends.do_remove_friend(alice, bob)
        assert not friend_reads.is_friend(alice, bob)

    def test_not_oneself(self, alice):
        with pytest.raises(ValidationError, match="your own friend"):
            friends.do_add_friend(alice, alice)

    def test_not_a_computer_player(self, alice):
        computer = computer_players.account("normal", 1)

        with pytest.raises(ValidationError, match="Only people"):
            friends.do_add_friend(alice, computer)

    def test_at_most_max_friends(self, alice, bob, charlie, monkeypatch):
        monkeypatch.setattr(friends, "MAX_FRIENDS", 1)
        friends.do_add_friend(alice, bob)

        with pytest.raises(ValidationError, match="the most there can be"):
            friends.do_add_friend(alice, charlie)
        assert not friend_reads.is_friend(alice, charlie)

    def test_sorted_by_name_and_only_active_accounts(self, alice, bob, charlie, dave):
        for other in (dave, charlie, bob):
            friends.do_add_friend(alice, other)
        charlie.is_active = False
        charlie.save(update_fields=["is_active"])

        assert [u.name for u in friend_reads.friends(alice)] == ["Bob", "Dave"]


class TestTheProfile:
    def test_add_and_remove_from_their_page(self, alice, bob):
        client = client_for(alice)
        page = client.get(profile(bob)).content.decode()
        assert "Add to my friends" in page

        added = client.post(reverse("accounts:friend_add", args=["bob"]), follow=True)

        assert friend_reads.is_friend(alice, bob)
        assert "Bob is now your friend." in added.content.decode()
        assert "Remove from my friends" in added.content.decode()
        removed = client.post(reverse("accounts:friend_remove", args=["bob"]), follow=True)
        assert not friend_reads.is_friend(alice, bob)
        assert "no longer your friend" in removed.content.decode()

    def test_the_friend_is_not_told(self, alice, bob):
        client_for(alice).post(reverse("accounts:friend_add", args=["bob"]))

        assert mail.outbox == []
        bobs_page = client_for(bob).get(profile(alice)).content.decode()
        assert "Add to my friends" in bobs_page  # nothing says Alice added him
        assert "Alice" not in client_for(bob).get(profile(bob)).content.decode()

    def test_my_own_page_lists_my_friends(self, alice, bob):
        friends.do_add_friend(alice, bob)

        page = client_for(alice).get(profile(alice)).content.decode()

        assert "Your friends" in page
        assert f'href="{profile(bob)}">Bob</a>' in page
        assert "Add to my friends" not in page

    def test_no_button_for_a_computer_player_or_a_visitor(self, alice):
        computer = computer_players.account("normal", 1)

        assert "Add to my friends" not in client_for(alice).get(profile(computer)).content.decode()
        assert "Add to my friends" not in Client().get(profile(alice)).content.decode()

    def test_refusals_change_nothing(self, alice):
        client = client_for(alice)

        itself = client.post(reverse("accounts:friend_add", args=["alice"]), follow=True)
        assert "your own friend" in itself.content.decode()
        assert client.post(reverse("accounts:friend_add", args=["nobody"])).status_code == 404
        assert client.get(reverse("accounts:friend_add", args=["alice"])).status_code == 405
        anonymous = Client().post(reverse("accounts:friend_add", args=["alice"]))
        assert anonymous.status_code == 302
        assert not Friendship.objects.exists()

    def test_too_many_changes(self, alice, bob, charlie, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "friends": "1/hour"}
        client = client_for(alice)
        client.post(reverse("accounts:friend_add", args=["bob"]))

        refused = client.post(reverse("accounts:friend_add", args=["charlie"]), follow=True)

        assert "Too many requests" in refused.content.decode()
        assert not friend_reads.is_friend(alice, charlie)


class TestWhereFriendsCount:
    def test_the_lobby_shows_friends_invitations_alone(self, alice, bob, charlie):
        friends.do_add_friend(alice, bob)
        invitations.do_create_invitation(bob, players=2, options={})
        invitations.do_create_invitation(charlie, players=2, options={})
        client = client_for(alice)

        everyone = client.get(reverse("games:lobby")).content.decode()
        only_friends = client.get(reverse("games:lobby"), {"friends": "1"}).content.decode()

        assert "By Bob" in everyone and "By charlie" in everyone
        assert "By Bob" in only_friends and "By charlie" not in only_friends
        assert "Show all invitations" in only_friends

    def test_the_dashboard_shows_friends_games_to_watch(self, alice, bob, charlie, dave):
        friends.do_add_friend(alice, bob)
        watch = start_game(bob, charlie)
        start_game(charlie, dave)  # no friend of Alice's in it
        mine = start_game(alice, bob)  # Alice plays in it: not one to watch

        page = client_for(alice).get(reverse("home")).content.decode()

        assert "games to watch" in page
        assert reverse("games:board", args=[watch.pk]) in page
        section = page.split("games to watch", 1)[1].split("</section>", 1)[0]
        assert reverse("games:board", args=[mine.pk]) not in section
        assert "Dave" not in section

    def test_no_friends_no_section(self, alice, bob, charlie):
        start_game(bob, charlie)

        assert "games to watch" not in client_for(alice).get(reverse("home")).content.decode()

    def test_friends_are_offered_when_naming_invitees(self, alice, bob):
        friends.do_add_friend(alice, bob)

        page = (
            client_for(alice)
            .get(reverse("games:invitation_new"), {"game": "guildhall"})
            .content.decode()
        )

        assert 'list="friend-names"' in page
        assert '<option value="bob">' in page
        assert "Your friends: bob." in page


class TestTheApi:
    def test_list_add_and_remove(self, alice, bob):
        api = Api(alice)

        assert api.get("/api/v1/me/friends/").json() == []
        added = api.put("/api/v1/me/friends/bob/")
        assert added.status_code == 200
        assert added.json() == {"username": "bob", "name": "Bob"}
        assert api.put("/api/v1/me/friends/bob/").status_code == 200  # already one: the same
        assert api.get("/api/v1/me/friends/").json() == [{"username": "bob", "name": "Bob"}]

        assert api.delete("/api/v1/me/friends/bob/").status_code == 204
        assert api.delete("/api/v1/me/friends/bob/").status_code == 404
        assert not friend_reads.is_friend(alice, bob)

    def test_refusals(self, alice):
        api = Api(alice)

        assert api.put("/api/v1/me/friends/nobody/").status_code == 404
        itself = api.put("/api/v1/me/friends/alice/")
        assert itself.status_code == 400
        assert "your own friend" in itself.content.decode()
        assert not Friendship.objects.exists()
        assert Client().get("/api/v1/me/friends/").status_code in (401, 403)

    def test_limited(self, alice, bob, charlie, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "friends": "1/hour"}
        api = Api(alice)
        api.put("/api/v1/me/friends/bob/")

        refused = api.put("/api/v1/me/friends/charlie/")

        assert refused.status_code == 429
        assert not friend_reads.is_friend(alice, charlie)
